"""What a command spec says: the roles an argument can play, the kinds of command, and `Spec`."""

from __future__ import annotations

from typing import Literal, NamedTuple

Role = Literal[
    "read",
    "write",
    "edit",  # a file opened to change it (an editor's): read, then written
    "execute",
    "chdir",
    "data",
    "path",
    "code",
    "command",
    "git-config",
    "ssh-option",
    "sed-script",
    "awk-program",
    "file-list",
    "url",
    "curl-data",
    "curl-form",
    "curl-cookie",
    "wgetrc",
    "make-code",
    "make-operand",
    "git-config-env",
    "container-volume",
    "container-mount",
    "container-output",  # docker save -o FILE, buildx --output type=local,dest=DIR: written
    "container-secret",  # docker build --secret id=x,src=FILE: FILE read into the build
    "sql",
    "sql-file",
    "tool-setting",
    "code-file",  # a file of code it runs (awk -f, make -f): `-` is its standard input
    "piped-output",  # a file written, or `|cmd`/`!cmd`: a shell command fed the output (strace -o)
    "miller",  # a Miller word: a verb, a DSL expression (put, filter) or a file it reads
    "miller-edit",  # the same with `mlr -I`: its files are edited in place
]


Kind = Literal[
    "plain",
    "wrapper",
    "shell",
    "eval",
    "source",
    "find",
    "xargs",
    "cd",
    "pushd",
    "popd",
    "test",
    "trap",
    "exec",
    "command",
    "alias",
    "bind",
    "assigns",
    "positional",
    "printf",
    "coproc",
    "tmux",
    "fc",
    "builtin",
    "parallel",
    "watch",
    "git",
    "runuser",
    "bwrap",
    "compiler",
    "tar",
    "runner",
    "scheduler",
    "sql",
    "cmake",
    "screen",
]


class Spec(NamedTuple):  # a named tuple: hundreds are built on every start-up
    kind: Kind = "plain"
    operands: Role = "path"  # role of operands not covered by first/last
    first: Role | None = None  # role of the first operand (a pattern, a mode, a script)
    last: Role | None = None  # role of the last operand when there are two or more
    values: frozenset[str] = frozenset()  # options that take a value (role "path", see below)
    options: dict[str, Role] = {}  # noqa: RUF012  # options whose value has a role
    flags: dict[str, Role] = {}  # noqa: RUF012  # flags that change the operand role
    skip: int = 0  # wrappers: operands before the command (timeout's DURATION)
    assignments: bool = False  # wrappers: NAME=value operands before the command (env)
    bare_reads_cwd: bool = False  # with no operands it reads the current directory
    first_drops: frozenset[str] = frozenset()  # options whose presence means no pattern operand
    subcommands: bool = False  # `git log` etc.: the first operand names what to do
    stop_at_operand: bool = False  # options end at the first operand (`python script.py -x`)
    pairs: dict[str, Role] = {}  # noqa: RUF012  # options taking a name, then a value with a role
    text: frozenset[str] = frozenset()  # options of `values` whose value is data on purpose
    ends_options: frozenset[str] = frozenset()  # after its value, every word is an operand
    skipped: Role = "path"  # wrappers: the role of the operands before the command
    subcommand_words: frozenset[str] = frozenset()  # a first operand that names what to do


# Options whose value is data on purpose (a message, a pattern, a format, a name) for every
# command that lists them in `values`; any other value that looks like a path is a read.
TEXT_VALUES = frozenset(
    {
        *("-m", "--message", "-e", "--regexp", "--grep", "--format", "--pretty", "-F"),
        *("--include", "--exclude", "--exclude-dir", "-g", "--glob", "--iglob", "--ignore"),
        *("--author", "--committer", "--date", "--since", "--until", "--label", "--replace"),
        *("--subject-prefix", "--in-reply-to", "--to", "--cc", "--from", "--add-header"),
        *("--prefix", "--separator", "-separator", "-nullvalue", "-newline", "--pre-glob"),
        *("--type-add", "--colors", "--context-separator", "--group-separator"),
        *("--field-separator", "--field-context-separator", "--field-match-separator"),
        *("--path-separator", "--hyperlink-format", "--comment", "--default", "--name"),
        *("-k", "-d", "--delimiter", "-t", "-W", "-v", "--assign", "-E", "-S", "-P"),
        *("-A", "-G", "--file-search-regex", "--ignore-dir", "--noignore-dir"),
    }
)


def opts(*names: str) -> frozenset[str]:
    """A set of option names (those that take a value, or that are text)."""
    return frozenset(names)


READ = Spec(operands="read")


WRITE = Spec(operands="write")
EDIT = Spec(operands="edit")


PRINT = Spec(operands="data")


NOTHING = Spec(operands="data")
