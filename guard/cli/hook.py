"""`guard hook claude-code`: guard's verdict as Claude Code's PreToolUse hook answer.

Claude Code runs the hook before each tool call with JSON on stdin (``tool_name``,
``tool_input.command``, ``cwd``, ``session_id`` …). For the Bash tool guard judges the command
and prints ``{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision":
"allow" | "deny" | "ask", "permissionDecisionReason": "…"}}``; other tools get no opinion (no
output). Whatever goes wrong — bad or truncated JSON, a missing command, a crash — the answer is
deny with the reason, and the exit status is 0 so that Claude Code reads it: a hook that fails
with another status would let the call through.

``ask`` is handed to Claude Code's own permission prompt, which the human sees and the agent
cannot answer; with ``GUARD_APPROVER=always`` it goes to `guard watch` instead (headless runs),
and the human's answer there becomes allow or deny.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Mapping

from guard.errors import GuardError

MAX_INPUT = 16 << 20  # bytes of hook input read; more is refused, not cut
NOT_RUN = "the command was not run"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("hook", help="answer an agent's own permission hook (claude-code)")
    p.add_argument("agent", choices=["claude-code"], help="whose hook protocol to speak")
    # 2 is Claude Code's "block" status: should anything escape, the call is still not allowed
    p.set_defaults(run=run, error_status=2)


def run(args: argparse.Namespace | None, raw: bytes | None = None) -> int:
    """`raw`: the input, when the resident checker's client has read it already."""
    try:
        raw = sys.stdin.buffer.read(MAX_INPUT + 1) if raw is None else raw
        answer = claude_code(raw, os.environ)
    except BaseException as exc:  # fail closed, whatever it was
        answer = decision("deny", f"guard: could not check the command ({exc!r}); {NOT_RUN}")
    if answer is not None:
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


def decision(permission: str, reason: str) -> dict[str, object]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": permission,
            "permissionDecisionReason": reason,
        }
    }


def claude_code(
    raw: bytes,
    env: Mapping[str, str],
    *,
    here: str | None = None,
    parent: str | None = None,
    record: Callable[..., None] | None = None,
) -> dict[str, object] | None:
    """The hook's answer to one PreToolUse input; None for tools guard has no opinion on.
    `here`, `parent`, `record`: the hook process's directory and parent session, and what
    takes the audit row (to write it once the hook has its answer), when this runs in the
    resident checker on its behalf."""
    if len(raw) > MAX_INPUT:
        return decision("deny", f"guard: the hook input is over {MAX_INPUT} bytes; {NOT_RUN}")
    try:
        data = json.loads(raw)
    except ValueError as exc:
        return decision("deny", f"guard: the hook input is not JSON (truncated?): {exc}; {NOT_RUN}")
    if not isinstance(data, dict):
        return decision("deny", f"guard: the hook input is not a JSON object; {NOT_RUN}")
    tool = data.get("tool_name")
    if not isinstance(tool, str):
        return decision("deny", f"guard: the hook input names no tool_name; {NOT_RUN}")
    if tool != "Bash" or data.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None
    tool_input = data.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if not isinstance(command, str):
        return decision("deny", f"guard: the Bash call has no tool_input.command; {NOT_RUN}")
    cwd = data.get("cwd", here or os.getcwd())
    if not isinstance(cwd, str) or not os.path.isabs(cwd):
        return decision("deny", f"guard: the hook input's cwd {cwd!r} is not a path; {NOT_RUN}")
    sid = data.get("session_id")
    session = f"claude-code:{sid}" if isinstance(sid, str) and sid else parent or _parent_session()
    try:
        return _judged(command, cwd, session, env, record or _audit)
    except GuardError as exc:
        return decision("deny", f"{exc}; {NOT_RUN}")


def _judged(
    command: str, cwd: str, session: str, env: Mapping[str, str], record: Callable[..., None]
) -> dict[str, object]:
    from guard.confirm import approver_mode, confirm
    from guard.decide import describe
    from guard.judgement import judge

    project_dir = env.get("CLAUDE_PROJECT_DIR", "")
    result = judge(
        command,
        cwd=cwd,
        env=env,
        session=session,
        agent=True,
        workspace_dir=project_dir if os.path.isabs(project_dir) else None,
    )
    verdict = result.verdict
    protected = [d for d in verdict.decided if d.request.surface == "protected"]
    reasons = "; ".join(r.split(": ", 1)[-1] for r in verdict.reasons[:3])  # no "ask: " lead
    final, how = verdict.decision, "rule"
    if final == "allow" and protected:
        # never a silent allow for a protected path: Claude Code's own prompt shows it
        how = "claude-code-prompt"
        home = result.context.home
        shown = "; ".join(dict.fromkeys(describe(d.request, home=home) for d in protected))
        answer = decision("ask", f"guard asks: {shown}")
        final = "ask"
    elif final == "allow":
        used = any(d.by.startswith("approval") for d in verdict.decided)
        how, reason = ("approval", "guard: allowed by an approval") if used else ("rule", "")
        answer = decision("allow", reason or "guard: allowed by the policy")
    elif final == "deny":
        answer = decision("deny", f"guard: denied: {reasons}")
    elif approver_mode(env) == "always":
        outcome = confirm(result, session=session, env={**env, "GUARD_ORIGIN": "claude-code"})
        final, how = ("allow" if outcome.allowed else "deny"), outcome.how
        said = "guard: allowed by the human at `guard watch`"
        answer = decision(final, said if outcome.allowed else outcome.message)
    else:
        how = "claude-code-prompt"
        answer = decision("ask", f"guard asks: {reasons}")
    record(result.context.cwd, command, session, final, verdict.reasons, how, env)
    return answer


def _audit(
    cwd: str,
    command: str,
    session: str,
    final: str,
    reasons: tuple[str, ...],
    how: str,
    env: Mapping[str, str],
) -> None:
    from guard.judgement import idle_seconds
    from guard.store import Store

    try:
        with Store.open() as store:
            now = time.time()
            store.record(
                time=now,
                session=session,
                cwd=cwd,
                command=command,
                decision=final,
                reasons=reasons,
                how=how,
                detail={"origin": "claude-code"},
            )
            store.touch_session(session, now, cwd, idle_seconds=idle_seconds(env))
    except GuardError as exc:
        print(f"{exc} (this verdict was not written to the audit log)", file=sys.stderr)


def _parent_session() -> str:
    from guard.session import current_session

    return current_session()
