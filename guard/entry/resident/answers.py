"""What the resident checker answers: the verdict the in-process path would give, from a request.

Each request carries the client's whole environment and directory; the checker makes them its
own before it judges (the policy file, the store and guard's own paths are found through
GUARD_CONFIG, GUARD_STATE_DIR and the XDG variables, as in the client). It never asks a human:
an ask that the client would put to one comes back as `fallback`, and the client asks in its
own process, on its own terminal, exactly as it does without a checker.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable

from guard.entry.resident import protocol as wire
from guard.kernel import Ruleset
from guard.policy import Policy, load_policy, policy_inputs
from guard.verdict import Judgement, is_agent

Pairs = list[tuple[str, bytes]]
Answer = list[tuple[str, str | bytes]]
AfterAck = Callable[[], None]  # work done once the client has taken the answer (the audit row)


def fallback(reason: str) -> Answer:
    return [("action", "fallback"), ("reason", reason)]


class FreshPolicies:
    """Policies kept in memory, each with everything it was read from (policy_freshness.py: the
    files' bytes, who may change them, the directories above the managed file, which file that
    is): anything a fresh process would read otherwise now is read again, so a policy is never
    stale. A layer that `load_policy` reads from another file must be named there too."""

    def __init__(self) -> None:
        self._kept: dict[tuple[object, ...], tuple[tuple[object, ...], Policy]] = {}

    def load(
        self, workspace: str | None, *, home: str | None = None, trust_project: bool = True
    ) -> Policy:
        key = (workspace, home, trust_project)
        before = policy_inputs(workspace)
        kept = self._kept.get(key)
        if kept is not None and kept[0] == before:
            return kept[1]
        policy = load_policy(workspace, home=home, trust_project=trust_project)
        if policy_inputs(workspace) == before:  # not changed while it was read
            if len(self._kept) > 64:
                self._kept.clear()
            self._kept[key] = (before, policy)
        return policy


def adopt(env: dict[str, str]) -> None:
    """Make the client's environment this process's, as a fresh process would have it."""
    if env != os.environ:
        os.environ.clear()
        os.environ.update(env)


def environment(pairs: Pairs) -> dict[str, str]:
    env: dict[str, str] = {}
    for item in wire.every(pairs, "env"):
        name, eq, value = item.partition("=")
        if eq and name:
            env[name] = value
    return env


def client_dir(env: dict[str, str], here: str) -> str:
    """The client's directory as `current_dir` would give it there: $PWD when it is `here`."""
    given = env.get("PWD")
    try:
        return given if given and os.path.samefile(given, here) else here
    except OSError:
        return here


def check(pairs: Pairs, policies: FreshPolicies) -> tuple[Answer, AfterAck | None]:
    """`guard check` / guarded-bash: status and messages; an ask to prompt for is fallback."""
    from guard.entry.check import (
        LineRequest,
        audit_check,
        decide_line,
        failed_late,
        may_write_late,
        settle,
        write_row,
    )

    env = environment(pairs)
    adopt(env)
    here = wire.first(pairs, "getcwd")
    cwd = wire.first(pairs, "cwd") or client_dir(env, here)
    session = wire.first(pairs, "session")
    given = wire.first(pairs, "positional?") == "1"
    positional = tuple(wire.every(pairs, "positional")) if given else None
    arg0 = next((wire.text(v) for k, v in pairs if k == "arg0"), None)
    prompt = wire.first(pairs, "prompt") == "1"
    origin = wire.first(pairs, "origin", "guard check")
    line = LineRequest(
        wire.first(pairs, "text"),
        cwd=cwd,
        env=env,
        session=session,
        positional=positional,
        arg0=arg0,
        stdin_code=wire.first(pairs, "stdin_code") == "1",
        agent=is_agent(env, terminal=wire.first(pairs, "terminal") == "1"),
        policy_loader=policies.load,
    )
    result = decide_line(line)
    if result.verdict.decision == "ask" and prompt:
        return fallback("ask: the client asks the human"), None
    held: Answer = []
    extra: dict[str, object] = {}
    notes = ""
    if origin == "guarded-bash" and result.verdict.decision == "allow":
        from guard.policy import enforcement_mode

        mode = enforcement_mode(result.policy, env, agent=result.context.agent)
        if mode != "off":
            # the line runs held by Landlock (issue 17): a client that can apply a ruleset
            # gets its grants; the native launcher cannot, and hands the line to guarded-bash
            if wire.first(pairs, "enforce_capable") != "1":
                return fallback("the line runs enforced: the client applies the ruleset"), None
            held, extra = _ruleset_pairs(result, env, mode)
            notes = _startup_notes(result, env, login=wire.first(pairs, "login") == "1")
    err = io.StringIO()
    late = may_write_late(result, session)
    with contextlib.redirect_stderr(err):
        settled = settle(result, session=session, env=env, prompt=False, origin=origin)
        status, decision, how = settled.status, settled.decision, settled.how
        # a session's first row, a row after one was lost, a managed audit log: written
        # before the answer, which then says what went wrong (or refuses the line)
        if not late and audit_check(result, session, decision, how, origin, extra):
            status, held = 1, []

    def record() -> None:
        problem = write_row(result, session, decision, how, origin, extra)
        if problem is not None:
            failed_late(session, problem)  # the session's next line says so

    told = err.getvalue() + notes
    answer: Answer = [("action", "done"), ("status", str(status)), ("stderr", told)]
    return [*answer, *held], record if late else None


def _ruleset_pairs(
    result: Judgement, env: dict[str, str], mode: str
) -> tuple[Answer, dict[str, object]]:
    """The enforcement a client applies before it execs bash: the mode and each grant
    (`read PATH`, `write PATH`), and what the audit row says of it."""
    from guard.kernel import probe, ruleset_for

    abi, why_not = probe()
    pairs: Answer = [("enforce", mode)]
    if abi is None:
        return pairs, {"enforce": f"unavailable: {why_not}"}
    ruleset = ruleset_for(result, env)
    pairs.append((wire.ENCODED, _grant_fields(ruleset)))
    return pairs, {"enforce": f"landlock abi {abi}", "enforce_grants": len(ruleset.grants)}


def _startup_notes(result: Judgement, env: dict[str, str], *, login: bool) -> str:
    """What guarded-bash says in-process of the start-up files' writes the ruleset holds."""
    from guard.kernel import probe, ruleset_for, startup_notes

    if probe()[0] is None:
        return ""
    from guard.printable import escaped

    notes = startup_notes(result.context, ruleset_for(result, env), env, login=login)
    return "".join(escaped(note) + "\n" for note in notes)


_GRANTS: dict[int, tuple[Ruleset, bytes]] = {}


def _grant_fields(ruleset: Ruleset) -> bytes:
    """The `grant` pairs (`read PATH`, `write PATH`) of a ruleset, encoded once for as long as
    the checker keeps the ruleset (ruleset_for in guard/kernel/line_hold.py returns the one it
    keeps)."""
    kept = _GRANTS.get(id(ruleset))
    if kept is None or kept[0] is not ruleset:
        grants = wire.fields([("grant", f"{g.access} {g.path}") for g in ruleset.grants])
        kept = (ruleset, grants)
        if len(_GRANTS) > 32:
            _GRANTS.clear()
        _GRANTS[id(ruleset)] = kept
    return kept[1]


def hook(pairs: Pairs, policies: FreshPolicies) -> tuple[Answer, AfterAck | None]:
    """`guard hook AGENT`: the answer the hook would print, for every agent, where it needs no
    human. A call that must be held for `guard watch` (guard/entry/agents/core.py `NeedsHold`),
    and input that names no session (or, Claude Code, no directory) and so would need the
    hook's own process, are answered by the hook itself. Whether a human sits at the agent's
    own prompt only the hook's process can see (guard/entry/agents/prompt.py): an ask of an
    agent whose prompt that decides (its record's `process`) is answered by the hook itself,
    unless the client says in `in_band` what it saw."""
    import json

    from guard.entry.agents.core import respond
    from guard.entry.agents.protocols import PROTOCOLS

    env = environment(pairs)
    adopt(env)
    protocol = PROTOCOLS.get(wire.first(pairs, "agent"))
    if protocol is None:
        return fallback("an agent this checker does not know"), None
    raw = next((v for k, v in pairs if k == "input"), b"")
    try:
        data = json.loads(raw)
    except ValueError:
        return fallback("the input is not JSON: the hook says so itself"), None
    ids = ("session_id", "conversation_id", "sessionId", "taskId", "sessionID")
    named = isinstance(data, dict) and any(isinstance(data.get(k), str) for k in ids)
    if not named or (protocol.cwd_optional and "cwd" not in data):
        return fallback("the input names no directory or session"), None
    try:
        timeout = float(wire.first(pairs, "timeout")) if wire.first(pairs, "timeout") else None
    except ValueError:
        return fallback("a timeout that is not a number: the hook says so itself"), None
    err = io.StringIO()
    given = wire.first(pairs, "in_band")  # the client sees the agent; this cannot
    known = bool(given) or protocol.process is None
    in_band = given == "1" if given else protocol.prompt_always
    with contextlib.redirect_stderr(err):
        text = respond(
            protocol, raw, env, hook_timeout=timeout, in_band=in_band, may_hold=False,
            prompt_known=known,
        )  # fmt: skip
    if text is None:
        return fallback("a human answers, at guard watch or the agent's prompt"), None
    out = text + "\n" if text else ""
    return [("action", "done"), ("status", "0"), ("stdout", out), ("stderr", err.getvalue())], None


def explain(pairs: Pairs, policies: FreshPolicies) -> tuple[Answer, AfterAck | None]:
    """`guard explain --json`: the JSON line and the warnings and notes; nothing is recorded."""
    import json

    from guard.entry.check import LineRequest, decide_line
    from guard.entry.judgement_json import as_json

    env = environment(pairs)
    adopt(env)
    here = wire.first(pairs, "getcwd")
    line = LineRequest(
        wire.first(pairs, "text"),
        cwd=wire.first(pairs, "cwd") or client_dir(env, here),
        env=env,
        session=wire.first(pairs, "session"),
        agent=is_agent(env, terminal=wire.first(pairs, "terminal") == "1"),
        policy_loader=policies.load,
    )
    result = decide_line(line)
    err = "".join(line + "\n" for line in result.warnings + result.notes)
    out = json.dumps(as_json(result), ensure_ascii=True) + "\n"
    return [("action", "done"), ("status", "0"), ("stdout", out), ("stderr", err)], None
