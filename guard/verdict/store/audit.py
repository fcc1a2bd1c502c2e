"""Audit rows for what is not a verdict — changes of trust — and what a row that cannot be
written means: a warning, once per session, and a refusal where the managed policy keeps a log.

Verdicts are recorded where they are given (guard/entry/check.py and the other edges); a grant, a
revoke, a clear or a trusted project file is recorded here. Every row goes through
``Store.record``, so whatever else reads the audit log sees these too. A row that cannot be
written changes nothing that was decided or done — guard says so, once per session on every
entry point (guard/verdict/store/trouble.py) — except where the managed policy sets `[audit]`:
there an allowed line whose row cannot be written does not run (`refusal`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from contextlib import suppress
from typing import TYPE_CHECKING

from guard.errors import GuardError

if TYPE_CHECKING:
    from guard.policy import Policy
    from guard.verdict.store.store import Store

TRUST = "trust"  # the decision of a row that changes trust; `how` says which change
_said: list[str] = []  # the warning, once it has been given in this process


def not_written(problem: GuardError | str, *, session: str = "") -> None:
    """Say that the audit log is not being written and why: once per session when `session`
    is given (whichever process of it finds out first), else once per process."""
    line = not_written_line(problem, session=session)
    if line:
        with suppress(OSError, ValueError):
            print(line, file=sys.stderr, flush=True)


def not_written_line(problem: GuardError | str, *, session: str = "") -> str:
    """The warning `not_written` prints, or "" when it was given already."""
    why = str(problem).removeprefix("guard: ")
    if session:
        from guard.verdict.store import trouble as store_trouble

        if not store_trouble.tell(session, store_trouble.store_path_text(), why):
            return ""
    elif why in _said:
        return ""
    _said.append(why)
    return (
        f"guard: the audit log is not being written ({why}); what guard decides and does "
        "stands, but `guard log` will not show it (said once per session)"
    )


def required_by(policy: Policy) -> str:
    """Where the managed policy keeps an audit log (the `file:line` of its `[audit]` key that
    names a target), or "" when it does not: then every allowed line's row is written before
    the line runs, and a line whose row cannot be written is refused."""
    for key, value, where in policy.settings:
        if key.startswith("audit.") and key in policy.fixed and value:
            return where
    return ""


def refusal(where: str, problem: GuardError | str) -> str:
    """Why an allowed line did not run: the managed policy's audit log could not take it."""
    why = str(problem).removeprefix("guard: ")
    return (
        f"guard: refused: the managed policy keeps an audit log of every line "
        f"([audit] at {where}) and this line's row could not be written ({why}); it was not "
        "run — `guard doctor` says what to fix"
    )


def trust_changed(
    store: Store | None,
    *,
    how: str,
    what: str,
    detail: Mapping[str, object],
    session: str = "",
    cwd: str = "",
) -> None:
    """One audit row for a change of trust (``how``: grant, revoke, clear, policy-trust):
    ``what`` is shown where a verdict row shows its command. ``store`` None opens the default
    one. A failure is reported with :func:`not_written`, never raised."""
    import os

    from guard.verdict.judgement import without_store
    from guard.verdict.store.store import Store

    if store is None and without_store(os.environ):
        return  # in a sandbox: the approver outside logs what it is asked
    try:
        cwd = cwd or os.getcwd()
    except OSError:
        cwd = ""
    try:
        if store is not None:
            _write(store, how, what, detail, session, cwd)
        else:
            with Store.open() as opened:
                _write(opened, how, what, detail, session, cwd)
    except GuardError as exc:
        not_written(exc)


def _write(
    store: Store, how: str, what: str, detail: Mapping[str, object], session: str, cwd: str
) -> None:
    store.record(
        time=time.time(),
        session=session,
        cwd=cwd,
        command=what,
        decision=TRUST,
        reasons=(),
        how=how,
        detail={"by": "cli", **detail},
    )


UNAUDITED = "unaudited"  # the `how` of a refusal sent to the system log alone


def refusal_to_system_log(*, session: str, cwd: str, command: str, message: str) -> None:
    """The one record a line refused for want of its row can have: the system log the managed
    policy names (journald, syslog). Never raises; a socket that refuses it warns as usual."""
    from guard.verdict.store import system_log
    from guard.verdict.store.schema import AuditRow

    try:
        targets = system_log.configured_targets()
        if targets:
            row = AuditRow(0, time.time(), session, cwd, command, "deny", (message,), UNAUDITED,
                           "")  # fmt: skip
            system_log.send(row, targets)
    except Exception as error:  # a record of last resort: nothing here may stop the refusal
        with suppress(OSError, ValueError):
            print(f"guard: could not send the refusal to the system log ({error})",
                  file=sys.stderr)
