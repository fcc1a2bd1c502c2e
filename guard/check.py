"""Checking one command line at an edge: judge it, ask a human if needed, record the verdict.

The one path `guard check`, guarded-bash and the shell hooks' fallback share. Kept out of
`guard/cli/` so guarded-bash does not import argparse for it.
"""

from __future__ import annotations

import json
import os
import sys
import time

from guard.errors import GuardError
from guard.judgement import Judgement, idle_seconds, judge

ALLOW, DENY, ASK = 0, 1, 3


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
    stdin_code: bool = False,
) -> int:
    """Judge, ask if needed, record; the exit status for allow (0), deny (1) or ask (3).

    With `background_audit` (guarded-bash, about to exec bash) the audit row is written by a
    forked child, so the command does not wait for the store."""
    env = dict(os.environ)
    result = judge(
        command,
        cwd=cwd,
        env=env,
        session=session,
        positional=positional,
        arg0=arg0,
        stdin_code=stdin_code,
    )
    status, decision, how = settle(result, session=session, env=env, prompt=prompt, origin=origin)
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


def settle(
    result: Judgement, *, session: str, env: dict[str, str], prompt: bool, origin: str
) -> tuple[int, str, str]:
    """Print the warnings, ask when the verdict is ask and `prompt`, say why on deny: the exit
    status, the final decision and how it was reached (for the audit row)."""
    for warning in result.warnings:
        print(warning, file=sys.stderr)
    decision = result.verdict.decision
    how = how_decided(result)
    status = {"allow": ALLOW, "deny": DENY, "ask": ASK}[decision]
    if decision == "ask" and prompt:
        from guard.confirm import confirm

        outcome = confirm(result, session=session, env=env, origin=origin)
        how = outcome.how
        status = ALLOW if outcome.allowed else DENY
        decision = "allow" if outcome.allowed else "deny"
        if not outcome.allowed and outcome.message:
            print(outcome.message, file=sys.stderr)
    elif decision == "deny":
        print("guard: denied: " + "; ".join(result.verdict.reasons[:3]), file=sys.stderr)
    return status, decision, how


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


def how_decided(result: Judgement) -> str:
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
