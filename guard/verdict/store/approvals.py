"""The store's approvals: granting one, looking them up (every one that counts for a session,
or only those that may cover given requests), listing, counting and removing them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from guard.projection import ACCESSES, SURFACES, Request
from guard.verdict.store.file import StoreConnection, explain
from guard.verdict.store.schema import IDLE_SECONDS, SCOPES, Approval

_APPROVAL_COLUMNS = "id, session, scope, surface, pattern, access, granted_by, granted_at, command"


class ApprovalsTable(StoreConnection):
    """The approvals part of an open store (guard/verdict/store/store.py)."""

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
            from guard.verdict.approval_index import stored_key

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
        from guard.verdict.approval_index import request_keys

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
        try:  # not `_failures()`: asked on every line that asks, and a generator costs a third
            row = self._con.execute(
                "SELECT (SELECT n FROM approvals_version), "
                "(SELECT last_seen FROM sessions WHERE id = ?)",
                (session,),
            ).fetchone()
        except (sqlite3.Error, OSError) as exc:
            raise explain(exc, self.path, self._busy_seconds) from exc
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
