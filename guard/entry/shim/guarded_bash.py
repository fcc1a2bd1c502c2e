"""`guarded-bash`: stands in for bash, has guard check what bash would run, then execs bash.

It reads its argv as bash does (`guard.languages.bash_argv`), and by mode:
- `command` (`-c`): the string is checked together with `$0` and its positional arguments, then
  the real bash is exec'ed with the original argv;
- `script`: the file's contents are checked, after a line that runs the script (so a script
  outside the workspace is an executed path), with `$0` the script and its arguments;
- `stdin`: all of stdin is read and checked, and the same bytes become the real bash's stdin;
- `interactive`: the real bash starts with guard's hook loaded after the user's startup files;
- `version`, `help`: the real bash runs (it runs nothing); `error`: bash's message, its status.
A refusal is one `guard:` line on stderr and status 126, with nothing of the input run.

The real bash is `GUARD_REAL_SHELL` (absolute) or /bin/bash, never looked up in PATH (a launcher
named bash first in PATH must not find itself), and never guarded-bash itself.
"""

from __future__ import annotations

import errno
import os
import stat
import sys

from guard.entry.shim.launcher import is_guard_shim, recovered_argv0
from guard.entry.shim.script_input import (
    fd_number,
    feed_fd,
    input_limit,
    memory_file,
    move_fd,
    open_script,
    read_bounded,
    text_of,
    write_all,
)
from guard.errors import GuardError
from guard.languages import BashInvocation, parse_bash_argv
from guard.printable import escaped

# Every agent's `bash -c` line starts this module: what it imports on that path is kept to the
# cheap part of the standard library (no typing, collections, contextlib, shlex, signal, re).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, MutableMapping, Sequence
    from typing import NoReturn

    from guard.verdict import Judgement

REFUSED = 126
INTERRUPTED = 130
DEFAULT_SHELL = "/bin/bash"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv if argv is None else argv) or [""]
    own = args[0]
    args[0] = recovered_argv0(os.environ, os.getpid(), args[0])
    restore_python_settings(os.environ)
    inv = parse_bash_argv(args, stdin_is_tty=os.isatty(0), stderr_is_tty=os.isatty(2))
    try:
        return run(inv, args, own=own)
    except GuardError as exc:
        _say(str(exc))
    except KeyboardInterrupt:
        _say("guard: interrupted; nothing ran")
        return INTERRUPTED
    except Exception as exc:  # fail closed: a bug in guard never lets the input run unchecked
        _say(f"guard: guarded-bash failed ({exc!r}); nothing ran. Please report this bug.")
    return REFUSED


KEPT = "GUARD_KEPT_"


def restore_python_settings(env: MutableMapping[str, str]) -> None:
    """The launcher moved PYTHON* settings aside so guard's own Python runs without them; the
    bash guard starts (and the line's projection) gets them back."""
    for name in [n for n in env if n.startswith(KEPT + "PYTHON")]:
        env[name[len(KEPT) :]] = env.pop(name)


def run(inv: BashInvocation, args: list[str], *, own: str) -> int:
    """Check what `inv` would run; exec the real bash when allowed, else return the status."""
    if inv.mode == "error":
        _say(inv.error or "bash: bad arguments")
        return inv.exit_status if inv.exit_status is not None else 2
    shell = real_shell(os.environ, own=own)
    if inv.mode in ("version", "help"):
        exec_shell(shell, args)
    if inv.mode == "command":
        assert inv.command is not None
        from guard.entry.shim.ssh_transfer import is_transfer_command, parent_is_sshd

        if is_transfer_command(inv.command) and parent_is_sshd():
            exec_shell(shell, args)  # sshd's own file transfer for the user who logged in
        if not allowed(inv.command, inv):
            return REFUSED
        exec_shell(shell, args)
    if inv.mode == "script":
        status = check_script(inv, args)
        if status is not None:
            return status
        exec_shell(shell, args)
    if inv.mode == "stdin":
        if not check_stdin(inv):
            return REFUSED
        exec_shell(shell, args)
    say_banner()
    exec_shell(shell, interactive_argv(inv, args[0], own=own))


def say_banner() -> None:
    """The one line an interactive guarded-bash starts with, unless GUARD_QUIET=1."""
    from guard.entry.shim.startup_line import banner, quiet

    if quiet(os.environ):
        return
    try:
        line = banner(os.environ)
    except Exception:  # what the line says is a courtesy; the hook still guards every line
        return
    _say(line)


def real_shell(env: Mapping[str, str], *, own: str) -> str:
    """The bash to exec: `GUARD_REAL_SHELL` (absolute) or /bin/bash, and not guarded-bash."""
    shell = env.get("GUARD_REAL_SHELL") or DEFAULT_SHELL
    if not os.path.isabs(shell):
        raise GuardError(
            f"guard: GUARD_REAL_SHELL must be an absolute path, not {shell!r}; nothing ran."
            " Set it to the real bash, e.g. /bin/bash"
        )
    if is_guard_shim(shell, own=own):
        raise GuardError(
            f"guard: {shell} is guarded-bash itself, not the real bash; nothing ran."
            " Set GUARD_REAL_SHELL to the real bash's absolute path, e.g. /bin/bash"
        )
    return shell


def allowed(text: str, inv: BashInvocation) -> bool:
    """Judge `text` run with `inv`'s `$0` and arguments; ask a human when the policy says so."""
    from guard.entry.resident import client as resident_client
    from guard.verdict import current_session

    session = current_session()
    stdin_code = inv.mode == "command" and stdin_may_carry_code()
    status = resident_client.check(
        text,
        session=session,
        positional=inv.positional,
        arg0=inv.arg0,
        origin="guarded-bash",
        stdin_code=stdin_code,
        login=inv.login and not inv.noprofile,
    )
    if status is not None:
        return status == 0
    from guard.entry.check import check_line

    status = check_line(
        text,
        session=session,
        positional=inv.positional,
        arg0=inv.arg0,
        origin="guarded-bash",
        background_audit=True,
        stdin_code=stdin_code,
        enforce=lambda judgement: _enforce(judgement, login=inv.login and not inv.noprofile),
    )
    return status == 0


def _enforce(judgement: Judgement, *, login: bool) -> Mapping[str, object]:
    """Plan an allowed line's enforcement (docs/enforcement.md); applied right before exec.
    What the start-up files bash reads first would write outside it is said now."""
    from guard.kernel import pending_ruleset, prepare

    detail = prepare(judgement)
    ruleset = pending_ruleset()
    if ruleset is not None:
        from guard.kernel import startup_notes

        env = judgement.context.env
        for note in startup_notes(judgement.context, ruleset, env, login=login):
            _say(note)
    return detail


def stdin_may_carry_code() -> bool:
    """Whether a shell started by the checked command could read code from our standard
    input: not when it is a terminal (a human types there) or /dev/null."""
    import stat

    try:
        info = os.fstat(0)
    except OSError:
        return False
    if os.isatty(0):
        return False
    if stat.S_ISCHR(info.st_mode):
        try:
            return info.st_rdev != os.stat(os.devnull).st_rdev
        except OSError:
            return True
    return True


def invocation_line(script: str, positional: Sequence[str]) -> str:
    """The line that stands for running a script: `bash SCRIPT ARGS…`, quoted."""
    import shlex

    return shlex.join(["bash", script, *positional])


# ---- scripts and stdin -------------------------------------------------------------------


def check_script(inv: BashInvocation, args: list[str]) -> int | None:
    """Check `bash SCRIPT ARGS…`: None when allowed (bash may run with `args`), else the exit
    status. A script that is a pipe (`bash <(curl …)`) is read once: bash gets the same bytes."""
    assert inv.script is not None
    try:
        fd, path = open_script(inv.script)
    except OSError as exc:  # bash's own message and status: nothing runs
        _say(f"{args[0] or 'bash'}: {inv.script}: {exc.strerror}")
        return 127 if exc.errno == errno.ENOENT else REFUSED
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
        data = read_bounded(fd, input_limit())
        number = fd_number(inv.script)
        text = text_of(data)
        if number is None:  # /dev/fd/N is no place: there, only the contents count
            text = invocation_line(path, inv.positional) + "\n" + text
        if not allowed(text, inv):
            return REFUSED
        if regular and number is None:
            # bash must run the bytes that were checked, not whatever the file holds by the
            # time it opens it again: source a copy, keeping $0 and the arguments
            copy = memory_file(data)
            os.set_inheritable(copy, True)
            at = len(args) - len(inv.positional) - 1
            before = at - 1 if at > 1 and args[at - 1] in ("--", "-") else at
            args[before:at] = ["-c", f". /dev/fd/{copy}"]  # after -c CMD, `--` would be $0
            return None
        if not regular:
            feed = feed_fd(data, fd, more=len(data) >= input_limit())
            if number is None:  # a named pipe or a device: bash reads the checked bytes instead
                args[len(args) - len(inv.positional) - 1] = f"/dev/fd/{feed}"
                os.set_inheritable(feed, True)
            else:
                move_fd(feed, number)
        return None
    finally:
        os.close(fd)


def check_stdin(inv: BashInvocation) -> bool:
    """Read the commands bash would read from stdin, check them, and leave the same bytes on
    stdin for bash: a regular file is rewound, anything else is replaced by a copy in memory
    (followed by the rest of the stream when it was too long to read whole)."""
    try:
        regular = stat.S_ISREG(os.fstat(0).st_mode)
    except OSError:
        return True  # no stdin at all: bash reads nothing and runs nothing
    limit = input_limit()
    if regular:
        try:
            start = os.lseek(0, 0, os.SEEK_CUR)
            data = read_bounded(0, limit)
            os.lseek(0, start, os.SEEK_SET)
            return allowed(text_of(data), inv)
        except OSError:
            pass  # not seekable after all: read it as a stream
    data = read_bounded(0, limit)
    if not allowed(text_of(data), inv):
        return False
    move_fd(feed_fd(data, 0, more=len(data) >= limit), 0)
    return True


# ---- interactive shells ----------------------------------------------------------------
# bash reads --rcfile only when it is interactive and not a login shell, so guard starts it as
# one, with an rc (in memory, as /dev/fd/N) that reads the user's own startup files first, the
# login ones for a login shell, and then loads guard's hook.

SKIPPED = frozenset({"--login", "--norc", "--noprofile", "--rcfile", "--init-file", "-l", "+l"})
BASH_PROFILES = ("~/.bash_profile", "~/.bash_login")


def interactive_argv(inv: BashInvocation, argv0: str, *, own: str) -> list[str]:
    """The real bash's argv for an interactive shell: not a login shell, rc = guard's rc."""
    rc = memory_file(b"")
    path = f"/dev/fd/{rc}"
    write_all(rc, rc_text(inv, os.environ, fd=rc, own=own).encode("utf-8", "surrogateescape"))
    os.lseek(rc, 0, os.SEEK_SET)
    os.set_inheritable(rc, True)
    if inv.posix:  # a POSIX-mode shell reads $ENV, not an rcfile
        os.environ["ENV"] = path
    out = [argv0[1:] if argv0.startswith("-") else argv0, "--rcfile", path]
    for option in inv.options:
        name, sep, value = option.partition(" ")
        if name not in SKIPPED:
            out += [name, value] if sep else [name]
    return out + (["--", *inv.positional] if inv.positional else [])


def rc_text(inv: BashInvocation, env: Mapping[str, str], *, fd: int, own: str) -> str:
    """What the rc does: close its own fd, read the user's startup files as bash would have,
    then load the hook; a shell whose hook did not load exits instead of running unchecked."""
    import shlex

    q = shlex.quote
    lines = [
        "# guarded-bash: your startup files, then guard's hook (docs/guarded-bash.md)",
        f"exec {fd}<&-",
    ]
    if inv.login and not inv.noprofile:
        profiles = ["~/.profile"] if inv.posix else [*BASH_PROFILES, "~/.profile"]
        lines.append("if [ -r /etc/profile ]; then . /etc/profile; fi")
        tests = [f"[ -r {p} ]; then . {p}" for p in profiles]
        lines.append("if " + "\nelif ".join(tests) + "\nfi")
        lines.append('logout() { exit "$@"; }')
        lines.append("trap 'if [ -r ~/.bash_logout ]; then . ~/.bash_logout; fi' EXIT")
    if inv.posix:
        original = env.get("ENV", "")  # the user's own $ENV, read in its place
        read = f'ENV={q(original)}; if [ -r "$ENV" ]; then . "$ENV"; fi'
        lines.append(read if original else "unset ENV")
    elif not inv.login and not inv.norc:
        rcfile = q(os.path.expanduser(inv.rcfile)) if inv.rcfile else "~/.bashrc"
        lines.append(f"if [ -r {rcfile} ]; then . {rcfile}; fi")
    lines.append(hook_text(own))
    return "\n".join(lines) + "\n"


def hook_text(own: str) -> str:
    """guard's bash hook, run through eval so that even a broken hook cannot end the rc early,
    then a check that it is in place; without it the shell stops instead of running lines
    unchecked (bash older than 4.4 has no PS0, and the hook declines to load there)."""
    import shlex

    from guard.entry.shell_hooks.init import guard_program, render

    guard = os.path.join(os.path.dirname(os.path.abspath(own)), "guard")
    if not os.access(guard, os.X_OK):
        guard = guard_program()
    return (
        f"__guard_hook={shlex.quote(render('bash', guard))}\n"
        'if builtin eval "$__guard_hook" && builtin declare -F __guard_ps0 >/dev/null; then\n'
        "    unset __guard_hook\n"
        "else\n"
        "    builtin echo 'guard: the shell hook did not load, so this shell stops rather than"
        " run lines unchecked; run guard init bash to see why' >&2\n"
        f"    builtin exit {REFUSED}\n"
        "fi"
    )


# ---- exec ------------------------------------------------------------------------------------


def exec_shell(shell: str, argv: Sequence[str]) -> NoReturn:
    """Replace this process with the real bash. Python ignores SIGPIPE and SIGXFSZ, and an
    ignored signal stays ignored across exec: give bash the defaults a shell starts with."""
    import _signal  # type: ignore[import-not-found]  # `signal` imports enum: milliseconds

    for name in ("SIGPIPE", "SIGXFSZ"):
        if hasattr(_signal, name):
            _signal.signal(getattr(_signal, name), _signal.SIG_DFL)
    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105 - contextlib would cost this path an import
            stream.flush()
        except (OSError, ValueError):
            pass
    from guard.entry.resident.client import apply_held
    from guard.entry.resident.start import start_pending

    # a resident checker this call found missing (exec runs no atexit): started before this
    # process is restricted, which it must not inherit
    start_pending()
    if "guard.kernel.line_hold" in sys.modules:  # the line runs held to its ruleset
        from guard.kernel import apply_pending

        apply_pending()
    apply_held()  # the ruleset the resident checker planned for this line, if it answered
    try:
        os.execv(shell, list(argv))
    except OSError as exc:
        raise GuardError(
            f"guard: cannot start the real bash {shell} ({exc.strerror}); nothing ran."
            " Set GUARD_REAL_SHELL to bash's absolute path"
        ) from None


def _say(message: str) -> None:
    try:  # noqa: SIM105 - contextlib would cost this path an import
        print(escaped(message), file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
