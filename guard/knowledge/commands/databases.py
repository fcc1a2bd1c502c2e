"""Database clients: SQL is code, and statements and client commands reach files and programs."""

from __future__ import annotations

from guard.knowledge.commands.spec import Spec, opts

SPECS: dict[str, Spec] = {
    # SQL is code: statements and client commands that reach files and programs
    # (guard/languages/sql.py)
    "sqlite3": Spec(
        kind="sql",
        operands="sql",
        first="read",  # the database
        values=opts("-separator", "-nullvalue", "-newline"),
        options={"-cmd": "sql", "-init": "sql-file"},
    ),
    "psql": Spec(
        kind="sql",
        operands="data",  # database and user names
        values=opts("-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v"),
        text=opts("-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v"),
        options={
            "-c": "sql",
            "--command": "sql",
            "-f": "sql-file",
            "--file": "sql-file",
            "-o": "write",
            "--output": "write",
            "-L": "write",
            "--log-file": "write",
        },
    ),
    **dict.fromkeys(
        ("mysql", "mariadb"),
        Spec(
            kind="sql",
            operands="data",
            values=opts("-D", "--database", "-h", "--host", "-P", "--port", "-u", "--user"),
            text=opts("-D", "--database", "-h", "--host", "-P", "--port", "-u", "--user"),
            options={
                "-e": "sql",
                "--execute": "sql",
                "--init-command": "sql",
                "--defaults-file": "read",
                "--defaults-extra-file": "read",
                "--tee": "write",
                "--pager": "code",
            },
        ),
    ),
}
