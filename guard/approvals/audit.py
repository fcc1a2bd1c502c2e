"""Audit rows for what is not a verdict — changes of trust — and the one warning for a log
that cannot be written.

Verdicts are recorded where they are given (guard/entry/check.py and the other edges); a grant, a
revoke, a clear or a trusted project file is recorded here. Every row goes through
``Store.record``, so whatever else reads the audit log sees these too. A row that cannot be
written never changes what was decided or done: guard says so on stderr, once per process.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from contextlib import suppress
from typing import TYPE_CHECKING

from guard.errors import GuardError

if TYPE_CHECKING:
    from guard.approvals.store import Store

TRUST = "trust"  # the decision of a row that changes trust; `how` says which change
_said: list[str] = []  # the warning, once it has been given in this process


def not_written(problem: GuardError | str) -> None:
    """Say, once per process, that the audit log is not being written and why."""
    if _said:
        return
    why = str(problem).removeprefix("guard: ")
    _said.append(why)
    with suppress(OSError, ValueError):
        print(
            f"guard: the audit log is not being written ({why}); what guard decides and does "
            "stands, but `guard log` will not show it",
            file=sys.stderr,
            flush=True,
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

    from guard.approvals.judgement import without_store
    from guard.approvals.store import Store

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
