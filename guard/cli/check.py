"""`guard check`: the hook-facing call. Exit 0 allow, 1 deny, 2 usage, 3 ask (with --no-prompt).

On ask it prompts on the terminal when there is one in the foreground; without one, ask means
deny with a message that says what to do. Every verdict goes to the audit log.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from guard.errors import GuardError
from guard.judgement import Judgement, idle_seconds, judge

ALLOW, DENY, USAGE, ASK = 0, 1, 2, 3


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("check", help="decide a command line (exit 0 allow, 1 deny, 3 ask)")
    p.add_argument("--session", help="the session whose approvals count")
    p.add_argument("--cwd", help="the directory the line would run in")
    p.add_argument("--json", action="store_true", help="also print the verdict as JSON")
    p.add_argument(
        "--no-prompt", action="store_true", help="never ask: exit 3 when the verdict is ask"
    )
    p.add_argument("command", nargs="*")
    p.set_defaults(run=run, error_status=DENY)


def run(args: argparse.Namespace) -> int:
    from guard.session import current_session

    if not args.command:
        print("guard: check needs a command line: guard check -- 'COMMAND'", file=sys.stderr)
        return USAGE
    session = args.session or current_session()
    command = " ".join(args.command)
    return check_line(
        command, session=session, cwd=args.cwd, as_json=args.json, prompt=not args.no_prompt
    )


def check_line(
    command: str,
    *,
    session: str,
    cwd: str | None = None,
    as_json: bool = False,
    prompt: bool = True,
    positional: tuple[str, ...] | None = None,
    arg0: str | None = None,
    origin: str = "guard check",
    background_audit: bool = False,
) -> int:
    """Judge, ask if needed, record; the exit status for allow (0), deny (1) or ask (3).

    With `background_audit` (guarded-bash, about to exec bash) the audit row is written by a
    forked child, so the command does not wait for the store."""
    env = dict(os.environ)
    result = judge(command, cwd=cwd, env=env, session=session, positional=positional, arg0=arg0)
    for warning in result.warnings:
        print(warning, file=sys.stderr)
    decision = result.verdict.decision
    how = _how(result)
    status = {"allow": ALLOW, "deny": DENY, "ask": ASK}[decision]
    if decision == "ask" and prompt:
        from guard.confirm import confirm

        outcome = confirm(result, session=session, env=env, origin=origin)
        how = outcome.how
        status = ALLOW if outcome.allowed else DENY
        decision = "allow" if outcome.allowed else "deny"
        if not outcome.allowed:
            print(outcome.message, file=sys.stderr)
    elif decision == "deny":
        print("guard: denied: " + "; ".join(result.verdict.reasons[:3]), file=sys.stderr)
    child = _forked_child() if background_audit else None
    if child:
        try:
            _audit(result, session, decision, how, origin)
        finally:
            os._exit(0)
    elif child is None:
        _audit(result, session, decision, how, origin)
    if as_json:
        from guard.cli.explain import as_json as to_json

        out = to_json(result)
        out["final"] = decision
        print(json.dumps(out))
    return status


def _forked_child() -> bool | None:
    """Fork: True in the child (which keeps none of the caller's terminal or pipes), False in
    the parent, None when there is no child (the caller then writes the row itself)."""
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid:
        return False
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    return True


def _how(result: Judgement) -> str:
    bys = {d.by.split(" ")[0] for d in result.verdict.decided if d.decision != "allow"}
    if result.verdict.decision == "allow":
        bys = {d.by.split(" ")[0] for d in result.verdict.decided}
        return "approval" if "approval" in bys else "rule"
    return "rule" if bys else "default"


def _audit(result: Judgement, session: str, decision: str, how: str, origin: str) -> None:
    from guard.judgement import without_store
    from guard.store import Store

    if without_store(os.environ):
        return  # in a sandbox: the approver outside logs what it is asked

    try:
        with Store.open() as store:
            store.record(
                time=time.time(),
                session=session,
                cwd=result.context.cwd,
                command=result.projection.command,
                decision=decision,
                reasons=result.verdict.reasons,
                how=how,
                detail={"origin": origin},
            )
            store.touch_session(
                session, time.time(), result.context.cwd, idle_seconds=idle_seconds(os.environ)
            )
    except GuardError as exc:
        print(f"{exc} (this verdict was not written to the audit log)", file=sys.stderr)
