"""The approvals store's schema: the tables, the migrations that make and upgrade them, and the
rows read back from them (an approval, an audit row, a session).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

Scope = Literal["session", "always"]
SCOPES: tuple[Scope, ...] = ("session", "always")
IDLE_SECONDS = 43200.0  # session approvals end after 12 h without a command


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
        # (guard/verdict/approval_index.py):
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
