"""The approvals store: sessions, approvals, pending requests and the audit log in one SQLite file.

All of guard's SQL lives here and in the modules beside it: the schema (store_schema.py), the
file and its connection (store_file.py), the approvals table (store_approvals.py). The file is
opened in WAL mode so that many shells and agents can read while one writes; every write is one
short ``BEGIN IMMEDIATE`` transaction. Any failure — a damaged file, a full disk, a directory
nobody may write — becomes one ``GuardError`` whose message says what is wrong and what to do;
callers then decide with the policy alone.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from types import TracebackType

from guard.errors import GuardError
from guard.verdict.store.approvals import ApprovalsTable
from guard.verdict.store.file import (
    BUSY_SECONDS,
    FALLBACK,
    default_store_path,
    explain,
    prepare_store_file,
    tighten_store_files,
)
from guard.verdict.store.schema import (
    IDLE_SECONDS,
    MIGRATIONS,
    SCHEMA_VERSION,
    AuditRow,
    SessionRow,
)

_AUDIT_COLUMNS = "id, time, session, cwd, command, decision, reasons, how, detail"


class Store(ApprovalsTable):
    """An open approvals store. Use as a context manager, or call ``close``."""

    @classmethod
    def open(cls, path: Path | None = None, *, busy_seconds: float = BUSY_SECONDS) -> Store:
        """Open (creating if needed) the store; raises GuardError on any failure."""
        path = path if path is not None else default_store_path()
        kept = _kept(path)
        if kept is not None:
            return kept
        try:
            prepare_store_file(path)
            con = sqlite3.connect(str(path), timeout=busy_seconds, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise explain(exc, path, busy_seconds) from exc
        store = cls(path, con, busy_seconds)
        try:
            with store._failures():
                store._setup()
        except GuardError:
            con.close()
            raise
        if _KEEPING:
            _keep(store)
        return store

    def _setup(self) -> None:
        con = self._con
        con.execute("PRAGMA synchronous = NORMAL")
        version = _user_version(con)
        if version > SCHEMA_VERSION:
            raise GuardError(
                f"guard: the approvals store {self.path} has schema version {version}, newer "
                f"than this guard knows ({SCHEMA_VERSION}); upgrade guard, or point "
                f"GUARD_STATE_DIR at another directory — {FALLBACK}"
            )
        if con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            self._enter_wal()
        if version < SCHEMA_VERSION:
            with self._write():
                for step in range(_user_version(con), SCHEMA_VERSION):
                    for statement in MIGRATIONS[step]:
                        con.execute(statement)
                    con.execute(f"PRAGMA user_version = {step + 1}")
                _file_approvals(con)
        tighten_store_files(self.path)

    def _enter_wal(self) -> None:
        """Switch a new file to WAL. The switch needs the file to itself, and SQLite does not
        wait for that (no busy handler), so two processes creating the store at once would
        fail; retry until the busy timeout instead."""
        import time

        deadline = time.monotonic() + self._busy_seconds
        delay = 0.002
        while True:
            try:
                self._con.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 0.05)

    def close(self) -> None:
        if self in _KEPT.values():
            return  # kept open for the next caller in this process (keep_stores_open)
        with self._failures():
            self._con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- sessions ---------------------------------------------------------------------------

    def touch_session(
        self,
        session: str,
        now: float,
        cwd: str = "",
        *,
        workspace: str = "",
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        """Mark the session active at ``now``. A session idle for longer than ``idle_seconds``
        loses its session approvals first: coming back does not revive them. The cwd and
        workspace are kept from the first time the session is seen (where it began)."""
        with self._write() as con:
            row = con.execute("SELECT last_seen FROM sessions WHERE id = ?", (session,)).fetchone()
            if row is None:
                con.execute(
                    "INSERT INTO sessions (id, first_seen, last_seen, cwd, workspace) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (session, now, now, cwd, workspace),
                )
                return
            if now - row[0] > idle_seconds:
                con.execute(
                    "DELETE FROM approvals WHERE session = ? AND scope = 'session'", (session,)
                )
            con.execute(
                "UPDATE sessions SET last_seen = max(last_seen, ?) WHERE id = ?", (now, session)
            )

    def session_workspace(self, session: str, now: float, decided: str) -> str:
        """The workspace kept for ``session``: ``decided`` when this is the first time it is
        asked (racing first calls agree: the first writer wins), else what was kept."""
        with self._failures():
            row = self._con.execute(
                "SELECT fixed_workspace FROM sessions WHERE id = ?", (session,)
            ).fetchone()
        if row and row[0] is not None:
            return str(row[0])
        with self._write() as con:
            con.execute(
                "INSERT INTO sessions (id, first_seen, last_seen, fixed_workspace) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET fixed_workspace = "
                "ifnull(fixed_workspace, excluded.fixed_workspace)",
                (session, now, now, decided),
            )
            row = con.execute(
                "SELECT fixed_workspace FROM sessions WHERE id = ?", (session,)
            ).fetchone()
        return str(row[0]) if row and row[0] is not None else decided

    def session(self, session: str) -> SessionRow | None:
        with self._failures():
            row = self._con.execute(
                "SELECT id, first_seen, last_seen, cwd, workspace FROM sessions WHERE id = ?",
                (session,),
            ).fetchone()
        return None if row is None else SessionRow(*row)

    # -- audit ------------------------------------------------------------------------------

    def record(
        self,
        *,
        time: float,
        session: str,
        cwd: str,
        command: str,
        decision: str,
        reasons: tuple[str, ...],
        how: str,
        detail: Mapping[str, object] | None = None,
    ) -> int:
        """Append a verdict to the audit log and return its row id; also send it to the system
        log when the policy says so (guard/verdict/store/system_log.py), even when the row
        failed."""
        text = None if detail is None else json.dumps(detail, sort_keys=True, ensure_ascii=False)
        row = 0
        try:
            with self._write() as con:
                cursor = con.execute(
                    f"INSERT INTO audit ({_AUDIT_COLUMNS}) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (time, session, cwd, command, decision, json.dumps(list(reasons)), how, text),
                )
                row = int(cursor.lastrowid or 0)
        finally:
            _to_system_log(time, session, cwd, command, decision, reasons, how, text or "", row)
        return row

    def log(self, session: str | None = None, limit: int = 50) -> tuple[AuditRow, ...]:
        """The newest audit rows first, of one session or of all."""
        where = "" if session is None else "WHERE session = ?"
        args: tuple[object, ...] = (limit,) if session is None else (session, limit)
        with self._failures():
            rows = self._con.execute(
                f"SELECT {_AUDIT_COLUMNS} FROM audit {where} ORDER BY id DESC LIMIT ?", args
            ).fetchall()
        return tuple(
            AuditRow(i, t, s, c, cmd, d, tuple(json.loads(r)), h, detail or "")
            for i, t, s, c, cmd, d, r, h, detail in rows
        )

    # -- trusted project policy files -------------------------------------------------------

    def trust_policy(self, path: str, sha256: str, now: float) -> None:
        """Record that a human trusts the project policy file at `path` with this content."""
        with self._write() as con:
            con.execute(
                "INSERT INTO trusted_policies (path, sha256, trusted_at) VALUES (?, ?, ?) "
                "ON CONFLICT (path) DO UPDATE SET sha256 = excluded.sha256, "
                "trusted_at = excluded.trusted_at",
                (path, sha256, now),
            )

    def trusted_policy(self, path: str) -> str | None:
        """The content hash a human trusted for `path`, or None."""
        with self._failures():
            row = self._con.execute(
                "SELECT sha256 FROM trusted_policies WHERE path = ?", (path,)
            ).fetchone()
        return None if row is None else str(row[0])

    # -- upkeep -----------------------------------------------------------------------------

    def check(self) -> tuple[str, ...]:
        """SQLite's integrity check: the problems found, none when the file is sound."""
        with self._failures():
            rows = self._con.execute("PRAGMA integrity_check").fetchall()
        found = tuple(str(row[0]) for row in rows)
        return () if found == ("ok",) else found

    # -- pending requests for the approver (guard watch) ------------------------------------

    def add_pending(self, *, session: str, command: str, projection: str, created: float) -> int:
        """Queue a request that waits for a human at the approver; returns its id."""
        with self._write() as con:
            cursor = con.execute(
                "INSERT INTO pending (session, command, projection, created) VALUES (?, ?, ?, ?)",
                (session, command, projection, created),
            )
            return int(cursor.lastrowid or 0)

    def settle_pending(self, pending_id: int, state: str, answer: str) -> None:
        """Mark a waiting request answered, denied, timed out or withdrawn."""
        with self._write() as con:
            con.execute(
                "UPDATE pending SET state = ?, answer = ? WHERE id = ? AND state = 'waiting'",
                (state, answer, pending_id),
            )

    def abandon_pending(self, answer: str) -> int:
        """Close every request still waiting (left by an approver that died); how many."""
        with self._write() as con:
            return con.execute(
                "UPDATE pending SET state = 'abandoned', answer = ? WHERE state = 'waiting'",
                (answer,),
            ).rowcount

    def log_since(
        self, after_id: int, session: str | None = None, limit: int = 1000
    ) -> tuple[AuditRow, ...]:
        """Audit rows newer than ``after_id``, oldest first: for following the log."""
        where = "id > ?" + ("" if session is None else " AND session = ?")
        args: tuple[object, ...] = (after_id,) if session is None else (after_id, session)
        with self._failures():
            rows = self._con.execute(
                f"SELECT {_AUDIT_COLUMNS} FROM audit WHERE {where} ORDER BY id LIMIT ?",
                (*args, limit),
            ).fetchall()
        return tuple(
            AuditRow(i, t, s, c, cmd, d, tuple(json.loads(r)), h, detail or "")
            for i, t, s, c, cmd, d, r, h, detail in rows
        )


def _to_system_log(
    time: float,
    session: str,
    cwd: str,
    command: str,
    decision: str,
    reasons: tuple[str, ...],
    how: str,
    detail: str,
    row: int,
) -> None:
    """The audit row, to journald or syslog when configured: never raises."""
    from guard.verdict.store import system_log

    try:
        to = system_log.configured_targets()
        if to:
            event = AuditRow(row, time, session, cwd, command, decision, tuple(reasons), how,
                             detail)
            system_log.send(event, to)
    except Exception as error:  # the local row is the record: nothing here may lose it
        print(f"guard: could not send the audit row to the system log ({error})",
              file=sys.stderr)
def _file_approvals(con: sqlite3.Connection) -> None:
    """Give approvals stored before the lookup column their key (once, when upgrading)."""
    from guard.verdict.approval_index import stored_key

    rows = con.execute("SELECT id, surface, pattern FROM approvals WHERE lookup IS NULL").fetchall()
    con.executemany(
        "UPDATE approvals SET lookup = ? WHERE id = ?",
        [(stored_key(surface, pattern), rid) for rid, surface, pattern in rows],
    )


def _user_version(con: sqlite3.Connection) -> int:
    return int(con.execute("PRAGMA user_version").fetchone()[0])


# A long-lived process (the resident checker, `guard serve --user`) keeps each store it opened
# open for the next caller: `Store.open` returns it while the file is the same file (not moved
# or replaced), the file and its directory are as they were when it was checked (owner, mode:
# a directory opened to others is refused by a fresh open, so the kept one is let go and the
# open checks again) and the caller is the thread that opened it; `close` leaves it open.
_KEEPING = False
_KEPT: dict[tuple[object, ...], Store] = {}


def keep_stores_open() -> None:
    global _KEEPING
    _KEEPING = True


def _key(path: Path) -> tuple[object, ...] | None:
    import threading

    try:
        info = os.stat(path)
        above = os.stat(path.parent)
    except OSError:
        return None
    return (
        path,
        (info.st_dev, info.st_ino, info.st_uid, info.st_mode),
        (above.st_dev, above.st_ino, above.st_uid, above.st_mode),
        threading.get_ident(),
    )


def _kept(path: Path) -> Store | None:
    if not _KEPT:
        return None
    key = _key(path)
    store = _KEPT.get(key) if key is not None else None
    if store is None:
        for old in [k for k in _KEPT if k[0] == path]:  # the file was replaced: let it go
            with suppress(sqlite3.Error):
                _KEPT.pop(old)._con.close()
    return store


def _keep(store: Store) -> None:
    key = _key(store.path)
    if key is not None and len(_KEPT) < 16:
        _KEPT[key] = store
