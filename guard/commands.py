"""What common commands do with their arguments, as data.

Each `Spec` says which options take a value, what role operands play (a path read or written, a
pattern, a message, shell code, a command to run), and which options name paths. The reader in
`guard/arguments.py` applies a spec to an argv. Add knowledge here, not `if`s in the walker.

Roles: "read", "write", "execute", "chdir" are accesses; "data" is not a path; "path" is a read
of whatever looks like a path (the fallback for unknown commands); "code" is shell code run by
this shell or a child; "command" starts a command this one runs (wrappers).
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
]


class Spec(NamedTuple):  # a named tuple: hundreds are built on every start-up
    kind: Kind = "plain"
    operands: Role = "path"  # role of operands not covered by first/last
    first: Role | None = None  # role of the first operand (a pattern, a mode, a script)
    last: Role | None = None  # role of the last operand when there are two or more
    values: frozenset[str] = frozenset()  # options that take a value (role "data")
    options: dict[str, Role] = {}  # noqa: RUF012  # options whose value has a role
    flags: dict[str, Role] = {}  # noqa: RUF012  # flags that change the operand role
    skip: int = 0  # wrappers: operands before the command (timeout's DURATION)
    assignments: bool = False  # wrappers: NAME=value operands before the command (env)
    bare_reads_cwd: bool = False  # with no operands it reads the current directory
    first_drops: frozenset[str] = frozenset()  # options whose presence means no pattern operand
    subcommands: bool = False  # `git log` etc.: the first operand names what to do
    stop_at_operand: bool = False  # options end at the first operand (`python script.py -x`)


def _v(*names: str) -> frozenset[str]:
    return frozenset(names)


READ = Spec(operands="read")
WRITE = Spec(operands="write")
PRINT = Spec(operands="data")
NOTHING = Spec(operands="data")

_GREP = Spec(
    operands="read",
    first="data",
    values=_v(
        "-A",
        "-B",
        "-C",
        "-m",
        "--max-count",
        "-d",
        "-D",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--color",
        "--colour",
        "--label",
        "-g",
        "--glob",
        "-t",
        "--type",
        "-T",
        "--type-not",
        "-j",
        "--threads",
        "-M",
        "--max-columns",
        "-r",
        "--replace",
        "--context",
        "--after-context",
        "--before-context",
        "--sort",
        "--sortr",
    ),
    options={"-e": "data", "--regexp": "data", "-f": "read", "--file": "read"},
    first_drops=_v("-e", "--regexp", "-f", "--file"),
)
_SED = Spec(
    operands="read",
    first="sed-script",
    values=_v("-l", "--line-length", "-E"),
    options={"-e": "sed-script", "--expression": "sed-script", "-f": "read", "--file": "read"},
    flags={"-i": "write", "--in-place": "write"},
    first_drops=_v("-e", "--expression", "-f", "--file"),
)
_AWK = Spec(
    operands="read",
    first="awk-program",
    values=_v("-F", "-v", "--assign", "--field-separator"),
    options={"-f": "read", "--file": "read"},
    first_drops=_v("-f", "--file"),
)
_INTERPRETER = Spec(
    operands="path",
    first="read",
    values=_v("-W", "-X", "-O", "--require", "-r", "-I", "-M"),
    options={
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
)
_COPY = Spec(
    operands="read",
    last="write",
    values=_v("-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "-Z"),
    options={"-t": "write", "--target-directory": "write"},
)
_WRAPPER = Spec(kind="wrapper", operands="command")
_SHELL = Spec(kind="shell")

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
            "man",
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
            "-S",
            "-w",
            "-B",
            "-E",
        ),
        options={"-i": "read", "-F": "read", "-o": "ssh-option"},
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
            "wc",
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
        values=_v("-d", "--max-depth", "-B", "--exclude", "-t"),
    ),
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
        options={"-o": "write", "--output": "write"},
    ),
    "uniq": Spec(operands="read", last="write", values=_v("-f", "-s", "-w")),
    "tr": Spec(operands="data"),
    "split": Spec(operands="read", last="write", values=_v("-l", "-b", "-n", "-a", "-C")),
    "xargs": Spec(
        kind="xargs",
        operands="command",
        values=_v(
            "-n",
            "-L",
            "-P",
            "-I",
            "-i",
            "-d",
            "-E",
            "-e",
            "-s",
            "--max-args",
            "--max-procs",
            "--delimiter",
            "--replace",
            "--max-lines",
        ),
        options={"-a": "read", "--arg-file": "read"},
    ),
    "grep": _GREP,
    "egrep": _GREP,
    "fgrep": _GREP,
    "rg": _GREP,
    "ag": _GREP,
    "ack": _GREP,
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
        values=_v("--arg", "--argjson", "--indent"),
        options={"--slurpfile": "read", "--rawfile": "read", "-f": "read", "--from-file": "read"},
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
        options={**_COPY.options, "-e": "code", "--rsh": "code", "--rsync-path": "code"}
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
        operands="read",
        values=_v(
            "--exclude",
            "-b",
            "--owner",
            "--group",
            "--mode",
            "--transform",
            "--strip-components",
            "-T",
            "-X",
        ),
        options={
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
        operands="data",
        values=_v(
            "-H",
            "--header",
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
            "-w",
            "--write-out",
            "-x",
            "--proxy",
            "-r",
            "--range",
            "--retry",
            "-F",
            "--form",
            "-d",
            "--data",
            "--data-raw",
            "--data-binary",
            "--data-urlencode",
            "--json",
            "-C",
            "--url",
        ),
        options={
            "-o": "write",
            "--output": "write",
            "-T": "read",
            "--upload-file": "read",
            "-K": "read",
            "--config": "read",
            "-c": "write",
            "--cookie-jar": "write",
            "-b": "data",
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
            "-e",
            "--execute",
        ),
        options={
            "-O": "write",
            "--output-document": "write",
            "-P": "write",
            "--directory-prefix": "write",
            "-o": "write",
            "--output-file": "write",
            "-a": "write",
            "-i": "read",
            "--input-file": "read",
        },
    ),
    # version control and build tools
    "git": Spec(
        operands="path",
        subcommands=True,
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
            "--origin",
            "-o",
            "-S",
            "--since",
            "--until",
            "--grep",
            "-U",
            "--unified",
            "--abbrev",
            "--config",
            "--reference",
            "--separate-git-dir",
            "--template",
        ),
        options={
            "-C": "chdir",
            "--git-dir": "read",
            "--work-tree": "chdir",
            "-F": "read",
            "--file": "read",
            "-c": "git-config",
            "--config-env": "git-config",
        },
    ),
    "make": Spec(
        operands="data",
        values=_v("-j", "--jobs", "-l", "-o", "-W", "-E"),
        options={
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
    "npm": Spec(operands="data", subcommands=True, options={"--prefix": "write", "-C": "chdir"}),
    "npx": Spec(operands="data"),
    "pnpm": Spec(operands="data"),
    "yarn": Spec(operands="data"),
    "pip": Spec(
        operands="data",
        options={
            "-r": "read",
            "--requirement": "read",
            "-t": "write",
            "--target": "write",
            "-c": "read",
            "--constraint": "read",
        },
    ),
    "cargo": Spec(operands="data", options={"--manifest-path": "read", "--target-dir": "write"}),
    "go": Spec(operands="data", options={"-C": "chdir", "-o": "write"}),
    "docker": Spec(operands="data", options={"-f": "read", "--file": "read", "--env-file": "read"}),
    "kubectl": Spec(
        operands="data", options={"-f": "read", "--filename": "read", "--kubeconfig": "read"}
    ),
    "systemctl": Spec(operands="data"),
    "journalctl": Spec(operands="data"),
    "apt": Spec(operands="data"),
    "apt-get": Spec(operands="data"),
    "brew": Spec(operands="data"),
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
        options={"-C": "chdir", "--chdir": "chdir", "-S": "code", "--split-string": "code"},
    ),
    "nice": Spec(kind="wrapper", operands="command", values=_v("-n", "--adjustment")),
    "nohup": _WRAPPER,
    "setsid": _WRAPPER,
    "time": _WRAPPER,
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
    "flock": Spec(
        kind="wrapper",
        operands="command",
        skip=1,
        values=_v("-w", "--timeout", "-E", "--conflict-exit-code"),
        options={"-c": "code", "--command": "code"},
    ),
    "watch": Spec(kind="wrapper", operands="command", values=_v("-n", "--interval", "-d")),
    "strace": Spec(
        kind="wrapper",
        operands="command",
        values=_v("-e", "-p", "-s", "-u"),
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
    "runuser": Spec(kind="wrapper", operands="command", values=_v("-u", "-g", "-G")),
    "su": Spec(
        operands="data",
        values=_v("-s", "--shell", "-g", "-G"),
        options={"-c": "code", "--command": "code"},
    ),
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
    "compgen": Spec(
        operands="data",
        values=_v("-A", "-G", "-W", "-X", "-P", "-S", "-o", "-F"),
        options={"-C": "code"},
    ),
    "history": Spec(operands="write"),  # history -w/-a/-r FILE
    "fc": Spec(kind="fc", operands="data"),
    "coproc": Spec(kind="coproc", operands="command"),
    "script": Spec(
        operands="write",
        values=_v("-E", "--echo", "-T", "-t", "-m", "-B", "-O", "-I"),
        options={"-c": "code", "--command": "code"},
    ),
    "unshare": _WRAPPER,
    "nsenter": _WRAPPER,
    "systemd-run": _WRAPPER,
    "firejail": _WRAPPER,
    "tmux": Spec(kind="tmux", operands="data"),
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
    r"protocol\..*|url\..*|include\.path|includeif\..*)$",
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
