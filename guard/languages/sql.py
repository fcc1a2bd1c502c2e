"""SQL is code: the statements and client commands of sqlite3, psql and mysql that reach files
or programs, found by a token scan (no SQL parser).

`sql_effects(text, dialect)` gives (what, value) pairs: "read", "write", "execute" with a file
name; "code" with a shell command (value None when it is not a literal); "path" when a file is
named by something not a literal. Pure: text in, findings out.
"""

from __future__ import annotations

import re
from typing import Literal

Dialect = Literal["sqlite", "postgres", "mysql"]
DIALECTS: dict[str, Dialect] = {
    "sqlite3": "sqlite",
    "sqlite": "sqlite",
    "psql": "postgres",
    "mysql": "mysql",
    "mariadb": "mysql",
}
Effect = tuple[str, "str | None"]

_TOKEN = re.compile(
    r"""\s+|--[^\n]*|\#[^\n]*|/\*.*?(\*/|$)|'(?:[^']|'')*'?|"(?:[^"]|"")*"?|`[^`]*`?|"""
    r"""[A-Za-z_][A-Za-z0-9_$]*|\S""",
    re.DOTALL,
)

# functions whose first (or second) argument is a file: (effect, argument index)
_FILE_FUNCTIONS: dict[str, tuple[str, int]] = {
    "readfile": ("read", 0),
    "writefile": ("write", 0),
    "load_extension": ("execute", 0),
    "pg_read_file": ("read", 0),
    "pg_read_binary_file": ("read", 0),
    "pg_stat_file": ("read", 0),
    "pg_ls_dir": ("read", 0),
    "lo_import": ("read", 0),
    "lo_export": ("write", 1),
    "load_file": ("read", 0),
    # DuckDB's table functions read the files they name
    **dict.fromkeys(
        (
            *("read_csv", "read_csv_auto", "read_parquet", "parquet_scan", "read_json"),
            *("read_json_auto", "read_ndjson", "read_ndjson_auto", "read_json_objects"),
            *("read_text", "read_blob", "read_xlsx", "sniff_csv", "glob", "parquet_metadata"),
        ),
        ("read", 0),
    ),
}
_RUNS = frozenset({"edit", "system", "sys_exec", "sys_eval"})  # sqlite's edit() runs $EDITOR

# sqlite3's dot-commands: what their first argument is
_SQLITE_DOT: dict[str, str] = {
    "shell": "code",
    "system": "code",
    "excel": "code",
    "once": "write",
    "output": "write",
    "log": "write",
    "trace": "write",
    "save": "write",
    "backup": "write-last",  # .backup ?DB? FILE
    "open": "write",
    "clone": "write",
    "read": "read",
    "import": "read",
    "restore": "read-last",
    "load": "execute",
    "cd": "path",
}
# psql's backslash commands
_PSQL_META: dict[str, str] = {
    "!": "code",
    "e": "code",
    "edit": "code",
    "ef": "code",
    "ev": "code",
    "setenv": "code",
    "i": "read",
    "include": "read",
    "ir": "read",
    "include_relative": "read",
    "lo_import": "read",
    "o": "write",
    "out": "write",
    "g": "write",
    "gx": "write",
    "w": "write",
    "write": "write",
    "lo_export": "write",
    "cd": "path",
    "copy": "copy",
}
# mysql's client commands (also as \x forms)
_MYSQL_CLIENT: dict[str, str] = {
    "system": "code",
    "\\!": "code",
    "pager": "code",
    "\\P": "code",
    "edit": "code",
    "\\e": "code",
    "source": "read",
    "\\.": "read",
    "tee": "write",
    "\\T": "write",
}


def sql_effects(text: str, dialect: Dialect) -> list[Effect]:
    """What the SQL (and client commands) in `text` do to files and programs."""
    found: list[Effect] = []
    sql_lines: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        command = _client_command(stripped, dialect)
        if command is not None:
            found.extend(command)
        else:
            sql_lines.append(line)
    found.extend(_statements(_tokens("\n".join(sql_lines))))
    return found


def _client_command(line: str, dialect: Dialect) -> list[Effect] | None:
    """A line that is a client command rather than SQL: its effects, else None."""
    if dialect == "sqlite" and line.startswith("."):
        name, _, rest = line[1:].partition(" ")
        what = _SQLITE_DOT.get(name.lower())
        return [] if what is None else _argument(what, rest.strip())
    if dialect == "postgres" and line.startswith("\\"):
        effects: list[Effect] = []
        for part in re.split(r"(?<!^)\\(?=[a-z!])", line[1:]):  # `\o out \! cmd` on one line
            meta = re.match(r"[a-z_]+|!", part)
            if meta is None:
                continue
            what = _PSQL_META.get(meta.group(0))
            rest = part[meta.end() :].strip()
            if what == "copy":
                effects.extend(_client_copy(rest))
            elif what is not None and (rest or what == "code"):
                effects.extend(_argument(what, rest))
        return effects
    if dialect == "mysql":
        name, _, rest = line.partition(" ")
        what = _MYSQL_CLIENT.get(name if name.startswith("\\") else name.lower())
        if what is not None:
            return _argument(what, rest.strip().rstrip(";"))
    return None


def _argument(what: str, rest: str) -> list[Effect]:
    """A client command's argument: a file (`|cmd` is a command), or shell code."""
    if what == "code":
        return [("code", rest or None)]
    words = rest.split()
    while words and words[0].startswith("-"):  # .once -x, .import --csv FILE TABLE
        words.pop(0)
    if not words:
        return []
    target = words[0]
    if what.endswith("-last"):
        what, target = what[: -len("-last")], words[-1]
    if target.startswith("|"):
        return [("code", rest[rest.index("|") + 1 :].strip() or None)]
    return [(what, _unquoted(target))]


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token[:1].isspace() or token.startswith(("--", "/*", "#")):
            continue
        out.append(token)
    return out


def _unquoted(token: str) -> str:
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"`":
        return token[1:-1].replace(token[0] * 2, token[0])
    return token


def _literal(token: str) -> str | None:
    return _unquoted(token) if token[:1] in "'\"" else None


def _statements(tokens: list[str]) -> list[Effect]:
    found: list[Effect] = []
    lowered = [t.lower() for t in tokens]
    copying = False  # within a COPY statement, whose FROM is read there
    for i, word in enumerate(lowered):
        nxt = lowered[i + 1] if i + 1 < len(lowered) else ""
        copying = (copying or word == "copy") and word != ";"
        if word == "attach":
            at = i + 2 if nxt == "database" else i + 1
            found.append(_file_at(tokens, at, "write"))
        elif word == "vacuum" and "into" in lowered[i + 1 : i + 3]:
            into = i + 1 + lowered[i + 1 : i + 3].index("into")
            found.append(_file_at(tokens, into + 1, "write"))
        elif word == "into" and nxt in ("outfile", "dumpfile"):
            found.append(_file_at(tokens, i + 2, "write"))
        elif word == "infile" and i > 0 and lowered[i - 1] in ("data", "local", "xml"):
            found.append(_file_at(tokens, i + 1, "read"))
        elif word == "copy":
            found.extend(_copy(tokens[i + 1 :], client=False))
        elif word in ("from", "join") and nxt[:1] == "'" and not copying:
            found.append(_file_at(tokens, i + 1, "read"))  # DuckDB: SELECT * FROM 'data.csv'
        elif word == "load" and nxt[:1] in ("'", '"'):
            found.append(_file_at(tokens, i + 1, "execute"))  # DuckDB: LOAD 'x.duckdb_extension'
        elif word == "install" and "from" in lowered[i + 2 : i + 3]:
            found.append(("code", None))  # INSTALL x FROM 'repository': code from elsewhere
        elif nxt == "(" and word in _FILE_FUNCTIONS:
            what, index = _FILE_FUNCTIONS[word]
            found.append(_call_argument(tokens, i + 2, index, what))
        elif nxt == "(" and word in _RUNS:
            found.append(("code", None))
    return found


def _file_at(tokens: list[str], at: int, what: str) -> Effect:
    literal = _literal(tokens[at]) if at < len(tokens) else None
    return (what, literal) if literal is not None else ("path", None)


def _call_argument(tokens: list[str], start: int, index: int, what: str) -> Effect:
    """The `index`-th argument of a call whose `(` is just before `start`."""
    depth, argument = 0, 0
    for k in range(start, len(tokens)):
        token = tokens[k]
        if token == "(":
            depth += 1
        elif token == ")":
            if depth == 0:
                break
            depth -= 1
        elif token == "," and depth == 0:
            argument += 1
        elif argument == index and depth == 0:
            literal = _literal(token)
            nxt = tokens[k + 1] if k + 1 < len(tokens) else ")"
            if literal is not None and nxt in (",", ")"):
                return (what, literal)
            break
    return ("code", None) if what == "execute" else ("path", None)  # not a literal


_CLIENT_COPY = re.compile(r"\b(from|to)\s+(program\s+)?('(?:[^']|'')*'|\S+)", re.IGNORECASE)


def _client_copy(rest: str) -> list[Effect]:
    r"""psql's `\copy t from FILE`, `to FILE`, `from program 'cmd'`: a file on this machine."""
    match = _CLIENT_COPY.search(re.sub(r"\([^()]*\)", "()", rest))
    if match is None:
        return [("path", None)]
    direction, program, target = match.groups()
    if program:
        return [("code", _literal(target))]
    if target.lower() in ("stdin", "stdout", "pstdin", "pstdout"):
        return []
    return [("read" if direction.lower() == "from" else "write", _unquoted(target))]


def _copy(tokens: list[str], *, client: bool) -> list[Effect]:
    """`COPY t FROM 'file'`, `TO 'file'`, `FROM PROGRAM 'cmd'`; psql's `\\copy … from file`."""
    lowered = [t.lower() for t in tokens]
    for k, word in enumerate(lowered):
        if word == ";":
            break
        if word in ("from", "to") and k + 1 < len(tokens):
            what = "read" if word == "from" else "write"
            target = lowered[k + 1]
            if target in ("stdin", "stdout", "pstdin", "pstdout"):
                return []
            if target == "program":
                literal = _literal(tokens[k + 2]) if k + 2 < len(tokens) else None
                return [("code", literal)]
            literal = _literal(tokens[k + 1])
            if literal is not None:
                return [(what, literal)]
            if client and target not in ("(", "select"):
                return [(what, tokens[k + 1])]  # \copy takes a bare file name
            return [("path", None)]
    return []
