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

_ROLLED_BACK = "rolls back migrations: their down steps drop what the up steps made"

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
    # the other SQL clients: where their SQL is given says their spec (`sql`, `sql-file`)
    "duckdb": Command(
        spec=Spec(
            kind="sql",
            operands="sql",
            first="read",  # the database
            values=opts("-separator", "-nullvalue", "-newline"),
            options={
                "-c": "sql",
                "-cmd": "sql",
                "-s": "sql",
                "-init": "sql-file",
                "-f": "sql-file",
            },
        ),
        effects=Tool(
            values=opts("-c", "-cmd", "-s", "-init", "-f", "-separator", "-nullvalue"),
            single_dash_long=True,
            effects=_DROPS,
        ),
    ),
    **dict.fromkeys(
        ("clickhouse-client", "clickhouse-local"),
        Command(
            spec=Spec(
                kind="sql",
                operands="data",
                values=opts(
                    *("-h", "--host", "--port", "-u", "--user", "--password"),
                    *("-d", "--database", "--format", "-f"),
                ),
                text=opts("-h", "--host", "--port", "-u", "--user", "-d", "--database"),
                options={"-q": "sql", "--query": "sql", "--queries-file": "sql-file"},
            ),
            effects=Tool(
                values=opts(
                    *("-q", "--query", "-h", "--host", "--port", "-u", "--user"),
                    *("--password", "-d", "--database", "--queries-file"),
                ),
                effects=_DROPS,
            ),
        ),
    ),
    "cqlsh": Command(
        spec=Spec(
            kind="sql",
            operands="data",  # host and port
            values=opts("-u", "--username", "-p", "--password", "-k", "--keyspace"),
            text=opts("-u", "--username", "-k", "--keyspace"),
            options={"-e": "sql", "--execute": "sql", "-f": "sql-file", "--file": "sql-file"},
        ),
        effects=Tool(
            values=opts("-e", "--execute", "-f", "--file", "-u", "--username", "-k"),
            effects=_DROPS,
        ),
    ),
    "sqlcmd": Command(
        spec=Spec(
            kind="sql",
            operands="data",
            values=opts("-S", "-d", "-U", "-P", "-H", "-l", "-t", "-s", "-w"),
            text=opts("-S", "-d", "-U", "-H"),
            options={"-Q": "sql", "-q": "sql", "-i": "sql-file", "-o": "write"},
        ),
        effects=Tool(values=opts("-Q", "-q", "-i", "-o", "-S", "-d", "-U", "-P"), effects=_DROPS),
    ),
    "snowsql": Command(
        spec=Spec(
            kind="sql",
            operands="data",
            values=opts(
                *("-a", "--accountname", "-u", "--username", "-d", "--dbname"),
                *("-s", "--schemaname", "-w", "--warehouse", "-r", "--rolename"),
                "-o",
                "--option",
            ),
            text=opts("-a", "--accountname", "-u", "--username", "-d", "--dbname"),
            options={"-q": "sql", "--query": "sql", "-f": "sql-file", "--filename": "sql-file"},
        ),
        effects=Tool(
            values=opts("-q", "--query", "-f", "--filename", "-a", "-u", "-d", "-s", "-w", "-o"),
            effects=_DROPS,
        ),
    ),
    "influx": Command(  # 1.x: -execute QUERY; 2.x: subcommands (influx bucket delete)
        spec=Spec(
            kind="sql",
            operands="data",
            values=opts("-host", "-port", "-username", "-password", "-database", "-format"),
            text=opts("-host", "-username", "-database"),
            options={"-execute": "sql", "-import": "read", "-path": "read"},
        ),
        effects=Tool(
            values=opts("-execute", "-host", "-port", "-username", "-database", "-path"),
            single_dash_long=True,
            effects=_DROPS,
        ),
        subcommands=True,
    ),
    # migration tools whose `down` runs the down steps: they drop what the up steps made
    "goose": Command(
        effects=Tool(
            values=opts("-dir", "-table", "-env"),
            single_dash_long=True,
            effects=(
                E(
                    "destroy",
                    "database",
                    _ROLLED_BACK,
                    word="down|down-to|reset",  # after the driver and the database, if given
                ),
            ),
        ),
        subcommands=True,
    ),
    "migrate": Command(  # golang-migrate
        effects=Tool(
            values=opts("-path", "-database", "-source", "-lock-timeout", "-prefetch"),
            single_dash_long=True,
            effects=(
                E(
                    "destroy",
                    "database",
                    _ROLLED_BACK,
                    sub=("down",),
                ),
                E("destroy", "database", "drop drops everything in the database", sub=("drop",)),
            ),
        ),
        # a word so common that other tools' subcommands name it (`prisma migrate reset`)
        own_rows="its rows name what destroys (down, drop); force only sets the version",
    ),
    # schema migration tools whose `clean` drops every object in the schemas they manage
    "flyway": Command(
        effects=Tool(
            effects=(
                E("destroy", "database", "clean drops every object in its schemas", sub=("clean",)),
            )
        ),
        subcommands=True,
    ),
    "atlas": Command(
        effects=Tool(
            values=opts("-u", "--url", "--env", "-c", "--config", "--dev-url"),
            effects=(
                E(
                    "destroy",
                    "database",
                    "schema clean drops every object in the schema",
                    sub=("schema", "clean"),
                ),
            ),
        ),
        subcommands=True,
    ),
    # pg_restore --clean drops the database's objects before it makes them again
    "pg_restore": Command(
        spec=Spec(
            operands="read",  # the dump
            values=opts(*("-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username")),
            text=opts(*("-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username")),
            options={"-f": "write", "--file": "write", "-L": "read", "--use-list": "read"},
        ),
        effects=Tool(
            values=opts(*("-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "-f", "-L")),
            effects=(
                E(
                    "destroy",
                    "database",
                    "restore --clean drops what the database holds first",
                    flags=("-c", "--clean"),
                ),
            ),
        ),
    ),
    # PostgreSQL's wrappers around DROP: the whole database, role or cluster goes
    **dict.fromkeys(
        ("dropdb", "dropuser", "pg_dropcluster"),
        Command(
            spec=Spec(
                operands="data",  # database, role, version and cluster names
                values=opts(
                    *("-h", "--host", "-p", "--port", "-U", "--username"),
                    "--maintenance-db",
                ),
            ),
            effects=Tool(
                values=opts(
                    *("-h", "--host", "-p", "--port", "-U", "--username"),
                    "--maintenance-db",
                ),
                effects=(E("destroy", "database", "drops a database, a role or a cluster"),),
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
