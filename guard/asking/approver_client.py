"""The requesting side: send a question to the approver (`guard watch`) and wait for the answer.

Used by `confirm` when the terminal cannot be used (agents run without one) or when
``GUARD_APPROVER=always``. It blocks until the human answers, the timeout passes or the approver
goes away; everything but an explicit answer that allows is a denial. It stores nothing itself:
the approver keeps what the human granted on the human's side.
"""

from __future__ import annotations

import socket
import sys
import time
from collections.abc import Mapping, Sequence
from contextlib import suppress

from guard.asking.approver import Invalid, Lines, ask_message, encode, paths
from guard.asking.ask_result import Outcome
from guard.asking.prompt import Choice, Question
from guard.errors import GuardError
from guard.verdict import Grant, Judgement

GRACE = 5.0  # seconds past the approver's own timeout before the requester gives up on it
CONNECT_SECONDS = 2.0
NO_TERMINAL = "no terminal"  # why the terminal was not asked; confirmation.py says it better


def request_approval(
    judgement: Judgement,
    question: Question,
    grants: Mapping[str, Sequence[Grant]],
    *,
    session: str,
    env: Mapping[str, str],
    origin: str = "guard check",
) -> Outcome:
    """Ask the human at the approver; allowed only when they answered with an allowing key."""
    try:
        where = paths(env).request
    except GuardError as exc:
        return Outcome(False, "no-approver", f"{exc}; denied", "")
    asked = [d.request for d in judgement.verdict.decided if d.decision == "ask"]
    message = ask_message(
        session=session,
        command=judgement.projection.command,
        cwd=judgement.context.cwd,
        workspace=judgement.context.workspace,
        home=judgement.context.home,
        origin=env.get("GUARD_ORIGIN", "") or origin,
        question=question,
        grants=grants,
        asking=asked,
        approvable=not judgement.policy.problems,
        reasons=judgement.verdict.reasons,
    )
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(CONNECT_SECONDS)
        try:
            sock.connect(where)
        except OSError as exc:
            return Outcome(False, "no-approver", no_approver(where, exc), "")
        with suppress(OSError):  # refused at once: the reason is waiting to be read
            sock.sendall(encode(message))
        return _wait(sock, question)
    finally:
        sock.close()


def _wait(sock: socket.socket, question: Question) -> Outcome:
    keys = {c.key: c for c in question.choices}
    deadline = time.monotonic() + question.timeout + GRACE
    lines = Lines()
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            message = f"guard: denied: no answer from the approver within {question.timeout:g} s"
            return Outcome(False, "timeout", message, "")
        sock.settimeout(left)
        try:
            data = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError as exc:
            return Outcome(False, "approver-gone", gone(exc.strerror or str(exc)), "")
        if not data:
            return Outcome(False, "approver-gone", gone("it closed the connection"), "")
        try:
            messages = lines.feed(data)
        except Invalid as exc:
            message = f"guard: denied: the approver's answer was unreadable ({exc})"
            return Outcome(False, "approver-error", message, "")
        for m in messages:
            if not isinstance(m, dict):
                continue
            kind = m.get("type")
            if kind == "queued" and isinstance(m.get("timeout"), int | float):
                deadline = time.monotonic() + float(m["timeout"]) + GRACE
                _say(f"guard: asked the approver (request #{m.get('id')}); waiting for a human")
            elif kind == "answer":
                return _answered(m, keys)
            elif kind in ("refused", "error"):
                text = m.get("message")
                return Outcome(
                    False, "approver-error", str(text or "guard: denied by the approver"), ""
                )


def _answered(m: Mapping[str, object], keys: Mapping[str, Choice]) -> Outcome:
    how = str(m.get("how") or "approver")
    key = m.get("key")
    if m.get("allowed") is True and how == "approval":
        return Outcome(True, "approval", "", "", logged=True)
    allowed = m.get("allowed") is True and isinstance(key, str) and key in keys
    if allowed and isinstance(key, str) and keys[key].scope != "deny":
        return Outcome(True, how, "", key, logged=True)
    text = m.get("message")
    said = str(text) if text else "guard: denied by the approver"
    return Outcome(False, how, said, "", logged=True)


def no_approver(where: str, exc: OSError) -> str:
    absent = isinstance(exc, FileNotFoundError | ConnectionRefusedError)
    why = "no approver is listening" if absent else f"no approver can be reached ({exc.strerror})"
    return (
        f"guard: denied: nobody can be asked here — {NO_TERMINAL}, and {why} on {where}; start "
        "`guard watch` in a terminal of your own to answer for this agent, then run the command "
        "again"
    )


def gone(why: str) -> str:
    return (
        f"guard: denied: the approver went away before answering ({why}); start `guard watch` "
        "again, then run the command again"
    )


def _say(text: str) -> None:
    with suppress(OSError):
        print(text, file=sys.stderr, flush=True)
