"""Databases: their clients, one `Command` record each (guard/knowledge/commands/command.py).

SQL is code: statements and client commands that reach files and programs are read by
guard/languages/sql.py (the spec's `sql` roles), and SQL that drops or empties data is the
`sql` check of guard/projection/effect_checks.py (the effect rows).
"""

from __future__ import annotations

from guard.knowledge.commands.command import Command
from guard.knowledge.commands.effect import E, Tool
from guard.knowledge.commands.spec import Spec, opts

_DROPS = (E("destroy", "database", "SQL that drops or empties data", check="sql"),)

COMMANDS: dict[str, Command] = {
    "sqlite3": Command(
        spec=Spec(
            kind="sql",
            operands="sql",
            first="read",  # the database
            values=opts("-separator", "-nullvalue", "-newline"),
            options={"-cmd": "sql", "-init": "sql-file"},
        ),
        effects=Tool(
            values=opts("-cmd", "-separator", "-nullvalue", "-newline"),
            single_dash_long=True,
            effects=_DROPS,
        ),
    ),
    "psql": Command(
        spec=Spec(
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
        effects=Tool(
            values=opts(
                *("-c", "--command", "-h", "--host", "-p", "--port", "-U", "--username"),
                *("-d", "--dbname", "-f", "--file", "-v", "--set", "-o", "--output"),
            ),
            effects=_DROPS,
        ),
    ),
    **dict.fromkeys(
        ("mysql", "mariadb"),
        Command(
            spec=Spec(
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
            effects=Tool(
                values=opts(
                    *("-e", "--execute", "-h", "--host", "-P", "--port", "-u", "--user"),
                    *("-D", "--database", "-S", "--socket"),
                ),
                effects=_DROPS,
            ),
        ),
    ),
    **dict.fromkeys(
        ("mongosh", "mongo"),
        Command(
            effects=Tool(
                values=opts(
                    *("--eval", "--host", "--port", "-u", "--username", "-p", "--password"),
                    "--file",
                ),
                effects=(E("destroy", "database", "drops or empties data", check="mongo-eval"),),
            ),
        ),
    ),
    "redis-cli": Command(
        effects=Tool(
            values=opts(
                *("-h", "-p", "-a", "-n", "-u", "--user", "--pass", "--eval", "-s", "-r"),
                *("-i", "-d", "--cacert", "--cert", "--key", "--sni", "--tls-ciphers"),
            ),
            effects=(E("destroy", "database", "deletes keys", check="redis-command"),),
        ),
    ),
}
