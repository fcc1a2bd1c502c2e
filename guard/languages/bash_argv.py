"""Bash's command line, read the way bash 5.2 reads it (shell.c: long options, then short ones).

`guarded-bash` is given exactly the argv bash would be given. Before it lets the real bash run, it
must know what bash would run: a `-c` string (with its `$0` and positional arguments), a script,
commands from stdin, or an interactive shell; or nothing at all (`--version`, `--help`, a usage
error). `parse_bash_argv` answers that as data, without touching the system: whether stdin and
stderr are terminals is passed in.

Bash's rules, in order:
1. argv[0]: a leading `-` makes a login shell; a basename `sh` means POSIX mode, `rbash` (a
   leading `-` stripped) a restricted shell.
2. Long options come first, while arguments start with `-`: `--norc`, `--rcfile F` … Single-dash
   spellings (`-login`, `-norc`, `-rcfile F`) are accepted too. An unknown `--word` is an error;
   anything else ends this phase. `--help`, then `--version`, win over everything after.
3. Short options, while arguments start with `-` or `+`: a lone `-` or `--` ends them, a lone `+`
   is skipped. In a cluster, each letter that needs an argument (`o`, `O`) takes the next unused
   argv element, in letter order (`-oc errexit CMD`, `-co errexit CMD`). `c`, `l`, `s` act the same
   with `+`. `-o`/`-O` with nothing left list the options and go on.
4. With `-c`, the next element is the command (missing: "option requires an argument"), then `$0`
   (default argv[0]), then `$1` …. Else the next element is a script, unless `-s`. Else the shell
   is interactive with `-i`, or when stdin and stderr are both terminals; else it reads stdin.
5. Unknown `-O` names are refused after parsing, after a missing `-c` argument.
Every usage error runs nothing and exits 2, or 1 when `-e` was set before it (bash's report_error).
"""

from __future__ import annotations

TYPE_CHECKING = False  # guarded-bash reads its argv on every start: typing is not imported
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    Mode = Literal["command", "script", "stdin", "interactive", "version", "help", "error"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# bash 5.2: `bash --help`, without --wordexp/--protected (not compiled into release builds).
LONG_FLAGS = _words(
    "debug debugger dump-po-strings dump-strings help login noediting noprofile norc posix"
    " pretty-print restricted verbose version"
)
LONG_WITH_VALUE = frozenset({"init-file", "rcfile"})
# Letters `set` accepts at invocation (flags.c); c, l, s, o, O and D are handled by bash itself.
SET_LETTERS = frozenset("abefhikmnprtuvxBCEHPT")
# `set -o` names in bash 5.2; no prefixes, no other case.
SET_O_NAMES = _words(
    "allexport braceexpand emacs errexit errtrace functrace hashall histexpand history ignoreeof"
    " interactive-comments keyword monitor noclobber noexec noglob nolog notify nounset onecmd"
    " physical pipefail posix privileged verbose vi xtrace"
)
# `shopt` names in bash 5.2 (newer releases add more: extend this list with them).
SHOPT_NAMES = _words(
    "autocd assoc_expand_once cdable_vars cdspell checkhash checkjobs checkwinsize cmdhist"
    " compat31 compat32 compat40 compat41 compat42 compat43 compat44 complete_fullquote direxpand"
    " dirspell dotglob execfail expand_aliases extdebug extglob extquote failglob force_fignore"
    " globasciiranges globskipdots globstar gnu_errfmt histappend histreedit histverify"
    " hostcomplete huponexit inherit_errexit interactive_comments lastpipe lithist"
    " localvar_inherit localvar_unset login_shell mailwarn no_empty_cmd_completion nocaseglob"
    " nocasematch noexpand_translation nullglob patsub_replacement progcomp progcomp_alias"
    " promptvars restricted_shell shift_verbose sourcepath varredir_close xpg_echo"
)
PROGRAM = "bash"  # bash's own name, used where argv[0] is missing, empty or a lone "-"


class BashInvocation:
    """What bash would do with one argv. `arg0` and `positional` are `$0` and `$1 …` in every
    mode that runs something; for "version", "help" and "error" they are None and ().
    A frozen record written out by hand: guarded-bash builds one on every start, and neither
    dataclasses nor typing.NamedTuple is cheap enough to import there."""

    __slots__ = (  # noqa: RUF023 - in the order of the fields: __init__ sets them so
        "mode", "command", "arg0", "positional", "script", "login", "interactive_flag",
        "restricted", "posix", "norc", "noprofile", "rcfile", "options", "error", "exit_status",
    )  # fmt: skip
    mode: Mode
    command: str | None  # the -c string
    arg0: str | None
    positional: tuple[str, ...]
    script: str | None  # the script path (mode "script")
    login: bool  # argv[0] starts with "-", or -l / --login
    interactive_flag: bool  # -i given (and not undone by +i)
    restricted: bool  # -r, --restricted, or argv[0] named rbash
    posix: bool  # --posix, -o posix (not undone by +o posix), or argv[0] named sh
    norc: bool
    noprofile: bool
    rcfile: str | None  # --rcfile / --init-file (the last one wins)
    options: tuple[str, ...]  # every option read, in order: "-e", "+o errexit", "-O", "--norc"
    error: str | None  # bash's message on stderr (mode "error": nothing runs)
    exit_status: int | None  # error: 2, or 1 when -e was already set; version, help: 0

    def __init__(
        self,
        mode: Mode,
        *,
        command: str | None = None,
        arg0: str | None = None,
        positional: tuple[str, ...] = (),
        script: str | None = None,
        login: bool = False,
        interactive_flag: bool = False,
        restricted: bool = False,
        posix: bool = False,
        norc: bool = False,
        noprofile: bool = False,
        rcfile: str | None = None,
        options: tuple[str, ...] = (),
        error: str | None = None,
        exit_status: int | None = None,
    ) -> None:
        values = (
            mode, command, arg0, positional, script, login, interactive_flag, restricted, posix,
            norc, noprofile, rcfile, options, error, exit_status,
        )  # fmt: skip
        for name, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"BashInvocation is frozen: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"BashInvocation is frozen: cannot delete {name}")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BashInvocation):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"BashInvocation({fields})"


def login_from_argv0(argv0: str) -> bool:
    """Whether this argv[0] alone makes bash a login shell (how sshd, login and `su -` ask)."""
    return argv0.startswith("-")


def _basename(name: str) -> str:
    return name if name == "/" else name.rpartition("/")[2]


def _first_byte(char: str) -> str:
    """Bash reports the first byte of a bad option letter; keep that byte (surrogateescape)."""
    return char.encode("utf-8", "surrogateescape")[:1].decode("utf-8", "surrogateescape")


class _State:
    """The flags bash sets while it reads its argv."""

    def __init__(self, argv0: str) -> None:
        self.argv0 = argv0
        self.options: list[str] = []
        self.want_command = False
        self.read_stdin = False
        self.login = False
        self.forced_interactive = False
        self.restricted = False
        self.posix = False
        self.norc = False
        self.noprofile = False
        self.rcfile: str | None = None
        self.help = False
        self.version = False
        self.errexit = False  # -e set when an error is reported: bash exits 1, without its usage
        self.bad_shopt: str | None = None  # the first unknown -O name, refused after parsing

    def finish(
        self,
        mode: Mode,
        *,
        command: str | None = None,
        arg0: str | None = None,
        positional: tuple[str, ...] = (),
        script: str | None = None,
        error: str | None = None,
        exit_status: int | None = None,
    ) -> BashInvocation:
        base = _basename(self.argv0)
        if self.argv0.startswith("-") and base.startswith("-"):
            base = base[1:]
        return BashInvocation(
            mode,
            command=command,
            arg0=arg0,
            positional=positional,
            script=script,
            login=self.login or login_from_argv0(self.argv0),
            interactive_flag=self.forced_interactive,
            restricted=self.restricted or _basename(self.shell_name).removeprefix("-") == "rbash",
            posix=self.posix or base == "sh",
            norc=self.norc,
            noprofile=self.noprofile,
            rcfile=self.rcfile,
            options=tuple(self.options),
            error=error,
            exit_status=exit_status,
        )

    @property
    def shell_name(self) -> str:
        """Bash's name for itself in messages: argv[0], unless that is empty or a lone "-"."""
        return self.argv0 if self.argv0 not in ("", "-") else PROGRAM

    def fail(self, message: str, *, status: int | None = None) -> BashInvocation:
        """Bash's report_error: with -e already set it exits 1 at once, else 2 after its usage."""
        status = status or (1 if self.errexit else 2)
        return self.finish("error", error=f"{self.argv0}: {message}", exit_status=status)


def _long_options(argv: Sequence[str], s: _State) -> int | BashInvocation:
    """Phase 2: returns the index of the first argument that is not a long option."""
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        arg = argv[i]
        is_long = arg.startswith("--") and len(arg) > 2
        name = arg[2:] if is_long else arg[1:]
        if name in LONG_WITH_VALUE:
            if i + 1 >= len(argv):
                return s.fail(f"{name}: option requires an argument")
            i += 1
            s.rcfile = argv[i]
            s.options.append(f"--{name} {argv[i]}")
        elif name in LONG_FLAGS:
            s.options.append(f"--{name}")
            s.login |= name == "login"
            s.norc |= name == "norc"
            s.noprofile |= name == "noprofile"
            s.posix |= name == "posix"
            s.restricted |= name == "restricted"
            s.help |= name == "help"
            s.version |= name == "version"
        elif is_long:
            return s.fail(f"{arg}: invalid option")
        else:
            break
        i += 1
    return i


def _short_options(argv: Sequence[str], i: int, s: _State) -> int | BashInvocation:
    """Phase 3: returns the index of the first argument after the options."""
    while i < len(argv) and argv[i][:1] in ("-", "+"):
        arg, following = argv[i], i + 1
        if arg in ("-", "--"):
            return following
        on = arg[0]
        for letter in arg[1:]:
            if letter in "oO":
                if following >= len(argv):
                    s.options.append(f"{on}{letter}")  # bash lists the options and goes on
                    continue
                name = argv[following]
                following += 1
                s.options.append(f"{on}{letter} {name}")
                if letter == "O":
                    if s.bad_shopt is None and name not in SHOPT_NAMES:
                        s.bad_shopt = name
                elif name not in SET_O_NAMES:
                    return s.fail(f"line 0: {s.shell_name}: {name}: invalid option name", status=2)
                elif name == "posix":
                    s.posix = on == "-"
                elif name == "errexit":
                    s.errexit = on == "-"
                continue
            if letter in "clsD":
                s.want_command |= letter == "c"
                s.login |= letter == "l"
                s.read_stdin |= letter == "s"
            elif letter not in SET_LETTERS or (letter == "r" and on == "+" and s.restricted):
                return s.fail(f"{on}{_first_byte(letter)}: invalid option")
            elif letter == "e":
                s.errexit = on == "-"
            elif letter == "i":
                s.forced_interactive = on == "-"
            elif letter == "r":
                s.restricted = on == "-"
            s.options.append(f"{on}{letter}")
        i = following
    return i


def parse_bash_argv(
    argv: Sequence[str], *, stdin_is_tty: bool, stderr_is_tty: bool
) -> BashInvocation:
    """What bash 5.2 would do when started with this argv (argv[0] included). Never raises."""
    args = list(argv) or [PROGRAM]  # no argv[0] at all (Linux passes "" instead): bash's name
    s = _State(argv0=args[0])
    i = _long_options(args, s)
    if isinstance(i, BashInvocation):
        return i
    if s.help or s.version:
        return s.finish("help" if s.help else "version", exit_status=0)
    i = _short_options(args, i, s)
    if isinstance(i, BashInvocation):
        return i
    command = None
    if s.want_command:
        if i >= len(args):
            return s.fail("-c: option requires an argument")
        command, i = args[i], i + 1
    rest = tuple(args[i:])
    interactive = s.forced_interactive or (
        command is None and (not rest or s.read_stdin) and stdin_is_tty and stderr_is_tty
    )
    if s.bad_shopt is not None:
        if interactive:
            message = f"{_basename(s.shell_name)}: {s.bad_shopt}: invalid shell option name"
            return s.finish("error", error=message, exit_status=2)
        return s.fail(f"line 0: {s.bad_shopt}: invalid shell option name", status=2)
    if command is not None:
        return s.finish(
            "command", command=command, arg0=rest[0] if rest else s.argv0, positional=rest[1:]
        )
    if rest and not s.read_stdin:
        return s.finish("script", script=rest[0], arg0=rest[0], positional=rest[1:])
    return s.finish("interactive" if interactive else "stdin", arg0=s.argv0, positional=rest)
