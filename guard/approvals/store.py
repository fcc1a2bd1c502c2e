"""The approvals store: sessions, approvals, pending requests and the audit log in one SQLite file.

All of guard's SQL lives here. The file is opened in WAL mode so that many shells and agents can
read while one writes; every write is one short ``BEGIN IMMEDIATE`` transaction. Any failure —
a damaged file, a full disk, a directory nobody may write — becomes one ``GuardError`` whose
message says what is wrong and what to do; callers then decide with the policy alone.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Literal, NamedTuple

from guard.errors import GuardError
from guard.projection.requests import ACCESSES, SURFACES, Request

Scope = Literal["session", "always"]
SCOPES: tuple[Scope, ...] = ("session", "always")
IDLE_SECONDS = 43200.0  # session approvals end after 12 h without a command
BUSY_SECONDS = 5.0
FALLBACK = "verdicts use the policy alone until then"


class Approval(NamedTuple):
    """What a human granted: a pattern on a surface, for one session or always."""

    id: int
    session: str | None  # None for always
    scope: Scope
    surface: str
    pattern: str
    access: str | None
    granted_by: str
    granted_at: float
    command: str  # the line that prompted it


class AuditRow(NamedTuple):
    """One verdict as it was given."""

    id: int
    time: float
    session: str
    cwd: str
    command: str
    decision: str
    reasons: tuple[str, ...]
    how: str
    detail: str = ""  # JSON text, "" when none


class SessionRow(NamedTuple):
    """A shell or agent run: when it was first and last seen, and where it began."""

    id: str
    first_seen: float
    last_seen: float
    cwd: str
    workspace: str


# MIGRATIONS[n] upgrades a store from schema version n to n + 1, statement by statement.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            first_seen REAL NOT NULL,
            last_seen REAL NOT NULL,
            cwd TEXT NOT NULL DEFAULT '',
            workspace TEXT NOT NULL DEFAULT '')""",
        """CREATE TABLE approvals (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session TEXT,
            scope TEXT NOT NULL CHECK (scope IN ('session', 'always')),
            surface TEXT NOT NULL,
            pattern TEXT NOT NULL,
            access TEXT CHECK (access IS NULL OR access IN ('read', 'write', 'execute', 'chdir')),
            granted_by TEXT NOT NULL,
            granted_at REAL NOT NULL,
            command TEXT NOT NULL DEFAULT '',
            CHECK ((scope = 'always') = (session IS NULL)))""",
        """CREATE UNIQUE INDEX approvals_grant
            ON approvals (ifnull(session, ''), scope, surface, pattern, ifnull(access, ''))""",
        "CREATE INDEX approvals_session ON approvals (session)",
        """CREATE TABLE audit (
            id INTEGER PRIMARY KEY,
            time REAL NOT NULL,
            session TEXT NOT NULL,
            cwd TEXT NOT NULL,
            command TEXT NOT NULL,
            decision TEXT NOT NULL,
            reasons TEXT NOT NULL DEFAULT '[]',
            how TEXT NOT NULL,
            detail TEXT)""",
        "CREATE INDEX audit_session ON audit (session, id)",
        """CREATE TABLE pending (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session TEXT NOT NULL,
            command TEXT NOT NULL,
            projection TEXT NOT NULL,
            created REAL NOT NULL,
            state TEXT NOT NULL DEFAULT 'waiting',
            answer TEXT)""",
        "CREATE INDEX pending_state ON pending (state, id)",
    ),
    (
        # Project policy files a human has trusted, by content: a changed file is untrusted.
        """CREATE TABLE trusted_policies (
            path TEXT PRIMARY KEY,
            sha256 TEXT NOT NULL,
            trusted_at REAL NOT NULL)""",
    ),
    (
        # An agent session's workspace, decided when the session is first seen and then kept:
        # JSON [roots, why]. NULL: not decided (a person's shell follows its directory).
        "ALTER TABLE sessions ADD COLUMN fixed_workspace TEXT",
    ),
    (
        # Approvals by what a request looks them up by; and a counter every change to the
        # approvals bumps, so a long-lived process reads them again only when they changed.
        "CREATE INDEX IF NOT EXISTS approvals_lookup ON approvals (surface, session, scope)",
        # the literal start of the pattern cut at its last separator
        # (guard/approvals/approval_index.py):
        # a request reads only the approvals filed under one of its own prefixes
        "ALTER TABLE approvals ADD COLUMN lookup TEXT",
        "CREATE INDEX approvals_key ON approvals (surface, lookup)",
        "CREATE TABLE approvals_version (n INTEGER NOT NULL)",
        "INSERT INTO approvals_version (n) VALUES (0)",
        """CREATE TRIGGER approvals_added AFTER INSERT ON approvals
            BEGIN UPDATE approvals_version SET n = n + 1; END""",
        """CREATE TRIGGER approvals_removed AFTER DELETE ON approvals
            BEGIN UPDATE approvals_version SET n = n + 1; END""",
        """CREATE TRIGGER approvals_changed AFTER UPDATE ON approvals
            BEGIN UPDATE approvals_version SET n = n + 1; END""",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

_APPROVAL_COLUMNS = "id, session, scope, surface, pattern, access, granted_by, granted_at, command"
_AUDIT_COLUMNS = "id, time, session, cwd, command, decision, reasons, how, detail"


def default_store_path() -> Path:
    """``$GUARD_STATE_DIR/guard.db``, else ``guard.db`` in the platform's user state directory."""
    given = os.environ.get("GUARD_STATE_DIR", "")
    if given:
        base = Path(given).expanduser()
        if not base.is_absolute():
            raise GuardError(
                f"guard: GUARD_STATE_DIR must be an absolute path, not {given!r}; "
                f"set it to one — {FALLBACK}"
            )
        return base / "guard.db"
    from guard.dirs import user_state_dir

    return Path(user_state_dir()) / "guard.db"


class Store:
    """An open approvals store. Use as a context manager, or call ``close``."""

    def __init__(self, path: Path, connection: sqlite3.Connection, busy_seconds: float) -> None:
        self.path = path
        self._con = connection
        self._busy_seconds = busy_seconds

    @classmethod
    def open(cls, path: Path | None = None, *, busy_seconds: float = BUSY_SECONDS) -> Store:
        """Open (creating if needed) the store; raises GuardError on any failure."""
        path = path if path is not None else default_store_path()
        kept = _kept(path)
        if kept is not None:
            return kept
        try:
            _prepare_file(path)
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
        _tighten(self.path)

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

    # -- approvals --------------------------------------------------------------------------

    def grant(
        self,
        *,
        session: str | None,
        scope: str,
        surface: str,
        pattern: str,
        access: str | None,
        granted_by: str,
        command: str,
        now: float,
    ) -> int:
        """Store an approval and return its id; granting the same thing again returns the
        existing id. A session grant also marks the session active at ``now``."""
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}, not {scope!r}")
        if surface not in SURFACES:
            raise ValueError(f"surface must be one of {SURFACES}, not {surface!r}")
        if access is not None and access not in ACCESSES:
            raise ValueError(f"access must be None or one of {ACCESSES}, not {access!r}")
        if scope == "session" and not session:
            raise ValueError("a session approval needs a session")
        owner = session if scope == "session" else None
        key = (owner or "", scope, surface, pattern, access or "")
        with self._write() as con:
            if owner is not None:
                con.execute(
                    "INSERT INTO sessions (id, first_seen, last_seen) VALUES (?, ?, ?) "
                    "ON CONFLICT (id) DO UPDATE SET last_seen = max(last_seen, excluded.last_seen)",
                    (owner, now, now),
                )
            row = con.execute(
                "SELECT id FROM approvals WHERE ifnull(session, '') = ? AND scope = ? "
                "AND surface = ? AND pattern = ? AND ifnull(access, '') = ?",
                key,
            ).fetchone()
            if row is not None:
                return int(row[0])
            from guard.approvals.approval_index import stored_key

            cursor = con.execute(
                f"INSERT INTO approvals ({_APPROVAL_COLUMNS}, lookup) "
                "VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (owner, scope, surface, pattern, access, granted_by, now, command,
                 stored_key(surface, pattern)),
            )
            return int(cursor.lastrowid or 0)

    def approvals(
        self,
        session: str | None,
        now: float,
        idle_seconds: float = IDLE_SECONDS,
        *,
        matching: Sequence[Request] | None = None,
        home: str = "",
    ) -> tuple[Approval, ...]:
        """The always approvals, plus the session's own while it has not been idle for longer
        than ``idle_seconds``. Look up before ``touch_session``, or idleness is never seen.
        With ``matching``, only those that may cover one of these requests (by surface and the
        literal start of their pattern; decide still matches each): a few of any number."""
        if matching is not None:
            return self._approvals_for(session, now, idle_seconds, matching, home)
        with self._failures():
            rows = self._con.execute(
                # session IS NULL exactly when scope = 'always' (a CHECK says so), and the
                # session index finds those rows without a scan
                f"SELECT {_APPROVAL_COLUMNS} FROM approvals WHERE session IS NULL "
                f"UNION ALL SELECT {_APPROVAL_COLUMNS} FROM approvals "
                "WHERE session = ? AND EXISTS (SELECT 1 FROM sessions "
                "WHERE sessions.id = approvals.session AND ? - sessions.last_seen <= ?) "
                "ORDER BY id",
                (session, now, idle_seconds),
            ).fetchall()
        return tuple(Approval(*row) for row in rows)

    def _approvals_for(
        self,
        session: str | None,
        now: float,
        idle_seconds: float,
        matching: Sequence[Request],
        home: str,
    ) -> tuple[Approval, ...]:
        from guard.approvals.approval_index import request_keys

        wanted: dict[str, set[str] | None] = {}
        for request in matching:
            listed = request_keys(request, home)
            known = wanted.get(request.surface, set())
            wanted[request.surface] = None if listed is None or known is None else known | {*listed}
        live = (
            "(session IS NULL OR (session = ? AND EXISTS (SELECT 1 FROM sessions "
            "WHERE sessions.id = approvals.session AND ? - sessions.last_seen <= ?)))"
        )
        found: dict[int, Approval] = {}
        with self._failures():
            for surface, keys in wanted.items():
                select = f"SELECT {_APPROVAL_COLUMNS} FROM approvals WHERE surface = ? AND "
                if keys is None:
                    query, args = select + live, [surface, session, now, idle_seconds]
                else:  # two indexed reads: an OR of both would scan the surface
                    marks = ", ".join("?" * len(keys))
                    query = (
                        f"{select}lookup IN ({marks}) AND {live} "
                        f"UNION ALL {select}lookup IS NULL AND {live}"
                    )
                    args = [surface, *sorted(keys), session, now, idle_seconds]
                    args += [surface, session, now, idle_seconds]
                rows = self._con.execute(query, args).fetchall()
                for row in rows:
                    found[row[0]] = Approval(*row)
        return tuple(found[k] for k in sorted(found))

    def list_approvals(
        self, session: str | None = None, *, limit: int | None = None, offset: int = 0
    ) -> tuple[Approval, ...]:
        """Every approval (``session=None``), or the always ones plus that session's own,
        whether or not it has gone idle: for listing, not for deciding. ``limit`` and
        ``offset`` page through them in id order."""
        where = "" if session is None else "WHERE session IS NULL OR session = ?"
        args: tuple[object, ...] = () if session is None else (session,)
        with self._failures():
            rows = self._con.execute(
                f"SELECT {_APPROVAL_COLUMNS} FROM approvals {where} ORDER BY id LIMIT ? OFFSET ?",
                (*args, -1 if limit is None else limit, max(offset, 0)),
            ).fetchall()
        return tuple(Approval(*row) for row in rows)

    def count_approvals(self, session: str | None = None) -> int:
        """How many `list_approvals` would list without a limit."""
        where = "" if session is None else "WHERE session IS NULL OR session = ?"
        with self._failures():
            row = self._con.execute(
                f"SELECT count(*) FROM approvals {where}", () if session is None else (session,)
            ).fetchone()
        return int(row[0])

    def approvals_state(self, session: str) -> tuple[int, float | None]:
        """A number that changes whenever any approval is added, changed or removed, and when
        `session` was last seen (None: never): what approvals() depends on besides the clock."""
        with self._failures():
            row = self._con.execute(
                "SELECT (SELECT n FROM approvals_version), "
                "(SELECT last_seen FROM sessions WHERE id = ?)",
                (session,),
            ).fetchone()
        return int(row[0]), None if row[1] is None else float(row[1])

    def revoke(self, approval_id: int) -> bool:
        with self._write() as con:
            return con.execute("DELETE FROM approvals WHERE id = ?", (approval_id,)).rowcount > 0

    def clear(self, session: str | None = None) -> int:
        """Remove that session's approvals, or every approval when ``session`` is None."""
        with self._write() as con:
            if session is None:
                return con.execute("DELETE FROM approvals").rowcount
            return con.execute("DELETE FROM approvals WHERE session = ?", (session,)).rowcount

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
        log when the policy says so (guard/approvals/system_log.py), even when the row failed."""
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

    # -- plumbing ---------------------------------------------------------------------------

    @contextmanager
    def _failures(self) -> Iterator[None]:
        try:
            yield
        except (sqlite3.Error, OSError) as exc:
            raise explain(exc, self.path, self._busy_seconds) from exc

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        con = self._con
        with self._failures():
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con
                con.execute("COMMIT")
            except BaseException:
                if con.in_transaction:
                    with suppress(sqlite3.Error):  # the first failure is the one to report
                        con.execute("ROLLBACK")
                raise

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
    from guard.approvals import system_log

    try:
        to = system_log.configured_targets()
        if to:
            event = system_log.Event(time, session, cwd, command, decision, tuple(reasons), how,
                                     detail, row)
            system_log.send(event, to)
    except Exception as error:  # the local row is the record: nothing here may lose it
        print(f"guard: could not send the audit row to the system log ({error})",
              file=sys.stderr)
def _file_approvals(con: sqlite3.Connection) -> None:
    """Give approvals stored before the lookup column their key (once, when upgrading)."""
    from guard.approvals.approval_index import stored_key

    rows = con.execute("SELECT id, surface, pattern FROM approvals WHERE lookup IS NULL").fetchall()
    con.executemany(
        "UPDATE approvals SET lookup = ? WHERE id = ?",
        [(stored_key(surface, pattern), rid) for rid, surface, pattern in rows],
    )


def _user_version(con: sqlite3.Connection) -> int:
    return int(con.execute("PRAGMA user_version").fetchone()[0])


def _prepare_file(path: Path) -> None:
    """Create the directory (0700) and the file (0600) ourselves, so that SQLite's -wal and
    -shm files inherit the mode and an unusable location is named by its errno."""
    directory = path.parent
    if not directory.is_dir():
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(directory, 0o700)  # the umask may have taken bits we need
    else:
        _private(directory)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        status = os.fstat(fd)
        if status.st_uid != os.geteuid():
            # Another user's store: its approvals are not ours to trust, and our -wal and -shm
            # files would lock its owner out.
            raise GuardError(
                f"guard: the approvals store {path} belongs to another user (uid "
                f"{status.st_uid}); use your own: point GUARD_STATE_DIR at a directory you own "
                f"— {FALLBACK}"
            )
        if status.st_mode & 0o777 != 0o600:
            os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


def _private(directory: Path) -> None:
    """A state directory that group or others may write lets them swap the store for one with
    their approvals in it. One of ours that holds nothing but the store is tightened to 0700;
    any other (a shared one such as /tmp, someone else's, one with other files) is refused."""
    status = directory.stat()
    if not status.st_mode & 0o022:
        return
    ours = status.st_uid == os.geteuid() and not status.st_mode & 0o1000  # no sticky /tmp
    if ours and all(name.startswith("guard.db") for name in os.listdir(directory)):
        os.chmod(directory, 0o700)
        return
    raise GuardError(
        f"guard: the state directory {directory} can be written by others "
        f"(mode {status.st_mode & 0o7777:o}), so they could replace your approvals; "
        f"run `chmod 700 {directory}` or point GUARD_STATE_DIR at a private directory — "
        f"{FALLBACK}"
    )


def _tighten(path: Path) -> None:
    """Make -wal and -shm files left by an older, looser store 0600 too."""
    for suffix in ("-wal", "-shm"):
        try:
            side = Path(f"{path}{suffix}")
            if side.stat().st_mode & 0o777 != 0o600:
                os.chmod(side, 0o600)
        except OSError:
            pass  # absent, or not ours: SQLite reports real trouble itself


def explain(exc: BaseException, path: Path, busy_seconds: float = BUSY_SECONDS) -> GuardError:
    """One line that says what is wrong with the store at ``path`` and what to do."""
    detail = " ".join(str(exc).split()) or type(exc).__name__
    directory = path.parent
    where = f"or point GUARD_STATE_DIR at a writable directory — {FALLBACK}"
    if isinstance(exc, OSError):
        code = exc.errno
        detail = " ".join((exc.strerror or detail).split())
        if code == errno.EISDIR or _probe(path.is_dir):
            return GuardError(
                f"guard: the approvals store {path} is a directory, not a file; move it aside "
                f"to start a new store — {FALLBACK}"
            )
        if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
            return _full(path, detail)
        if code == errno.EROFS:
            return GuardError(
                f"guard: cannot write the approvals store {path}: the file system is read-only; "
                f"{where}"
            )
        if not _probe(path.exists):
            return GuardError(
                f"guard: cannot create the approvals store {path} ({detail}); make {directory} "
                f"writable by you, {where}"
            )
        return GuardError(
            f"guard: cannot open the approvals store {path} ({detail}); make sure you own it "
            f"and can write to {directory}, {where}"
        )
    primary = int(getattr(exc, "sqlite_errorcode", -1)) & 0xFF
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return GuardError(
            f"guard: the approvals store {path} is damaged ({detail}); move it aside to start "
            f"a new one — {FALLBACK}"
        )
    if primary == sqlite3.SQLITE_FULL:
        return _full(path, detail)
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return GuardError(
            f"guard: the approvals store {path} stayed locked for {busy_seconds:g} s ({detail}); "
            f"another guard process may be stuck — find it with `fuser {path}` — {FALLBACK}"
        )
    if primary in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM):
        return GuardError(
            f"guard: cannot open the approvals store {path} ({detail}); make sure you own it "
            f"and its -wal and -shm files and can write to {directory}, {where}"
        )
    if primary == sqlite3.SQLITE_IOERR:
        return GuardError(
            f"guard: could not read or write the approvals store {path} ({detail}); check the "
            f"disk and its file system — {FALLBACK}"
        )
    return GuardError(
        f"guard: the approvals store {path} failed ({detail}); if this persists, move it aside "
        f"to start a new one — {FALLBACK}"
    )


def _probe(question: Callable[[], bool]) -> bool:
    try:
        return question()
    except OSError:
        return False


def _full(path: Path, detail: str) -> GuardError:
    return GuardError(
        f"guard: cannot write the approvals store {path}: the disk is full ({detail}); free "
        f"some space on it — {FALLBACK}"
    )


# A long-lived process (the resident checker, `guard serve --user`) keeps each store it opened
# open for the next caller: `Store.open` returns it while the file is the same file (not moved
# or replaced) and the caller is the thread that opened it; `close` leaves it open.
_KEEPING = False
_KEPT: dict[tuple[Path, int, int, int], Store] = {}


def keep_stores_open() -> None:
    global _KEEPING
    _KEEPING = True


def _key(path: Path) -> tuple[Path, int, int, int] | None:
    import threading

    try:
        info = os.stat(path)
    except OSError:
        return None
    return (path, info.st_dev, info.st_ino, threading.get_ident())


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
