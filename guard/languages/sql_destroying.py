"""SQL that destroys data: DROP, TRUNCATE, DELETE without WHERE, ALTER … DROP.

A small scanner, not a parser: comments and quoted strings are blanked out, the text is split
into statements at semicolons, and each statement's first words are matched. Text that only
mentions a DROP (in a string, a comment, a SELECT) does not match.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|--[^\n]*|/\*.*?\*/|#[^\n]*", re.S)
_DROP = re.compile(
    r"^\s*DROP\s+(TABLE|DATABASE|SCHEMA|VIEW|INDEX|USER|ROLE|SEQUENCE|MATERIALIZED\s+VIEW"
    r"|TABLESPACE|COLLECTION|KEYSPACE|TRIGGER|FUNCTION|PROCEDURE|TYPE|EXTENSION|OWNED)\b",
    re.I,
)
_TRUNCATE = re.compile(r"^\s*TRUNCATE\b", re.I)
_DELETE = re.compile(r"^\s*(WITH\b.*?\)\s*)?DELETE\s+(FROM\s+)?\S+", re.I | re.S)
_WHERE = re.compile(r"\bWHERE\b", re.I)
_ALTER_DROP = re.compile(r"^\s*ALTER\s+TABLE\b.*\bDROP\b", re.I | re.S)


def destroying_statement(sql: str) -> str | None:
    """The first statement in `sql` that destroys data, shortened for a reason; else None."""
    if not any(word in sql.upper() for word in ("DROP", "TRUNCATE", "DELETE")):
        return None
    blank = _QUOTED.sub(lambda m: "''" if m.group(0)[:1] in "'\"`" else " ", sql)
    for statement in blank.split(";"):
        if _DROP.match(statement) or _TRUNCATE.match(statement) or _ALTER_DROP.match(statement):
            return _short(statement)
        if _DELETE.match(statement) and not _WHERE.search(statement):
            return _short(statement) + " (no WHERE: every row)"
    return None


def _short(statement: str, limit: int = 50) -> str:
    text = " ".join(statement.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
