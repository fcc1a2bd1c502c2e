"""What common commands do with their arguments, as data.

Each `Spec` says which options take a value, what role operands play (a path read or written, a
pattern, a message, shell code, a command to run), and which options name paths. The reader in
`guard/knowledge/arguments.py` applies a spec to an argv. Add knowledge here, not `if`s in the
walker.

Roles: "read", "write", "execute", "chdir" are accesses; "data" is not a path, on purpose;
"path" is a read of whatever looks like a path — the default for every word a spec does not
declare data (operands, the values of `values` options not in `text`/TEXT_VALUES, options no
spec knows): unknown is an access; "code" is shell code run by this shell or a child;
"command" starts a command this one runs (wrappers).
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

Role = Literal[
    "read",
    "write",
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
    "sql",
    "sql-file",
    "tool-setting",
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


def _v(*names: str) -> frozenset[str]:
    return frozenset(names)


READ = Spec(operands="read")
WRITE = Spec(operands="write")
PRINT = Spec(operands="data")
NOTHING = Spec(operands="data")

_GREP = Spec(  # GNU grep: -A -B -C -D -X -d -e -f -m take a value; -r, -T are flags
    operands="read",
    first="data",
    values=_v(
        "-A",
        "-B",
        "-C",
        "-D",
        "-X",
        "-d",
        "-m",
        "--max-count",
        "--devices",
        "--directories",
        "--binary-files",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--label",
        "--context",
        "--after-context",
        "--before-context",
        "--group-separator",
    ),
    options={
        "-e": "data",
        "--regexp": "data",
        "-f": "read",
        "--file": "read",
        "--exclude-from": "read",
    },
    first_drops=_v("-e", "--regexp", "-f", "--file"),
)
_RG = Spec(  # ripgrep: -r is --replace, -T is --type-not
    operands="read",
    first="data",
    values=_v(
        "-A",
        "-B",
        "-C",
        "-E",
        "-M",
        "-d",
        "-g",
        "-j",
        "-m",
        "-r",
        "-t",
        "-T",
        "--after-context",
        "--before-context",
        "--context",
        "--color",
        "--colors",
        "--context-separator",
        "--dfa-size-limit",
        "--encoding",
        "--engine",
        "--field-context-separator",
        "--field-match-separator",
        "--glob",
        "--iglob",
        "--max-columns",
        "--max-count",
        "--max-depth",
        "--max-filesize",
        "--path-separator",
        "--pre-glob",
        "--regex-size-limit",
        "--replace",
        "--sort",
        "--sortr",
        "--threads",
        "--type",
        "--type-add",
        "--type-clear",
        "--type-not",
        "--hyperlink-format",
    ),
    options={
        "-e": "data",
        "--regexp": "data",
        "-f": "read",
        "--file": "read",
        "--ignore-file": "read",
        "--pre": "code",
        "--hostname-bin": "code",
    },
    first_drops=_v("-e", "--regexp", "-f", "--file", "--files", "--type-list"),
)
_AG = Spec(  # the silver searcher: -f follows links, -r recurses, -t searches all text
    operands="read",
    first="data",
    values=_v(
        "-A",
        "-B",
        "-C",
        "-G",
        "-g",
        "-m",
        "-W",
        "--after",
        "--before",
        "--context",
        "--file-search-regex",
        "--ignore",
        "--ignore-dir",
        "--max-count",
        "--depth",
        "--width",
        "--color-line-number",
        "--color-match",
        "--color-path",
    ),
    options={"-p": "read", "--path-to-ignore": "read", "--pager": "code"},
    first_drops=_v("-g"),
)
_ACK = Spec(  # ack: -f and -g list files (no pattern operand), -x reads names from input
    operands="read",
    first="path",  # a pattern, unless -f or -g: read when it looks like a path
    values=_v(
        "-A",
        "-B",
        "-C",
        "-m",
        "--after-context",
        "--before-context",
        "--context",
        "--max-count",
        "--ignore-dir",
        "--noignore-dir",
        "--ignore-file",
        "--type",
        "--type-set",
        "--type-add",
        "--type-del",
        "--output",
        "--color-filename",
        "--color-match",
        "--color-colno",
        "--color-lineno",
    ),
    options={"--pager": "code", "--ackrc": "read", "--files-from": "file-list"},
    first_drops=_v("--files-from"),
)
_SED = Spec(
    operands="read",
    first="sed-script",
    values=_v("-l", "--line-length"),
    options={"-e": "sed-script", "--expression": "sed-script", "-f": "read", "--file": "read"},
    flags={"-i": "write", "--in-place": "write"},
    first_drops=_v("-e", "--expression", "-f", "--file"),
)
_AWK = Spec(
    operands="read",
    first="awk-program",
    values=_v("-F", "-v", "--assign", "--field-separator", "-W"),
    options={
        "-f": "read",
        "--file": "read",
        "-i": "read",
        "--include": "read",
        "-E": "read",
        "--exec": "read",
        "-l": "execute",  # gawk -l loads a shared library
        "--load": "execute",
    },
    first_drops=_v("-f", "--file", "-E", "--exec"),
)
_INTERPRETER = Spec(
    operands="path",
    first="read",
    values=_v("-W", "-X", "-O", "-M"),
    text=_v("-M"),  # perl -MModule=args: a module name
    options={
        "--require": "read",  # node -r MODULE, ruby -r LIB: code loaded first
        "-r": "read",
        "-I": "read",  # perl, ruby: where modules are loaded from
        "-c": "data",
        "-e": "data",
        "-p": "data",
        "--eval": "data",
        "--print": "data",
        "-m": "data",
        "-E": "data",
    },
    first_drops=_v("-c", "-e", "-p", "--eval", "--print", "-m", "-E"),
    stop_at_operand=True,
    ends_options=_v("-c", "-m"),  # python -c CODE ARGS…, -m MODULE ARGS…: ARGS are the program's
)
_COPY = Spec(
    operands="read",
    last="write",
    values=_v("-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "-Z"),
    options={"-t": "write", "--target-directory": "write"},
)
_WRAPPER = Spec(kind="wrapper", operands="command")

# git: its own options, then a subcommand read with its spec in GIT_SUBCOMMANDS (or GIT_OTHER).
GIT = Spec(
    kind="git",
    operands="path",
    subcommands=True,
    values=_v("--namespace", "--super-prefix", "--list-cmds"),
    options={
        "-C": "chdir",
        "--git-dir": "read",
        "--work-tree": "chdir",
        "-c": "git-config",
        "--config-env": "git-config-env",
        "--exec-path": "execute",  # git runs its subcommands from there
    },
)
GIT_GLOBAL_VALUES = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"}
)
GIT_OTHER = Spec(
    operands="path",
    values=_v(
        "-m",
        "--message",
        "-b",
        "-B",
        "--author",
        "--date",
        "--format",
        "--pretty",
        "-n",
        "--depth",
        "--branch",
        "-S",
        "--since",
        "--until",
        "--grep",
        "-U",
        "--unified",
        "--abbrev",
    ),
    # `-o` means many things (push options, output files): a path is taken as written
    options={"-F": "read", "--file": "read", "-o": "write", "--output": "write"},
)
GIT_SUBCOMMANDS: dict[str, Spec] = {
    "filter-branch": Spec(
        operands="data",
        values=_v("--subdirectory-filter", "--prune-empty", "-d", "--original", "--state-branch"),
        options={
            f"--{kind}-filter": "code"
            for kind in ("tree", "index", "msg", "env", "commit", "parent", "tag-name")
        },
    ),
    "grep": Spec(
        operands="data",
        options={"-O": "code", "--open-files-in-pager": "code"},
        values=_v("-e", "-f", "-A", "-B", "-C", "-m", "--max-depth", "--threads"),
    ),
    "archive": Spec(
        operands="data",
        values=_v("--prefix", "--format", "--add-virtual-file"),
        options={
            "-o": "write",
            "--output": "write",
            "--add-file": "read",
            "--exec": "code",  # the program git-upload-archive is run as, on --remote
            "--remote": "path",  # a local path is a repository read
        },
    ),
    "format-patch": Spec(
        operands="data",
        values=_v(
            "-v",
            "--reroll-count",
            "--subject-prefix",
            "--in-reply-to",
            "--to",
            "--cc",
            "--from",
            "--base",
            "--range-diff",
            "--interdiff",
            "--add-header",
            "--suffix",
            "--start-number",
            "--filename-max-length",
            "--creation-factor",
        ),
        options={
            "-o": "write",
            "--output-directory": "write",
            "--output": "write",
            "--signature-file": "read",
            "--description-file": "read",
        },
    ),
    "clone": Spec(
        operands="write",
        first="path",
        last="write",
        values=_v(
            "-b",
            "--branch",
            "-o",
            "--origin",
            "--depth",
            "--filter",
            "--shallow-since",
            "--shallow-exclude",
            "-j",
            "--jobs",
            "--bundle-uri",
            "--server-option",
            "--ref-format",
            "--revision",
        ),
        options={
            "--template": "execute",  # hooks copied from there run later
            "--reference": "read",
            "--reference-if-able": "read",
            "--separate-git-dir": "write",
            "-c": "git-config",
            "--config": "git-config",
            "-u": "code",
            "--upload-pack": "code",
        },
    ),
    "init": Spec(
        operands="write",
        values=_v("-b", "--initial-branch", "--object-format", "--ref-format"),
        options={"--template": "execute", "--separate-git-dir": "write"},
    ),
    "worktree": Spec(
        operands="write",
        first="data",
        values=_v("-b", "-B", "--reason"),
    ),
    "bundle": Spec(operands="data", values=_v("--version")),
    "rebase": GIT_OTHER._replace(
        options={**GIT_OTHER.options, "-x": "code", "--exec": "code"},
        values=GIT_OTHER.values | {"--onto", "-s", "--strategy", "-X", "--strategy-option"},
    ),
    "difftool": GIT_OTHER._replace(
        options={**GIT_OTHER.options, "-x": "code", "--extcmd": "code"},
        values=GIT_OTHER.values | {"-t", "--tool"},
    ),
    "apply": Spec(
        operands="read",
        values=_v("-p", "-C", "--directory", "--exclude", "--include", "--whitespace"),
        text=_v("--exclude", "--include", "--whitespace"),
        flags={"--unsafe-paths": "file-list"},  # the patch may name files outside the tree
    ),
    "submodule": Spec(
        operands="path",  # submodule add URL PATH: a local URL is a repository read
        values=_v("-b", "--branch", "--name", "--reference"),
        text=_v("-b", "--branch", "--name"),
    ),
    "bisect": Spec(operands="data"),
    "fetch": GIT_OTHER._replace(options={**GIT_OTHER.options, "--upload-pack": "code"}),
    "pull": GIT_OTHER._replace(options={**GIT_OTHER.options, "--upload-pack": "code"}),
    "ls-remote": GIT_OTHER._replace(options={**GIT_OTHER.options, "--upload-pack": "code"}),
    "push": GIT_OTHER._replace(
        options={
            **GIT_OTHER.options,
            "--receive-pack": "code",
            "--exec": "code",
            "-o": "data",
            "--push-option": "data",
        }
    ),
    "config": Spec(operands="data", values=_v("--type", "--default", "--comment")),
}
# `git config` options that change the file written, and ones that only read.
GIT_CONFIG_READS = frozenset(
    {
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--get-color",
        "--get-colorbool",
        "-l",
        "--list",
        "--name-only",
        "--show-origin",
        "--show-scope",
        "get",
        "list",
    }
)

# Compilers and linkers, read word by word (`-fno-omit-frame-pointer` is one option, not a
# cluster); `@FILE` reads more arguments from FILE.
_COMPILER = Spec(
    kind="compiler",
    operands="read",
    values=_v(
        "-x",
        "-D",
        "-U",
        "-l",
        "-MT",
        "-MQ",
        "-Xassembler",
        "-Xpreprocessor",
        "-Xclang",
        "-arch",
        "-target",
        "--target",
        "-std",
        "-e",
    ),
    text=_v("-D", "-U", "-x", "-l", "-MT", "-MQ", "-arch", "-target", "--target", "-std", "-e"),
    options={
        "-aux-info": "write",
        "-o": "write",
        "--output": "write",
        "-MF": "write",
        "-dumpdir": "write",
        "-I": "read",
        "-L": "read",
        "-isystem": "read",
        "-iquote": "read",
        "-idirafter": "read",
        "-include": "read",
        "-imacros": "read",
        "-T": "read",
        "--sysroot": "read",
        "-isysroot": "read",
        "-specs": "read",
        "-B": "execute",  # gcc runs its programs from there
        "-fplugin": "execute",
        "-fuse-ld": "data",
        "--ld-path": "execute",
    },
)
_LINKER = Spec(
    kind="compiler",
    operands="read",
    values=_v("-l", "-e", "--entry", "-soname", "-rpath", "-m", "-z", "-u", "-h", "--hash-style"),
    options={
        "-o": "write",
        "--output": "write",
        "-Map": "write",
        "--dependency-file": "write",
        "-T": "read",
        "--script": "read",
        "-L": "read",
        "--library-path": "read",
        "--version-script": "read",
        "-plugin": "execute",
        "--plugin": "execute",
        "--dynamic-linker": "data",
    },
)
# Options of `-Wl,…` and `-Xlinker …` are the linker's.
COMPILER_LINKER = _LINKER

_SHELL = Spec(kind="shell")
SU = Spec(
    operands="data",
    values=_v("-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"),
    options={
        "-c": "code",
        "--command": "code",
        "--session-command": "code",
        "-s": "execute",
        "--shell": "execute",
    },
)
RUNUSER_AS_WRAPPER = Spec(
    kind="wrapper",
    operands="command",
    values=_v("-u", "--user", "-g", "--group", "-G", "--supp-group", "-w"),
)
# Containers: host directories bound in (-v /host:/ctr, --mount type=bind,source=…) are reached
# by whatever the container runs, which guard does not see.
CONTAINER = Spec(
    operands="data",
    options={
        "-f": "read",
        "--file": "read",
        "--env-file": "read",
        "--config": "read",  # docker --config DIR: its config.json, credential helpers
        "--tlscacert": "read",
        "--tlscert": "read",
        "--tlskey": "read",
        "-v": "container-volume",
        "--volume": "container-volume",
        "--mount": "container-mount",
    },
)
# Options that give a container the host's powers: what it runs there is not checked.
CONTAINER_HOST_POWERS = re.compile(
    r"^--(privileged|cap-add|device|security-opt)\b|^--(pid|userns)=host$"
)
CONTAINER_COMMANDS = frozenset({"docker", "podman", "nerdctl"})


# pip: package names are data; a path operand is a project whose build code runs
PIP = Spec(
    operands="path",
    subcommands=True,
    options={
        "-r": "read",
        "--requirement": "read",
        "-t": "write",
        "--target": "write",
        "-c": "read",
        "--constraint": "read",
        "-e": "read",
        "--editable": "read",
        "-d": "write",
        "--dest": "write",
        "--prefix": "write",
        "--root": "write",
        "--src": "write",
        "--report": "write",
        "--log": "write",
        "-f": "read",
        "--find-links": "read",
    },
    values=_v("-i", "--index-url", "--extra-index-url", "--python-version", "--platform"),
)


class Runner(NamedTuple):
    """A tool whose subcommand runs any command: `uv run CMD …`, `bundle exec CMD …`."""

    subcommands: frozenset[str]
    values: frozenset[str] = frozenset()  # the subcommand's options that take a value
    flags: frozenset[str] = frozenset()  # … and those that do not
    skip: int = 0  # operands before the command (direnv exec DIR)


_PY_RUN_VALUES = _v(
    "--with",
    "-w",
    "--with-requirements",
    "--with-editable",
    "--python",
    "-p",
    "--package",
    "--extra",
    "--group",
    "--only-group",
    "--env-file",
    "--directory",
    "--project",
    "--index",
    "--default-index",
    "--index-url",
    "--extra-index-url",
    "--find-links",
    "-f",
    "--script",
    "--cache-dir",
    "--config-file",
    "--color",
    "-e",
    "--environment",
    "--env",
    "--name",
    "-n",
    "--prefix",
)
_PY_RUN_FLAGS = _v(
    "--no-sync",
    "--frozen",
    "--locked",
    "--isolated",
    "--no-project",
    "--all-extras",
    "--all-packages",
    "--no-dev",
    "--dev",
    "--active",
    "--offline",
    "-q",
    "--quiet",
    "-v",
    "--verbose",
    "--no-cache",
    "--no-capture-output",
    "--live-stream",
    "--no-env-file",
    "--exact",
    "--inexact",
    "--all-groups",
    "--no-default-groups",
    "--no-editable",
)
RUNNERS: dict[str, Runner] = {
    **dict.fromkeys(
        ("uv", "poetry", "pipenv", "pdm", "hatch", "rye", "conda", "mamba", "micromamba", "pixi"),
        Runner(_v("run"), _PY_RUN_VALUES, _PY_RUN_FLAGS),
    ),
    "uvx": Runner(_v(), _PY_RUN_VALUES, _PY_RUN_FLAGS),  # uvx TOOL …: the first operand runs
    "npx": Runner(_v(), _v("--package", "-p"), _v("--yes", "-y", "--no", "-q", "--quiet")),
    "bundle": Runner(_v("exec"), _v("--gemfile"), _v("--keep-file-descriptors")),
    **dict.fromkeys(
        ("npm", "pnpm", "yarn"),
        Runner(
            _v("exec", "x", "dlx"),
            _v("--package", "-p", "--workspace", "-w", "-C", "--dir"),
            _v("--yes", "-y", "--no", "--recursive", "-r", "--parallel", "--silent"),
        ),
    ),
    **dict.fromkeys(
        ("pyenv", "rbenv", "nodenv", "asdf", "stack", "opam", "mise", "rtx"),
        Runner(_v("exec", "x"), _v("--switch", "--tool", "-t", "-C", "--cd"), _v("--yes", "-y")),
    ),
    "direnv": Runner(_v("exec"), skip=1),
}
# Commands that schedule other commands to run later, where guard does not see them.
SCHEDULERS = frozenset({"at", "batch", "crontab"})
SCHEDULER_READ_ONLY = frozenset({"-l", "-c", "-V", "--list"})  # crontab -l, at -l, at -c N

# bwrap's options and the roles of the words each takes (some take two or three).
BWRAP_OPTIONS: dict[str, tuple[Role, ...]] = {
    **dict.fromkeys(("--bind", "--bind-try", "--dev-bind", "--dev-bind-try"), ("write", "data")),
    **dict.fromkeys(("--ro-bind", "--ro-bind-try"), ("read", "data")),
    **dict.fromkeys(
        ("--symlink", "--setenv", "--file", "--bind-data", "--ro-bind-data", "--chmod"),
        ("data", "data"),
    ),
    "--overlay": ("write", "write", "data"),
    "--ro-overlay": ("data",),
    "--overlay-src": ("read",),
    "--lock-file": ("data",),
    "--seccomp": ("data",),
    **dict.fromkeys(
        (
            "--args",
            "--argv0",
            "--userns",
            "--userns2",
            "--pidns",
            "--uid",
            "--gid",
            "--hostname",
            "--chdir",
            "--unsetenv",
            "--info-fd",
            "--json-status-fd",
            "--sync-fd",
            "--block-fd",
            "--userns-block-fd",
            "--exec-label",
            "--file-label",
            "--remount-ro",
            "--tmpfs",
            "--proc",
            "--dev",
            "--dir",
            "--mqueue",
            "--tmp-overlay",
            "--perms",
            "--size",
            "--cap-add",
            "--cap-drop",
        ),
        ("data",),
    ),
}

SPECS: dict[str, Spec] = {
    # print or compute; operands are not paths
    **{
        n: PRINT
        for n in (
            "echo",
            "printf",
            ":",
            "true",
            "false",
            "yes",
            "sleep",
            "seq",
            "expr",
            "basename",
            "dirname",
            "read",
            "set",
            "shift",
            "exit",
            "return",
            "unset",
            "wait",
            "kill",
            "jobs",
            "fg",
            "bg",
            "ulimit",
            "umask",
            "getopts",
            "let",
            "alias",
            "unalias",
            "shopt",
            "type",
            "which",
            "whoami",
            "id",
            "hostname",
            "uname",
            "tput",
            "export",
            "declare",
            "typeset",
            "local",
            "readonly",
            "disown",
            "break",
            "continue",
            "pwd",
            "clear",
            "reset",
            "env-check",
            "bind",
            "help",
            "logout",
            "dirs",
            "suspend",
            "times",
            "caller",
            "mapfile",
            "readarray",
            "ssh-add",
            "notify-send",
            "whereis",
            "info",
            "apropos",
        )
    },
    "date": Spec(operands="data", options={"-r": "read", "--reference": "read", "-f": "read"}),
    "ssh": Spec(
        operands="data",
        values=_v(
            "-p",
            "-l",
            "-o",
            "-L",
            "-R",
            "-D",
            "-J",
            "-W",
            "-b",
            "-c",
            "-e",
            "-m",
            "-O",
            "-Q",
            "-w",
            "-B",
        ),
        options={"-i": "read", "-F": "read", "-o": "ssh-option", "-E": "write", "-S": "read"},
    ),
    "parallel": Spec(kind="parallel", operands="data"),
    # read what they are given
    **{
        n: READ
        for n in (
            "cat",
            "tac",
            "less",
            "more",
            "nl",
            "od",
            "xxd",
            "hexdump",
            "strings",
            "file",
            "stat",
            "md5sum",
            "sha1sum",
            "sha256sum",
            "sha512sum",
            "b2sum",
            "cksum",
            "diff",
            "cmp",
            "comm",
            "paste",
            "join",
            "fold",
            "fmt",
            "column",
            "rev",
            "base64",
            "readlink",
            "realpath",
            "source-highlight",
            "bat",
            "lsattr",
            "getfacl",
            "zcat",
            "bzcat",
            "xzcat",
            "zless",
            "vimdiff",
            "df",
            "exa",
            "eza",
            "lsof",
            "gzip",
            "gunzip",
            "bzip2",
            "xz",
            "unxz",
            "zstd",
            "python-config",
        )
    },
    "ls": Spec(
        operands="read",
        bare_reads_cwd=True,
        values=_v("-I", "--ignore", "-w", "-T", "--hide", "--format"),
    ),
    "tree": Spec(operands="read", bare_reads_cwd=True, values=_v("-L", "-P", "-I", "-o")),
    "du": Spec(
        operands="read",
        bare_reads_cwd=True,
        values=_v("-d", "--max-depth", "-B", "--exclude", "-t", "--threshold", "--block-size"),
        options={"--files0-from": "file-list", "-X": "read", "--exclude-from": "read"},
    ),
    "wc": Spec(operands="read", options={"--files0-from": "file-list"}),
    "head": Spec(operands="read", values=_v("-n", "-c", "--lines", "--bytes")),
    "tail": Spec(
        operands="read",
        values=_v(
            "-n",
            "-c",
            "--lines",
            "--bytes",
            "-s",
            "--pid",
            "--sleep-interval",
            "--max-unchanged-stats",
        ),
    ),
    "cut": Spec(
        operands="read",
        values=_v("-f", "-d", "-c", "-b", "--fields", "--delimiter", "--output-delimiter"),
    ),
    "sort": Spec(
        operands="read",
        values=_v("-k", "-t", "-S", "-T", "--key", "--field-separator", "--parallel"),
        options={
            "-o": "write",
            "--output": "write",
            "--files0-from": "file-list",
            "--compress-program": "code",
        },
    ),
    "uniq": Spec(operands="read", last="write", values=_v("-f", "-s", "-w")),
    "tr": Spec(operands="data"),
    "man": Spec(
        operands="path",
        values=_v("-M", "-S", "-s", "-L", "-m", "-C", "-R", "-E"),
        options={
            "-P": "code",
            "--pager": "code",
            "-H": "code",
            "--html": "code",
            "-l": "read",
            "--local-file": "read",
        },
    ),
    # SQL is code: statements and client commands that reach files and programs
    # (guard/knowledge/sql.py)
    "sqlite3": Spec(
        kind="sql",
        operands="sql",
        first="read",  # the database
        values=_v("-separator", "-nullvalue", "-newline"),
        options={"-cmd": "sql", "-init": "sql-file"},
    ),
    "psql": Spec(
        kind="sql",
        operands="data",  # database and user names
        values=_v("-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v"),
        text=_v("-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v"),
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
            values=_v("-D", "--database", "-h", "--host", "-P", "--port", "-u", "--user"),
            text=_v("-D", "--database", "-h", "--host", "-P", "--port", "-u", "--user"),
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
    "split": Spec(
        operands="read",
        last="write",
        values=_v("-l", "-b", "-n", "-a", "-C"),
        options={"--filter": "code"},
    ),
    "xargs": Spec(
        kind="xargs",
        operands="command",
        values=_v(
            "-n",
            "-L",
            "-P",
            "-I",
            "-d",
            "-E",
            "-s",
            "--max-args",
            "--max-procs",
            "--delimiter",
        ),  # -i, -e, -l, --replace, --eof, --max-lines take a value only when attached
        options={"-a": "read", "--arg-file": "read"},
    ),
    "grep": _GREP,
    "egrep": _GREP,
    "fgrep": _GREP,
    "rg": _RG,
    "ag": _AG,
    "ack": _ACK,
    "zgrep": _GREP,
    "sed": _SED,
    "gsed": _SED,
    "awk": _AWK,
    "gawk": _AWK,
    "mawk": _AWK,
    "nawk": _AWK,
    "jq": Spec(
        operands="read",
        first="data",
        values=_v("--indent"),
        options={"-f": "read", "--from-file": "read", "-L": "read", "--library-path": "read"},
        pairs={"--arg": "data", "--argjson": "data", "--slurpfile": "read", "--rawfile": "read"},
    ),
    # write what they are given
    **{
        n: WRITE
        for n in (
            "tee",
            "touch",
            "mkdir",
            "rm",
            "rmdir",
            "unlink",
            "shred",
            "mkfifo",
            "mknod",
            "sync",
            "srm",
        )
    },
    "tee": Spec(operands="write"),
    "touch": Spec(
        operands="write",
        values=_v("-d", "--date", "-t"),
        options={"-r": "read", "--reference": "read"},
    ),
    "mkdir": Spec(operands="write", values=_v("-m", "--mode", "-Z", "--context")),
    "chmod": Spec(operands="write", first="data", options={"--reference": "read"}),
    "chown": Spec(operands="write", first="data", options={"--reference": "read"}),
    "chgrp": Spec(operands="write", first="data", options={"--reference": "read"}),
    "truncate": Spec(
        operands="write", values=_v("-s", "--size"), options={"-r": "read", "--reference": "read"}
    ),
    "cp": _COPY,
    "mv": _COPY,
    "install": _COPY,
    "rsync": _COPY._replace(
        options={
            **_COPY.options,
            "-e": "code",
            "--rsh": "code",
            "--rsync-path": "code",
            "--files-from": "file-list",
            "--exclude-from": "read",
            "--include-from": "read",
        }
    ),
    "scp": _COPY._replace(options={**_COPY.options, "-S": "code", "-o": "ssh-option"}),
    "ln": Spec(
        operands="read",
        last="write",
        options={"-t": "write", "--target-directory": "write"},
        values=_v("-S", "--suffix"),
    ),
    "patch": Spec(
        operands="write",
        values=_v("-p", "-F", "-V", "-z", "-B"),
        options={
            "-i": "read",
            "--input": "read",
            "-o": "write",
            "-d": "chdir",
            "--directory": "chdir",
        },
    ),
    "tar": Spec(
        kind="tar",
        operands="read",
        values=_v(
            "--exclude",
            "-b",
            "--owner",
            "--group",
            "--mode",
            "--transform",
            "--strip-components",
            "--xform",
        ),
        options={
            "-T": "file-list",
            "--files-from": "file-list",
            "-X": "read",
            "--exclude-from": "read",
            "-f": "write",
            "--file": "write",
            "-C": "write",
            "--directory": "write",
            # options whose value is a program tar runs
            "-I": "code",
            "--use-compress-program": "code",
            "--to-command": "code",
            "--rsh-command": "code",
            "--info-script": "code",
            "--new-volume-script": "code",
            "-F": "code",
            "--checkpoint-action": "code",
        },
    ),
    "unzip": Spec(operands="read", values=_v("-x", "-P"), options={"-d": "write"}),
    "zip": Spec(
        operands="read",
        first="write",
        values=_v("-x", "-i", "-P", "-b"),
        options={"-TT": "code", "--unzip-command": "code"},
    ),
    "dd": Spec(operands="data"),
    "curl": Spec(
        operands="url",
        values=_v(
            "-X",
            "--request",
            "-u",
            "--user",
            "-A",
            "--user-agent",
            "-e",
            "--referer",
            "-m",
            "--max-time",
            "--connect-timeout",
            "-x",
            "--proxy",
            "-r",
            "--range",
            "--retry",
            "--form-string",
            "--data-raw",
            "-C",
        ),
        options={
            "-H": "curl-data",
            "--header": "curl-data",
            "-w": "curl-data",
            "--write-out": "curl-data",
            "--proxy-header": "curl-data",
            "--url-query": "curl-data",
            "--url": "url",
            "-d": "curl-data",
            "--data": "curl-data",
            "--data-ascii": "curl-data",
            "--data-binary": "curl-data",
            "--json": "curl-data",
            "--data-urlencode": "curl-form",
            "--variable": "curl-form",
            "-F": "curl-form",
            "--form": "curl-form",
            "-b": "curl-cookie",
            "--cookie": "curl-cookie",
            "--capath": "read",
            "--netrc-file": "read",
            "--crlfile": "read",
            "--pubkey": "read",
            "--proxy-cacert": "read",
            "--proxy-cert": "read",
            "--proxy-key": "read",
            "--etag-compare": "read",
            "--unix-socket": "read",
            "--trace": "write",
            "--trace-ascii": "write",
            "--stderr": "write",
            "--libcurl": "write",
            "--etag-save": "write",
            "--hsts": "write",
            "--alt-svc": "write",
            "-o": "write",
            "--output": "write",
            "-T": "read",
            "--upload-file": "read",
            "-K": "file-list",  # a config file: more options, not known here
            "--config": "file-list",
            "-c": "write",
            "--cookie-jar": "write",
            "--cacert": "read",
            "--cert": "read",
            "--key": "read",
            "--output-dir": "write",
            "-D": "write",
            "--dump-header": "write",
        },
    ),
    "wget": Spec(
        operands="data",
        values=_v(
            "-U",
            "--user-agent",
            "--header",
            "-t",
            "--tries",
            "-T",
            "--timeout",
            "--user",
            "--password",
        ),
        options={
            "-e": "wgetrc",
            "--execute": "wgetrc",
            "--post-file": "read",
            "--body-file": "read",
            "--load-cookies": "read",
            "--ca-certificate": "read",
            "--certificate": "read",
            "--private-key": "read",
            "--config": "file-list",
            "--use-askpass": "code",
            "-O": "write",
            "--output-document": "write",
            "-P": "write",
            "--directory-prefix": "write",
            "-o": "write",
            "--append-output": "write",
            "--rejected-log": "write",
            "--save-cookies": "write",
            "--warc-file": "write",
            "--hsts-file": "write",
            "--output-file": "write",
            "-a": "write",
            "-i": "read",
            "--input-file": "read",
        },
    ),
    # version control and build tools
    "git": GIT,
    "make": Spec(
        operands="make-operand",
        values=_v("-j", "--jobs", "-l", "-o", "-W", "--old-file", "--what-if", "--assume-old"),
        options={
            "-E": "make-code",
            "--eval": "make-code",
            "-C": "chdir",
            "--directory": "chdir",
            "-f": "read",
            "--file": "read",
            "--makefile": "read",
            "-I": "read",
            "--include-dir": "read",
        },
    ),
    "cmake": Spec(
        operands="path",
        values=_v("-G", "-D", "-T", "-A", "--target", "-j", "--parallel", "--config"),
        options={"-S": "read", "-B": "write", "--build": "write", "-C": "read"},
    ),
    "npm": Spec(
        kind="runner",
        operands="path",  # npm install PATH; scripts and packages are plain names
        subcommands=True,
        options={
            "--prefix": "write",
            "-C": "chdir",
            "-c": "code",
            "--call": "code",
            "--userconfig": "read",
            "--globalconfig": "read",
            "--cache": "write",
        },
    ),
    "npx": Spec(kind="runner", operands="data", options={"-c": "code", "--call": "code"}),
    # csplit FILE PATTERN…: patterns (/regex/, %regex%, {n}) are not paths; -f names the output
    "csplit": Spec(
        operands="data",
        first="read",
        values=_v("-b", "--suffix-format", "-n", "--digits"),
        options={"-f": "write", "--prefix": "write"},
    ),
    # editors open their files to change them; vim's -c/--cmd/+CMD are Ex commands (see docs)
    **dict.fromkeys(
        ("vi", "vim", "nvim", "view", "ex", "gvim"),
        Spec(
            operands="write",
            values=_v("-c", "--cmd", "-t", "-q", "-T", "--servername"),
            text=_v("-c", "--cmd", "-t", "-T", "--servername"),
            # -w/-W FILE: every key typed is written to FILE
            options={
                "-S": "read",
                "-u": "read",
                "-U": "read",
                "-i": "write",
                "-w": "write",
                "-W": "write",
            },
        ),
    ),
    **dict.fromkeys(("nano", "pico", "ed", "red", "micro", "hx", "helix", "kak", "joe"), WRITE),
    "emacs": Spec(
        operands="write",
        values=_v("--eval", "-f", "--funcall"),
        options={"-l": "read", "--load": "read"},
    ),
    # npm and npx have options of their own, above
    **{n: Spec(kind="runner", operands="data") for n in RUNNERS if n not in ("npm", "npx")},
    **dict.fromkeys(SCHEDULERS, Spec(kind="scheduler", operands="data")),
    **dict.fromkeys(("pip", "pip3"), PIP),
    "cargo": Spec(
        operands="path",  # cargo new PATH, cargo init PATH; subcommands are plain names
        options={
            "--manifest-path": "read",
            "--target-dir": "write",
            "--path": "read",
            "--config": "tool-setting",  # cargo --config 'build.rustc-wrapper="x"'
        },
    ),
    # hg --config hooks.pre-commit=CMD, svn --config-option …: settings can run programs
    "hg": Spec(operands="path", options={"--config": "tool-setting", "-R": "chdir"}),
    "svn": Spec(operands="path", options={"--config-option": "tool-setting"}),
    "go": Spec(
        kind="compiler",
        operands="path",
        subcommands=True,
        values=_v(
            "-p",
            "-tags",
            "-ldflags",
            "-gcflags",
            "-asmflags",
            "-mod",
            "-run",
            "-bench",
            "-count",
            "-timeout",
            "-covermode",
            "-coverpkg",
            "-cpu",
            "-parallel",
            "-skip",
            "-benchtime",
            "-buildmode",
            "-compiler",
            "-gccgoflags",
            "-installsuffix",
            "-pgo",
        ),
        options={
            "-C": "chdir",
            "-o": "write",
            "-modfile": "read",
            "-overlay": "read",
            "-toolexec": "code",
            "-exec": "code",
            "-coverprofile": "write",
            "-cpuprofile": "write",
            "-memprofile": "write",
            "-blockprofile": "write",
            "-mutexprofile": "write",
            "-trace": "write",
            "-outputdir": "write",
            "-pkgdir": "write",
        },
    ),
    **dict.fromkeys(("gcc", "cc", "c++", "g++", "clang", "clang++", "c99", "c89"), _COMPILER),
    "ld": _LINKER,
    "ld.bfd": _LINKER,
    "ld.gold": _LINKER,
    "ld.lld": _LINKER,
    "lld": _LINKER,
    "mold": _LINKER,
    "rustc": Spec(
        kind="compiler",
        operands="read",
        values=_v(
            "--edition",
            "--crate-type",
            "--crate-name",
            "--emit",
            "--cfg",
            "--target",
            "--cap-lints",
            "-l",
            "-A",
            "-W",
            "-D",
            "-F",
            "--extern",
            "--print",
            "--explain",
            "-C",
            "--codegen",
            "-Z",
        ),
        options={"-o": "write", "--out-dir": "write", "-L": "read", "--sysroot": "read"},
    ),
    "javac": Spec(
        kind="compiler",
        operands="read",
        values=_v(
            "-cp",
            "-classpath",
            "--class-path",
            "-sourcepath",
            "--source-path",
            "-p",
            "--module-path",
            "-encoding",
            "-source",
            "--source",
            "-target",
            "--target",
            "--release",
            "-bootclasspath",
            "--module",
            "-m",
            "--add-modules",
            "--limit-modules",
            "--module-source-path",
            "--upgrade-module-path",
            "--system",
            "-A",
        ),
        options={
            "-d": "write",
            "-s": "write",
            "-h": "write",
            "-processorpath": "execute",
            "--processor-path": "execute",
            "--processor-module-path": "execute",
        },
    ),
    "tsc": Spec(
        kind="compiler",
        operands="read",
        values=_v(
            "-t",
            "--target",
            "-m",
            "--module",
            "--lib",
            "--jsx",
            "--moduleresolution",
            "--baseurl",
            "--types",
            "--locale",
        ),
        options={
            "--outdir": "write",
            "--outfile": "write",
            "--out": "write",
            "--declarationdir": "write",
            "--tsbuildinfofile": "write",
            "-p": "read",
            "--project": "read",
            "--rootdir": "read",
        },
    ),
    **dict.fromkeys(("docker", "podman", "nerdctl"), CONTAINER),
    "kubectl": Spec(
        operands="data",  # names of resources; `exec … -- CMD` runs in the cluster
        options={
            "-f": "read",
            "--filename": "read",
            "--kubeconfig": "read",
            "-k": "read",
            "--kustomize": "read",
        },
    ),
    "systemctl": Spec(operands="path"),
    "journalctl": Spec(operands="path"),
    "apt": Spec(operands="path", options={"-o": "path", "--option": "path", "-c": "read"}),
    "apt-get": Spec(operands="path", options={"-o": "path", "--option": "path", "-c": "read"}),
    "brew": Spec(operands="path"),
    "pytest": Spec(operands="path", values=_v("-k", "-m", "-p", "-n", "--tb", "-o", "-W")),
    "mkfs": Spec(operands="write"),
    # interpreters: a script, then its arguments
    **{
        n: _INTERPRETER
        for n in (
            "python",
            "python2",
            "python3",
            "node",
            "nodejs",
            "ruby",
            "perl",
            "php",
            "deno",
            "bun",
            "lua",
            "Rscript",
            "pypy",
            "pypy3",
            "tsx",
            "ts-node",
        )
    },
    # wrappers: run their operand as a command
    "sudo": Spec(
        kind="wrapper",
        assignments=True,
        operands="command",
        values=_v(
            "-u",
            "--user",
            "-g",
            "--group",
            "-h",
            "--host",
            "-p",
            "--prompt",
            "-C",
            "--close-from",
            "-r",
            "--role",
            "-t",
            "--type",
            "-U",
            "--other-user",
            "-T",
            "--command-timeout",
        ),
        options={"-D": "chdir", "--chdir": "chdir"},
    ),
    "doas": Spec(kind="wrapper", operands="command", values=_v("-u", "-C")),
    "env": Spec(
        kind="wrapper",
        operands="command",
        assignments=True,
        values=_v("-u", "--unset", "-a", "--argv0"),
        options={
            "-C": "chdir",
            "--chdir": "chdir",
            "-S": "code",
            "--split-string": "code",
            "-P": "execute",  # BSD env: where the command is looked up
        },
    ),
    "nice": Spec(kind="wrapper", operands="command", values=_v("-n", "--adjustment")),
    "nohup": _WRAPPER,
    "setsid": _WRAPPER,
    "time": Spec(kind="wrapper", operands="command", assignments=True),  # time VAR=v cmd
    "builtin": Spec(kind="builtin", operands="command"),
    "unbuffer": _WRAPPER,
    "caffeinate": _WRAPPER,
    "chronic": _WRAPPER,
    "catchsegv": _WRAPPER,
    "timeout": Spec(
        kind="wrapper",
        operands="command",
        skip=1,
        values=_v("-s", "--signal", "-k", "--kill-after"),
    ),
    "stdbuf": Spec(
        kind="wrapper",
        operands="command",
        values=_v("-i", "-o", "-e", "--input", "--output", "--error"),
    ),
    "ionice": Spec(
        kind="wrapper", operands="command", values=_v("-c", "-n", "-p", "--class", "--classdata")
    ),
    "chrt": Spec(kind="wrapper", operands="command", skip=1),
    "taskset": Spec(kind="wrapper", operands="command", skip=1),
    "busybox": _WRAPPER,  # `busybox APPLET args`: the applet runs as that command
    "fakeroot": Spec(
        kind="wrapper",
        operands="command",
        values=_v("-b"),
        options={
            "-l": "execute",
            "--lib": "execute",
            "--faked": "execute",
            "-s": "write",
            "-i": "read",
        },
    ),
    "setpriv": Spec(
        kind="wrapper",
        operands="command",
        values=_v(
            "--reuid",
            "--regid",
            "--ruid",
            "--euid",
            "--rgid",
            "--egid",
            "--groups",
            "--inh-caps",
            "--ambient-caps",
            "--bounding-set",
            "--securebits",
            "--pdeathsig",
            "--selinux-label",
            "--apparmor-profile",
            "--landlock-access",
            "--landlock-rule",
        ),
        options={"--seccomp-filter": "read"},
    ),
    "prlimit": Spec(kind="wrapper", operands="command", values=_v("-p", "--pid", "-o", "--output")),
    "dbus-run-session": Spec(
        kind="wrapper",
        operands="command",
        options={"--config-file": "read", "--dbus-daemon": "execute"},
    ),
    "xvfb-run": Spec(
        kind="wrapper",
        operands="command",
        values=_v("-n", "--server-num", "-p", "--xauth-protocol", "-s", "--server-args", "-w"),
        options={"-e": "write", "--error-file": "write", "-f": "write", "--auth-file": "write"},
    ),
    "sg": Spec(operands="code", first="data", options={"-c": "code"}),
    "chpst": Spec(
        kind="wrapper",
        operands="command",
        values=_v("-u", "-U", "-b", "-n", "-m", "-d", "-o", "-p", "-f", "-c", "-t"),
        options={"-e": "read", "-/": "chdir", "-l": "write", "-L": "write"},
    ),
    "cgexec": Spec(kind="wrapper", operands="command", values=_v("-g")),
    "numactl": Spec(
        kind="wrapper",
        operands="command",
        values=_v("-i", "-N", "-m", "-C", "-p", "-P", "-w", "-c"),
    ),
    "bwrap": Spec(kind="bwrap", operands="command"),
    "flock": Spec(
        kind="wrapper",
        operands="command",
        skip=1,
        skipped="write",  # the lock file, made when it is missing
        values=_v("-w", "--timeout", "-E", "--conflict-exit-code"),
        options={"-c": "code", "--command": "code"},
    ),
    "watch": Spec(kind="watch", operands="code"),
    "strace": Spec(
        kind="wrapper",
        operands="command",
        values=_v(
            "-e",
            "-p",
            "-s",
            "-u",
            "-a",
            "-b",
            "-E",
            "-I",
            "-O",
            "-P",
            "-S",
            "-U",
            "-X",
            "--columns",
            "--detach-on",
            "--env",
            "--interruptible",
            "--summary-sort-by",
            "--summary-columns",
            "--trace-path",
            "--const-print-style",
            "--user",
        ),
        options={"-o": "write"},
    ),
    "ltrace": Spec(
        kind="wrapper",
        operands="command",
        values=_v("-e", "-p", "-s", "-u"),
        options={"-o": "write"},
    ),
    "valgrind": Spec(kind="wrapper", operands="command"),
    "chroot": Spec(kind="wrapper", operands="command", skip=1),
    "runuser": Spec(kind="runuser", operands="data"),  # `-u USER cmd…` or su's forms
    "su": SU,
    "command": Spec(kind="command", operands="command"),
    "exec": Spec(kind="exec", operands="command", values=_v("-a")),
    "find": Spec(kind="find"),
    # shells and code
    **{
        n: _SHELL
        for n in ("bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "busybox-sh", "rbash")
    },
    "eval": Spec(kind="eval", operands="code"),
    "alias": Spec(kind="alias", operands="data"),
    # builtins that make later commands run something else
    "hash": Spec(operands="data", options={"-p": "execute"}),  # hash -p FILE NAME
    "enable": Spec(operands="data", options={"-f": "execute"}),  # loads a builtin from a .so
    "complete": Spec(
        operands="data",
        values=_v("-A", "-G", "-W", "-X", "-P", "-S", "-o", "-F"),
        options={"-C": "code"},
    ),
    "compgen": Spec(  # -f, -d, -G list files: the word is where
        operands="data",
        values=_v("-A", "-W", "-X", "-P", "-S", "-o", "-F"),
        text=_v("-A", "-W", "-X", "-P", "-S", "-o", "-F"),
        options={"-C": "code", "-G": "read"},
        flags={"-f": "path", "-d": "path"},
    ),
    # history -w/-a FILE write it, -r/-n FILE read it
    "history": Spec(operands="write", flags={"-r": "read", "-n": "read"}),
    "fc": Spec(kind="fc", operands="data"),
    "coproc": Spec(kind="coproc", operands="command"),
    "script": Spec(
        operands="write",
        values=_v("-E", "--echo", "-m"),
        options={
            "-c": "code",
            "--command": "code",
            "-O": "write",  # script -O LOG, -I LOG, -B LOG, -T TIMING: logs it writes
            "--log-out": "write",
            "-I": "write",
            "--log-in": "write",
            "-B": "write",
            "--log-io": "write",
            "-T": "write",
            "--log-timing": "write",
            "-t": "write",
        },
    ),
    "unshare": Spec(
        kind="wrapper",
        operands="command",
        values=_v(
            "-S",
            "--setuid",
            "-G",
            "--setgid",
            "--propagation",
            "--map-user",
            "--map-group",
            "--map-users",
            "--map-groups",
            "--monotonic",
            "--boottime",
        ),
        options={"-R": "chdir", "--root": "chdir", "-w": "chdir", "--wd": "chdir"},
    ),
    "nsenter": Spec(
        kind="wrapper",
        operands="command",
        values=_v("-t", "--target", "-S", "--setuid", "-G", "--setgid", "-W", "--wdns"),
    ),
    "systemd-run": Spec(
        kind="wrapper",
        operands="command",
        values=_v(
            "-u",
            "--unit",
            "-p",
            "--property",
            "--description",
            "--slice",
            "-E",
            "--setenv",
            "--uid",
            "--gid",
            "--nice",
            "-M",
            "--machine",
            "-H",
            "--host",
            "--on-active",
            "--on-boot",
            "--on-startup",
            "--on-unit-active",
            "--on-unit-inactive",
            "--on-calendar",
            "--on-timezone-change",
            "--timer-property",
            "--path-property",
            "--socket-property",
            "--service-type",
        ),
        options={"--working-directory": "chdir"},
    ),
    "firejail": _WRAPPER,
    # more wrappers that run the command they are given (issue 21)
    "pkexec": Spec(kind="wrapper", operands="command", values=_v("--user", "-u")),
    "run0": Spec(
        kind="wrapper",
        operands="command",
        values=_v(
            *("-u", "--user", "-g", "--group", "--machine", "--setenv", "--unit", "-p"),
            *("--property", "--description", "--slice", "--nice", "--background"),
        ),
        options={"-D": "chdir", "--chdir": "chdir"},
    ),
    "entr": _WRAPPER,
    "faketime": Spec(kind="wrapper", operands="command", skip=1, skipped="data"),
    "proxychains": Spec(kind="wrapper", operands="command", options={"-f": "read"}),
    "proxychains4": Spec(kind="wrapper", operands="command", options={"-f": "read"}),
    "torsocks": Spec(
        kind="wrapper", operands="command", values=_v("-u", "-p", "-a", "-P", "--user", "--pass")
    ),
    "dbus-launch": Spec(
        kind="wrapper", operands="command", options={"--config-file": "read"}
    ),
    "tmux": Spec(  # -f: a config file, whose commands (run-shell …) tmux runs
        kind="tmux", operands="data", options={"-f": "execute", "-S": "write"}, values=_v("-L")
    ),
    "bind": Spec(kind="bind", operands="data"),
    "read": Spec(
        kind="assigns", operands="data", values=_v("-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u")
    ),
    "mapfile": Spec(
        kind="assigns",
        operands="data",
        values=_v("-d", "-n", "-O", "-s", "-u", "-c"),
        options={"-C": "code"},
    ),
    "readarray": Spec(
        kind="assigns",
        operands="data",
        values=_v("-d", "-n", "-O", "-s", "-u", "-c"),
        options={"-C": "code"},
    ),
    "getopts": Spec(kind="assigns", operands="data"),
    "printf": Spec(kind="printf", operands="data"),
    "set": Spec(kind="positional", operands="data"),
    "shift": Spec(kind="positional", operands="data"),
    "source": Spec(kind="source"),
    ".": Spec(kind="source"),
    "trap": Spec(kind="trap"),
    "cd": Spec(kind="cd"),
    "pushd": Spec(kind="pushd"),
    "popd": Spec(kind="popd"),
    "test": Spec(kind="test"),
    "[": Spec(kind="test"),
}

# Executables in these directories are the system's own: running them by path is not an access.
SYSTEM_BIN_DIRS = (
    "/bin",
    "/sbin",
    "/usr/bin",
    "/usr/sbin",
    "/usr/local/bin",
    "/usr/local/sbin",
    "/usr/libexec",
    "/usr/lib/git-core",
    "/opt/homebrew/bin",
    "/usr/lib/openssh",
    "/usr/libexec/openssh",
    "/usr/lib/ssh",
)

# `git -c KEY=VALUE`: keys whose values are commands git runs (an alias starting with `!` too).
GIT_CODE_KEYS = re.compile(
    r"^(core\.(sshcommand|pager|editor|fsmonitor|hookspath|askpass)|sequence\.editor|"
    r"diff\..*\.(command|textconv)|diff\.external|merge\..*\.driver|filter\..*\.(clean|smudge|"
    r"process)|credential\.helper|gpg\.program|gpg\..*\.program|pager\..*|alias\..*|"
    r"uploadpack\.packobjectshook|remote\..*\.(uploadpack|receivepack|proxy)|"
    r"protocol\..*|url\..*|include\.path|includeif\..*|(diff|merge)tool\..*\.cmd|"
    r"credential\..*\.helper|imap\.tunnel|interactive\.difffilter|submodule\..*\.update|"
    r"core\.alternaterefscommand|sendemail\..*|web\.browser|browser\..*\.(cmd|path))$",
    re.IGNORECASE,
)

# git settings known to name no file and run nothing; every other key (`commit.template`,
# `core.worktree`, `remote.x.url`, `tar.x.command`, `man.x.cmd` …) can, so it asks.
GIT_HARMLESS_KEYS = re.compile(
    r"^(user\.(name|email|useconfigonly)|author\.(name|email)|committer\.(name|email)|"
    r"color\..*|column\..*|advice\..*|init\.defaultbranch|"
    r"core\.(autocrlf|eol|filemode|ignorecase|quotepath|safecrlf|whitespace|abbrev|symlinks|"
    r"precomposeunicode|longpaths|compression|bigfilethreshold|checkstat|trustctime|"
    r"untrackedcache|preloadindex|commentchar|commentstring|logallrefupdates)|"
    r"pull\.(rebase|ff|twohead|octopus)|push\.(default|autosetupremote|followtags|"
    r"usebitmaps|recursesubmodules)|fetch\.(prune|prunetags|parallel|writecommitgraph|"
    r"recursesubmodules)|rebase\.(autosquash|autostash|updaterefs|stat|abbreviatecommands)|"
    r"merge\.(ff|conflictstyle|log|stat|autostash|renames|renamelimit)|"
    r"diff\.(algorithm|renames|renamelimit|colormoved|colormovedws|mnemonicprefix|noprefix|"
    r"context|interhunkcontext|indentheuristic|submodule|statgraphwidth|relative)|"
    r"log\.(date|decorate|abbrevcommit|follow|showroot|showsignature|mailmap)|"
    r"format\.(pretty|numbered|signoff|coverletter|thread)|branch\.(autosetupmerge|"
    r"autosetuprebase|sort)|branch\.[^.]+\.(remote|merge|rebase|description)|tag\.sort|"
    r"status\.(short|branch|showuntrackedfiles|submodulesummary|showstash|relativepaths)|"
    r"commit\.(verbose|status|cleanup)|help\.(autocorrect|format)|"
    r"rerere\.(enabled|autoupdate)|gc\.(auto|autodetach|autopacklimit|pruneexpire|reflogexpire)|"
    r"http\.(postbuffer|lowspeedlimit|lowspeedtime|version)|protocol\.version|"
    r"pack\.(threads|windowmemory)|index\.(version|threads)|feature\.(manyfiles|experimental)|"
    r"blame\.(date|coloring|showemail|blankboundary)|grep\.(linenumber|patterntype|"
    r"extendedregexp|column|fullname)|am\.(threeway|keepcr)|apply\.whitespace|"
    r"worktree\.guessremote|clone\.defaultremotename|submodule\.recurse|"
    r"checkout\.(defaultremote|workers)|i18n\.(commitencoding|logoutputencoding)|"
    r"versionsort\.suffix|safe\.bareRepository)$",
    re.IGNORECASE,
)

# Scripts in other languages that reach the shell or files: sed's `e` command and `s///e` flag
# and its `w FILE` writes; awk's system(), pipes and `print > "file"`. Found by pattern, so a
# match asks rather than proving anything.
SED_RUNS = re.compile(
    r"(^|[;\n{}])\s*(\d+|\$|/[^/]*/)?(,(\d+|\$|/[^/]*/))?!?\s*e(\s|$|;)"
    r"|s(.)(?:\\.|(?!\6).)*\6(?:\\.|(?!\6).)*\6[gpiImM0-9]*e"
)
SED_WRITES = re.compile(
    r"(^|[;\n{}])\s*[wW]\s+\S|s(.)(?:\\.|(?!\2).)*\2(?:\\.|(?!\2).)*\2[gpiImMe0-9]*w\s"
)
AWK_RUNS = re.compile(
    r"\bsystem\s*\(|(?<!\|)\|(?!\|)\s*&?\s*getline|(?<!\|)\|(?!\|)\s*(\"|[A-Za-z_(])"
)
AWK_WRITES = re.compile(r">>?\s*\"|\bprintf?\b[^;{}]*>>?\s*[A-Za-z_($]")

# Programs that read more arguments from `@FILE` (binutils and friends).
AT_FILE_COMMANDS = frozenset(
    {
        "strings",
        "nm",
        "objdump",
        "size",
        "readelf",
        "ar",
        "objcopy",
        "strip",
        "c++filt",
        "addr2line",
        "as",
        "ld",
        "gcc",
        "cc",
        "g++",
        "clang",
        "clang++",
    }
)
# Flags that make a command read the names of files to use from standard input.
STDIN_FILE_LISTS = {
    "zip": frozenset({"-@"}),
    "git": frozenset({"--stdin-paths"}),
    "cpio": frozenset({"-o", "-p", "--create", "--pass-through"}),
}

# Tools whose default output is a file under home: (options that make it write there, or empty
# for always; option letters or words that send it elsewhere or only print; the path under ~).
DEFAULT_WRITES: dict[str, tuple[frozenset[str], frozenset[str], str]] = {
    "ssh-keygen": (frozenset(), frozenset({"f", "l", "y", "F", "Q", "k", "L", "D"}), ".ssh"),
    **dict.fromkeys(
        ("gpg", "gpg2"),
        (
            frozenset(
                {
                    "--import",
                    "--recv-keys",
                    "--receive-keys",
                    "--fetch-keys",
                    "--refresh-keys",
                    "--gen-key",
                    "--generate-key",
                    "--full-generate-key",
                    "--full-gen-key",
                    "--quick-generate-key",
                    "--quick-gen-key",
                    "--edit-key",
                    "--sign-key",
                    "--lsign-key",
                    "--delete-key",
                    "--delete-keys",
                    "--delete-secret-key",
                    "--delete-secret-keys",
                    "--import-ownertrust",
                    "--update-trustdb",
                }
            ),
            frozenset({"--homedir"}),
            ".gnupg",
        ),
    ),
}
# Subcommands that save logins and settings under home: {command: ({subcommand words: path
# under ~}, options that point it at another file)}.
SUBCOMMAND_HOME_WRITES: dict[str, tuple[dict[tuple[str, ...], str], frozenset[str]]] = {
    "aws": ({("configure",): ".aws", ("sso", "login"): ".aws"}, frozenset()),
    "gh": (
        {
            ("auth", "login"): ".config/gh",
            ("auth", "refresh"): ".config/gh",
            ("config", "set"): ".config/gh",
            ("auth", "setup-git"): ".gitconfig",
        },
        frozenset(),
    ),
    "docker": ({("login",): ".docker"}, frozenset({"--config"})),
    "npm": ({("login",): ".npmrc", ("adduser",): ".npmrc"}, frozenset({"--userconfig"})),
    "kubectl": (
        {
            ("config", verb): ".kube"
            for verb in (
                "set-context",
                "use-context",
                "set-credentials",
                "set-cluster",
                "set",
                "unset",
                "delete-context",
                "delete-cluster",
                "rename-context",
            )
        },
        frozenset({"--kubeconfig"}),
    ),
    "gcloud": (
        {("auth", "login"): ".config/gcloud", ("config", "set"): ".config/gcloud"},
        frozenset({"--configuration"}),
    ),
    "az": ({("login",): ".azure"}, frozenset()),
}
# `cpio -i` writes the names the archive holds, absolute ones too, unless told not to.
CPIO_EXTRACTS = frozenset({"-i", "--extract"})

# `ssh -o KEY=VALUE` settings that run a local command.
SSH_CODE_KEYS = frozenset({"proxycommand", "localcommand", "knownhostscommand"})

# `test -f PATH`, `[[ -d PATH ]]`: operators whose operand is a path.
FILE_TEST_OPERATORS = frozenset(
    {
        "-e",
        "-f",
        "-d",
        "-r",
        "-w",
        "-x",
        "-s",
        "-L",
        "-h",
        "-p",
        "-S",
        "-b",
        "-c",
        "-g",
        "-u",
        "-k",
        "-O",
        "-G",
        "-N",
    }
)

# Shells whose -c string is bash-compatible enough to parse; others are unknown code.
POSIX_SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "rbash"})


def spec_for(name: str) -> Spec | None:
    """The spec for a command name (a path's basename; `python3.11` is `python3`)."""
    base = name.rsplit("/", 1)[-1]
    found = SPECS.get(base)
    if found is not None:
        return found
    stripped = base.rstrip("0123456789.")
    if stripped != base and stripped:
        return SPECS.get(stripped)
    if base.startswith("mkfs."):
        return SPECS["mkfs"]
    return None


def is_shell(name: str) -> bool:
    """Whether a command name (or path) names a POSIX shell."""
    return name.rsplit("/", 1)[-1] in POSIX_SHELLS
