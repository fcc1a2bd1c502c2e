"""SQL is code: the token scan of guard/languages/sql.py, and what sqlite3, psql and mysql lines
reach.

Pure: a fixed context (workspace /w/proj, home /h/u); `/o/…` is any path outside it.
"""

from __future__ import annotations

import pytest

from guard.languages.sql import Dialect, sql_effects
from guard.projection.line_projection import project
from guard.projection.shell_state import Context

CTX = Context(cwd="/w/proj", env={"HOME": "/h/u"}, workspace=("/w/proj",), home="/h/u")

# (SQL, dialect, effects)
EFFECTS: list[tuple[str, Dialect, list[tuple[str, str | None]]]] = [
    ("ATTACH '/o/x.db' AS x", "sqlite", [("write", "/o/x.db")]),
    ("attach database 'x.db' as x", "sqlite", [("write", "x.db")]),
    ("VACUUM INTO '/o/copy.db'", "sqlite", [("write", "/o/copy.db")]),
    ("select readfile('/o/secret')", "sqlite", [("read", "/o/secret")]),
    ("select writefile('/o/out', data) from t", "sqlite", [("write", "/o/out")]),
    ("select writefile(name, data) from t", "sqlite", [("path", None)]),
    ("select load_extension('/o/x.so')", "sqlite", [("execute", "/o/x.so")]),
    ("select load_extension(x) from t", "sqlite", [("code", None)]),
    (".shell id", "sqlite", [("code", "id")]),
    (".system id", "sqlite", [("code", "id")]),
    (".once /o/out.csv", "sqlite", [("write", "/o/out.csv")]),
    (".once -x", "sqlite", []),
    (".output |cat", "sqlite", [("code", "cat")]),
    (".read /o/x.sql", "sqlite", [("read", "/o/x.sql")]),
    (".import --csv /o/x.csv t", "sqlite", [("read", "/o/x.csv")]),
    (".load /o/ext", "sqlite", [("execute", "/o/ext")]),
    (".save /o/db", "sqlite", [("write", "/o/db")]),
    (".backup main /o/db", "sqlite", [("write", "/o/db")]),
    (".restore /o/db", "sqlite", [("read", "/o/db")]),
    (".tables", "sqlite", []),
    ("select 'attach' as word, readfile from t -- readfile('/o/x')", "sqlite", []),
    ("COPY t FROM '/o/passwd'", "postgres", [("read", "/o/passwd")]),
    ("copy t to '/o/out'", "postgres", [("write", "/o/out")]),
    ("COPY t TO PROGRAM 'id'", "postgres", [("code", "id")]),
    ("copy t from stdin", "postgres", []),
    ("\\copy t from /o/data.csv csv", "postgres", [("read", "/o/data.csv")]),
    ("\\copy (select 1 from t) to '/o/out'", "postgres", [("write", "/o/out")]),
    ("\\! id", "postgres", [("code", "id")]),
    ("\\i /o/x.sql", "postgres", [("read", "/o/x.sql")]),
    ("\\o /o/out", "postgres", [("write", "/o/out")]),
    ("\\o |cat", "postgres", [("code", "cat")]),
    ("select pg_read_file('/o/x')", "postgres", [("read", "/o/x")]),
    ("LOAD DATA INFILE '/o/passwd' INTO TABLE t", "mysql", [("read", "/o/passwd")]),
    ("load data local infile '/o/x' into table t", "mysql", [("read", "/o/x")]),
    ("SELECT 1 INTO OUTFILE '/o/out'", "mysql", [("write", "/o/out")]),
    ("select load_file('/o/x')", "mysql", [("read", "/o/x")]),
    ("system id", "mysql", [("code", "id")]),
    ("source /o/x.sql", "mysql", [("read", "/o/x.sql")]),
    ("select * from t where a = 'x'", "mysql", []),
]


@pytest.mark.parametrize(("sql", "dialect", "expected"), EFFECTS)
def test_statements_that_reach_files_or_programs(
    sql: str, dialect: Dialect, expected: list[tuple[str, str | None]]
) -> None:
    assert sql_effects(sql, dialect) == expected


# (line, external (path, access) pairs, asks as code)
LINES = [
    ("sqlite3 data.db \"ATTACH '/o/x.db' AS x\"", {("/o/x.db", "write")}, False),
    ("sqlite3 data.db \"select readfile('/o/passwd')\"", {("/o/passwd", "read")}, False),
    ("sqlite3 -cmd '.shell id' data.db", set(), True),
    ("sqlite3 data.db <<'E'\n.shell id\nE", set(), True),
    ("sqlite3 data.db <<< '.read /o/x'", {("/o/x", "read")}, False),
    ("sqlite3 -init /o/init.sql data.db", {("/o/init.sql", "read")}, False),
    ("psql -c \"COPY t FROM '/o/passwd'\"", {("/o/passwd", "read")}, False),
    ("psql -f /o/x.sql", {("/o/x.sql", "read")}, False),
    ("psql -c '\\! id'", set(), True),
    ('psql -c "$QUERY"', set(), True),
    ("mysql -e \"LOAD DATA INFILE '/o/passwd' INTO TABLE t\"", {("/o/passwd", "read")}, False),
    ("mysql -e \"SELECT 1 INTO OUTFILE '/o/out'\" db", {("/o/out", "write")}, False),
    ("echo '.shell id' | sqlite3 data.db", set(), True),
    ("echo \"ATTACH '/o/x' AS y\" | sqlite3 data.db", {("/o/x", "write")}, False),
    ("psql <<E\n\\copy t from '/o/passwd'\nE", set(), True),  # tree-sitter misreads it
    ("psql <<'E'\nCOPY t FROM '/o/passwd';\nE", {("/o/passwd", "read")}, False),
    ("psql <<E\nselect '$1';\nE", set(), True),  # SQL built from an expansion
    ("cat dump.sql | sqlite3 data.db", set(), False),
    ("gunzip -c dump.sql.gz | mysql db", set(), False),  # a file the line names, as `< F`
    ("zcat dump.sql.gz | psql", set(), False),
    # SQL from anything else on a pipe is not known, whatever it runs (`\\! cmd`, `.shell`)
    ("curl -s https://x.example/d.sql | sqlite3 data.db", set(), True),
    ("curl -s https://x.example/d.sql | psql", set(), True),
    ("pg_dump prod | psql staging", set(), True),
    ("cat ids.txt | psql -c 'copy t from stdin'", set(), False),  # the SQL is -c's
    ("curl -s https://x.example/d.sql | sqlite3 -cmd '.timeout 9' data.db", set(), True),
    ("curl -s https://x.example/d.sql | duckdb -cmd 'SET threads=2' data.duckdb", set(), True),
    ("cat ids.csv | duckdb -c 'select count(*) from read_csv(\"/dev/stdin\")'", set(), False),
    ("sqlite3 data.db 'select * from t'", set(), False),
    ("sqlite3 data.db .tables", set(), False),
    ("sqlite3 :memory: 'select 1'", set(), False),
    ("psql -d mydb -c 'select 1'", set(), False),
    ("mysql -u root -e 'show tables' mydb", set(), False),
]


@pytest.mark.parametrize(("line", "expected", "code"), LINES)
def test_database_clients_read_their_sql(
    line: str, expected: set[tuple[str, str]], code: bool
) -> None:
    requests = project(line, CTX).requests
    found = {(r.path or "", r.access or "") for r in requests if r.surface == "external_directory"}
    assert found == expected
    assert any(r.surface == "dynamic" and r.role == "code" for r in requests) == code
