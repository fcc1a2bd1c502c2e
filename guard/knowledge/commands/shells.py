"""Shells and wrappers: shells run code; wrappers (sudo, env, nice, timeout …) run the command they
are given."""

from __future__ import annotations

from typing import NamedTuple

from guard.knowledge.commands.command import EXACT, Command, arity
from guard.knowledge.commands.effect import E, Tool, spec_values
from guard.knowledge.commands.names import unversioned
from guard.knowledge.commands.spec import Spec, opts

WRAPPER = Spec(kind="wrapper", operands="command")


SHELL = Spec(kind="shell")


SU = Spec(
    operands="data",
    values=opts("-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"),
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
    values=opts("-u", "--user", "-g", "--group", "-G", "--supp-group", "-w"),
)


# Shells whose -c string is bash-compatible enough to parse, read as bash; a shell of another
# language (fish, nu, csh, pwsh …) is an interpreter whose code guard cannot read
# (interpreters.py).
POSIX_SHELLS = frozenset(
    {
        *("bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "rbash", "yash", "posh", "lksh"),
        *("oksh", "loksh", "pdksh", "ksh93", "bosh", "osh", "hush", "busybox-sh", "rksh", "rzsh"),
        *("jsh", "bsh", "sash", "toysh", "gash"),
        "guarded-bash",  # guard's own: bash, each line it runs checked again
    }
)


def is_shell(name: str) -> bool:
    """Whether a command name (or path) names a POSIX shell (`ksh93`, `bash5.2` too)."""
    base = name.rsplit("/", 1)[-1]
    return base in POSIX_SHELLS or unversioned(base, "0123456789.") in POSIX_SHELLS


class ParallelOptions(NamedTuple):
    """GNU parallel's options, as guard/projection/parallel_jobs.py reads them."""

    values: frozenset[str]  # options that take a value (attached or the next word)
    remote: frozenset[str]  # jobs run on other machines
    code: frozenset[str]  # values that are code (perl, a shell command) parallel runs
    reads: frozenset[str]  # values that are files it reads (arguments, login lists)
    writes: frozenset[str]  # values that are files or directories it writes
    separators: frozenset[str]  # `:::` literal arguments, `::::` files of arguments


PARALLEL = ParallelOptions(
    values=opts(
        *("-j", "--jobs", "-P", "--max-procs", "-n", "--max-args", "-N", "-L", "--max-lines"),
        *("-l", "-I", "--replace", "-E", "--eof", "-d", "--delimiter", "--colsep", "-C"),
        *("--tagstring", "--halt", "--halt-on-error", "--retries", "--timeout", "--delay"),
        *("--block", "--block-size", "--header", "--memfree", "--load", "--nice", "--id"),
        *("--semaphorename", "--jobs", "--termseq", "--shuf", "--seqreplace", "--env", "-s"),
        *("--max-chars", "--progress-bar", "--bar-width", "--workdir", "--wd", "--tmpdir"),
        *("--results", "--res", "--joblog", "--resume-failed", "-a", "--arg-file", "--argfile"),
        *("-S", "--sshlogin", "--sshloginfile", "--slf", "--ssh", "--limit", "--rpl"),
        *("--filter", "--transfer-file", "--tf", "--return", "--basefile", "--bf"),
        *("--ctag", "--ctagstring", "--tmux", "--sqlmaster", "--sqlworker", "--sqlandworker"),
        *("--semaphoretimeout", "--st"),
    ),
    remote=opts(
        *("-S", "--sshlogin", "--sshloginfile", "--slf", "--onall", "--nonall", "--transfer"),
        *("--transfer-file", "--tf", "--return", "--basefile", "--bf", "--trc"),
    ),
    code=opts("--ssh", "--limit", "--rpl", "--filter", "--shebang-wrap", "--tmux", "--sqlmaster"),
    reads=opts("-a", "--arg-file", "--argfile"),
    writes=opts("--results", "--res", "--joblog", "--tmpdir", "--workdir", "--wd"),
    separators=opts(":::", "::::", ":::+", "::::+"),
)


_SUDO_QUIET = (
    "-l",
    "--list",
    "-k",
    "-K",
    "-v",
    "--validate",
    "--reset-timestamp",
    "--remove-timestamp",
    "-V",
)

_SUDO_SPEC = Spec(
    kind="wrapper",
    assignments=True,
    operands="command",
    values=opts(
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
)

COMMANDS: dict[str, Command] = {
    "parallel": Command(spec=Spec(kind="parallel", operands="data"), arity=arity(EXACT)),
    # parallel --semaphore: its command words, joined, run through a shell (no arguments)
    "sem": Command(spec=Spec(kind="parallel", operands="data"), arity=arity(EXACT)),
    "sudo": Command(
        spec=_SUDO_SPEC,
        effects=Tool(
            ends_at_operand=True,
            values=spec_values(_SUDO_SPEC),
            effects=(
                E(
                    "privilege",
                    "root",
                    "runs as another user (root by default)",
                    without=_SUDO_QUIET,
                    check="as-user",
                ),
            ),
        ),
        arity=arity(EXACT),
    ),
    "doas": Command(
        spec=Spec(kind="wrapper", operands="command", values=opts("-u", "-C")),
        effects=Tool(
            ends_at_operand=True,
            values=opts("-u", "-C"),
            effects=(
                E("privilege", "root", "runs as another user (root by default)", check="as-user"),
            ),
        ),
        arity=arity(EXACT),
    ),
    "env": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            assignments=True,
            values=opts("-u", "--unset", "-a", "--argv0"),
            options={
                "-C": "chdir",
                "--chdir": "chdir",
                "-S": "code",
                "--split-string": "code",
                "-P": "execute",  # BSD env: where the command is looked up
            },
        ),
        arity=arity(EXACT),
    ),
    "nice": Command(
        spec=Spec(kind="wrapper", operands="command", values=opts("-n", "--adjustment")),
        arity=arity(EXACT),
    ),
    "nohup": Command(spec=WRAPPER, arity=arity(EXACT)),
    "setsid": Command(spec=WRAPPER, arity=arity(EXACT)),
    "time": Command(
        spec=Spec(kind="wrapper", operands="command", assignments=True), arity=arity(EXACT)
    ),
    "unbuffer": Command(spec=WRAPPER),
    "caffeinate": Command(spec=WRAPPER),
    "chronic": Command(spec=WRAPPER),
    "catchsegv": Command(spec=WRAPPER),
    "timeout": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            skip=1,
            values=opts("-s", "--signal", "-k", "--kill-after"),
        ),
        arity=arity(EXACT),
    ),
    "stdbuf": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts("-i", "-o", "-e", "--input", "--output", "--error"),
        ),
        arity=arity(EXACT),
    ),
    "ionice": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts("-c", "-n", "-p", "--class", "--classdata"),
        ),
        arity=arity(EXACT),
    ),
    "chrt": Command(spec=Spec(kind="wrapper", operands="command", skip=1)),
    "taskset": Command(spec=Spec(kind="wrapper", operands="command", skip=1)),
    "busybox": Command(spec=WRAPPER),
    "toybox": Command(spec=WRAPPER),
    "fakeroot": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts("-b"),
            options={
                "-l": "execute",
                "--lib": "execute",
                "--faked": "execute",
                "-s": "write",
                "-i": "read",
            },
        )
    ),
    "setpriv": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts(
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
        )
    ),
    "prlimit": Command(
        spec=Spec(kind="wrapper", operands="command", values=opts("-p", "--pid", "-o", "--output"))
    ),
    "dbus-run-session": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            options={"--config-file": "read", "--dbus-daemon": "execute"},
        )
    ),
    "xvfb-run": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts(
                "-n", "--server-num", "-p", "--xauth-protocol", "-s", "--server-args", "-w"
            ),
            options={"-e": "write", "--error-file": "write", "-f": "write", "--auth-file": "write"},
        )
    ),
    "sg": Command(spec=Spec(operands="code", first="data", options={"-c": "code"})),
    "chpst": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts("-u", "-U", "-b", "-n", "-m", "-d", "-o", "-p", "-f", "-c", "-t"),
            options={"-e": "read", "-/": "chdir", "-l": "write", "-L": "write"},
        )
    ),
    "cgexec": Command(spec=Spec(kind="wrapper", operands="command", values=opts("-g"))),
    "numactl": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts("-i", "-N", "-m", "-C", "-p", "-P", "-w", "-c"),
        )
    ),
    "flock": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            skip=1,
            skipped="write",  # the lock file, made when it is missing
            values=opts("-w", "--timeout", "-E", "--conflict-exit-code"),
            options={"-c": "code", "--command": "code"},
        ),
        arity=arity(EXACT),
    ),
    "watch": Command(spec=Spec(kind="watch", operands="code"), arity=arity(EXACT)),
    "strace": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts(
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
            options={"-o": "piped-output"},  # -o '|cmd': cmd is fed the trace
        ),
        arity=arity(EXACT),
    ),
    "ltrace": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts("-e", "-p", "-s", "-u"),
            options={"-o": "piped-output"},  # -o '|cmd': cmd is fed the trace
        ),
        arity=arity(EXACT),
    ),
    "valgrind": Command(spec=Spec(kind="wrapper", operands="command")),
    "runuser": Command(spec=Spec(kind="runuser", operands="data"), arity=arity(EXACT)),
    "su": Command(
        spec=SU,
        effects=Tool(
            ends_at_operand=True,
            values=opts("-c", "--command", "-s", "--shell", "-g", "-G", "-w"),
            effects=(
                E("privilege", "root", "runs as another user (root by default)", check="as-user"),
            ),
        ),
        arity=arity(EXACT),
    ),
    "rksh": Command(spec=SHELL, arity=arity(EXACT)),
    "bash": Command(spec=SHELL, arity=arity(EXACT)),
    "pdksh": Command(spec=SHELL, arity=arity(EXACT)),
    "toysh": Command(spec=SHELL, arity=arity(EXACT)),
    "ash": Command(spec=SHELL, arity=arity(EXACT)),
    "posh": Command(spec=SHELL, arity=arity(EXACT)),
    "rzsh": Command(spec=SHELL, arity=arity(EXACT)),
    "loksh": Command(spec=SHELL, arity=arity(EXACT)),
    "mksh": Command(spec=SHELL, arity=arity(EXACT)),
    "yash": Command(spec=SHELL, arity=arity(EXACT)),
    "hush": Command(spec=SHELL, arity=arity(EXACT)),
    "sash": Command(spec=SHELL, arity=arity(EXACT)),
    "ksh93": Command(spec=SHELL, arity=arity(EXACT)),
    "bsh": Command(spec=SHELL, arity=arity(EXACT)),
    "oksh": Command(spec=SHELL, arity=arity(EXACT)),
    "sh": Command(spec=SHELL, arity=arity(EXACT)),
    "lksh": Command(spec=SHELL, arity=arity(EXACT)),
    "zsh": Command(spec=SHELL, arity=arity(EXACT)),
    "busybox-sh": Command(spec=SHELL, arity=arity(EXACT)),
    "bosh": Command(spec=SHELL, arity=arity(EXACT)),
    "dash": Command(spec=SHELL, arity=arity(EXACT)),
    "rbash": Command(spec=SHELL, arity=arity(EXACT)),
    "ksh": Command(spec=SHELL, arity=arity(EXACT)),
    "osh": Command(spec=SHELL, arity=arity(EXACT)),
    "jsh": Command(spec=SHELL, arity=arity(EXACT)),
    "gash": Command(spec=SHELL, arity=arity(EXACT)),  # Guile's POSIX shell
    "guarded-bash": Command(spec=SHELL, arity=arity(EXACT)),
    "nix-shell": Command(  # --run and --command are bash code run in the shell it builds
        spec=Spec(
            operands="path",  # shell.nix, default.nix (read); `-p` packages name nothing here
            values=opts(
                *("-A", "--attr", "-I", "--include", "--keep", "-j", "--max-jobs"),
                *("--cores", "-o", "--out-link", "--shell", "--exclude"),
            ),
            options={"--run": "code", "--command": "code"},
            pairs={"--arg": "data", "--argstr": "data", "--option": "data"},
        ),
        arity=arity(EXACT),
    ),
    "script": Command(
        spec=Spec(
            operands="write",
            values=opts("-E", "--echo", "-m"),
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
        )
    ),
    "pkexec": Command(
        spec=Spec(kind="wrapper", operands="command", values=opts("--user", "-u")),
        effects=Tool(
            ends_at_operand=True,
            values=opts("--user"),
            effects=(
                E("privilege", "root", "runs as another user (root by default)", check="as-user"),
            ),
        ),
        arity=arity(EXACT),
    ),
    "run0": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts(
                *("-u", "--user", "-g", "--group", "--machine", "--setenv", "--unit", "-p"),
                *("--property", "--description", "--slice", "--nice", "--background"),
            ),
            options={"-D": "chdir", "--chdir": "chdir"},
        ),
        effects=Tool(
            ends_at_operand=True,
            effects=(E("privilege", "root", "runs as another user (root by default)"),),
        ),
    ),
    # entr -s 'CMD': CMD is a line its $SHELL runs (the word after -s, however -s is bundled)
    "entr": Command(spec=Spec(kind="wrapper", operands="command", options={"-s": "code"})),
    "faketime": Command(spec=Spec(kind="wrapper", operands="command", skip=1, skipped="data")),
    "dbus-launch": Command(
        spec=Spec(kind="wrapper", operands="command", options={"--config-file": "read"})
    ),
    "screen": Command(  # screen CMD runs CMD in a window; -X/-Q send commands to a session
        spec=Spec(
            kind="screen",
            operands="command",
            values=opts("-S", "-p", "-c", "-e", "-h", "-s", "-t", "-T", "-Logfile", "-X", "-Q"),
            options={"-c": "read", "-Logfile": "write"},
        ),
        arity=arity(EXACT),
    ),
    "tmux": Command(
        spec=Spec(  # -f: a config file, whose commands (run-shell …) tmux runs
            kind="tmux",
            operands="data",
            options={"-f": "execute", "-S": "write"},
            values=opts("-L"),
        )
    ),
}
