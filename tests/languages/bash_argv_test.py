"""bash's argv, read as bash 5.2 reads it — every table here is also run through the real bash.

In the argv tables, "CMD" stands for a command string and "SCRIPT" for a script file. When the
real bash runs a row, both become a probe that prints what bash made of its argv ($BASH_EXECUTION_
STRING, $0, $-, $@, login_shell, posix, restricted_shell); the probe is also what stdin holds, so a
shell that reads stdin runs it too.
"""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guard.languages.bash_argv import BashInvocation, login_from_argv0, parse_bash_argv

BASH = shutil.which("bash") or "/bin/bash"
PROBE = (
    'printf \'%s\\0\' \'<probe>\' "${BASH_EXECUTION_STRING-(none)}" "$0" "$-" "$#" "$@";'
    " shopt -q login_shell && printf L; shopt -qo posix && printf P;"
    " shopt -q restricted_shell && printf R; exit 0\n"
)


@dataclass(frozen=True, slots=True)
class Seen:
    """What a bash said about itself: how it ran the probe, or that it did not."""

    mode: str  # command, script, stdin, interactive; "" when the probe did not run
    command: str | None = None
    arg0: str | None = None
    positional: tuple[str, ...] = ()
    login: bool = False
    posix: bool = False
    restricted: bool = False


def clean_env() -> dict[str, str]:
    drop = {"BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def read_probe(out: bytes, script: str) -> Seen:
    text = out.decode(errors="surrogateescape")
    if "<probe>\0" not in text:
        return Seen("")
    execution, arg0, dash, count, *args, flags = text.split("<probe>\0", 1)[1].split("\0")
    assert len(args) == int(count)
    if execution != "(none)":
        mode = "command"
    elif "i" in dash:
        mode = "interactive"
    else:
        mode = "script" if arg0 == script else "stdin"
    return Seen(
        mode,
        command=execution if mode == "command" else None,
        arg0=arg0,
        positional=tuple(args),
        login="L" in flags,
        posix="P" in flags,
        restricted="R" in flags,
    )


def fill(argv: tuple[str, ...], script: Path) -> list[str]:
    return [PROBE if a == "CMD" else str(script) if a == "SCRIPT" else a for a in argv]


def run_bash(
    argv: list[str], cwd: Path, env: dict[str, str] | None = None
) -> tuple[int, bytes, str]:
    """The real bash, stdin a pipe holding the probe, stderr a pipe: never interactive unless -i."""
    done = subprocess.run(
        argv, executable=BASH, input=PROBE.encode(), capture_output=True,
        env=env or clean_env(), cwd=cwd, timeout=30, check=False,
    )  # fmt: skip
    return done.returncode, done.stdout, done.stderr.decode(errors="surrogateescape")


def run_bash_on_terminal(argv: list[str], cwd: Path, *, stderr_is_tty: bool) -> bytes:
    """The real bash with a pseudo-terminal as stdin (and stderr); the probe is typed into it."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        argv, executable=BASH, stdin=slave, stdout=subprocess.PIPE,
        stderr=slave if stderr_is_tty else subprocess.DEVNULL, env=clean_env(), cwd=cwd,
        start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    try:
        os.write(master, PROBE.encode())
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
    return out


def predicted(inv: BashInvocation) -> Seen:
    if inv.mode not in ("command", "script", "stdin", "interactive"):
        return Seen("")
    return Seen(
        inv.mode, inv.command, inv.arg0, inv.positional, inv.login, inv.posix, inv.restricted
    )


@pytest.fixture
def script(tmp_path: Path) -> Path:
    path = tmp_path / "probe.sh"
    path.write_text(PROBE)
    return path


# argv (argv[0] first) → mode, command, $0, $1 …
RUNS: list[tuple[tuple[str, ...], str, str | None, str | None, tuple[str, ...]]] = [
    (("bash", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-c", "CMD", "z", "a", "b"), "command", "CMD", "z", ("a", "b")),
    (("-bash", "-c", "CMD"), "command", "CMD", "-bash", ()),
    (("/opt/guarded-bash", "-c", "CMD", "", "x"), "command", "CMD", "", ("x",)),
    (("bash", "-lc", "CMD", "z"), "command", "CMD", "z", ()),
    (("bash", "-cl", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-c", "-l", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-l", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "--login", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-login", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "--norc", "--noprofile", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-norc", "-rcfile", "F", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "--rcfile", "-c", "SCRIPT", "a"), "script", None, "SCRIPT", ("a",)),
    (("bash", "-o", "errexit", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "+o", "errexit", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-O", "extglob", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "+O", "extglob", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-oc", "errexit", "CMD", "z"), "command", "CMD", "z", ()),
    (("bash", "-co", "errexit", "CMD", "z"), "command", "CMD", "z", ()),
    (("bash", "-ooc", "errexit", "nounset", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-lOc", "extglob", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "+norc", "errexit", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "+c", "CMD", "q"), "command", "CMD", "q", ()),
    (("bash", "-c", "-", "CMD", "q"), "command", "CMD", "q", ()),
    (("bash", "-c", "--", "CMD", "q"), "command", "CMD", "q", ()),
    (("bash", "-c", "+", "CMD", "q"), "command", "CMD", "q", ()),
    (("bash", "-c", "CMD", "--norc", "-x"), "command", "CMD", "--norc", ("-x",)),
    (("bash", "-sc", "CMD", "a", "b"), "command", "CMD", "a", ("b",)),
    (("bash", "-ec", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-abefhkmptuvxBCEHPT", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-r", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "+r", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "--restricted", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("rbash", "+r", "-c", "CMD"), "command", "CMD", "rbash", ()),
    (("/x/-rbash", "-c", "CMD"), "command", "CMD", "/x/-rbash", ()),
    (("bash", "--posix", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-o", "posix", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "--posix", "+o", "posix", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("sh", "+o", "posix", "-c", "CMD"), "command", "CMD", "sh", ()),
    (("-/bin/sh", "-c", "CMD"), "command", "CMD", "-/bin/sh", ()),
    (("/x/-sh", "-c", "CMD"), "command", "CMD", "/x/-sh", ()),
    (("-", "-c", "CMD"), "command", "CMD", "-", ()),
    (("bash", "-i", "+i", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-ic", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "--debug", "--verbose", "--noediting", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "--pretty-print", "-c", "CMD"), "command", "CMD", "bash", ()),
    (("bash", "-c", "-o"), "error", None, None, ()),
    (("bash", "SCRIPT", "a", "b"), "script", None, "SCRIPT", ("a", "b")),
    (("bash", "-x", "SCRIPT", "-c"), "script", None, "SCRIPT", ("-c",)),
    (("bash", "--", "SCRIPT", "-c"), "script", None, "SCRIPT", ("-c",)),
    (("bash", "-l", "SCRIPT"), "script", None, "SCRIPT", ()),
    (("bash",), "stdin", None, "bash", ()),
    (("-bash",), "stdin", None, "-bash", ()),
    (("bash", "-"), "stdin", None, "bash", ()),
    (("bash", "--"), "stdin", None, "bash", ()),
    (("bash", "-s", "a", "b"), "stdin", None, "bash", ("a", "b")),
    (("bash", "-s", "--", "-c"), "stdin", None, "bash", ("-c",)),
    (("bash", "-o"), "stdin", None, "bash", ()),
    (("bash", "-s", "+O"), "stdin", None, "bash", ()),
    (("bash", "+O", "-s", "x"), "error", None, None, ()),
    (("bash", "-i"), "interactive", None, "bash", ()),
    (("bash", "-is", "a"), "interactive", None, "bash", ("a",)),
]


@pytest.mark.parametrize(("argv", "mode", "command", "arg0", "positional"), RUNS)
def test_an_argv_is_read_as_bash_reads_it(
    argv: tuple[str, ...], mode: str, command: str | None, arg0: str | None, positional: tuple
) -> None:
    inv = parse_bash_argv(argv, stdin_is_tty=False, stderr_is_tty=False)
    assert (inv.mode, inv.command, inv.arg0, inv.positional) == (mode, command, arg0, positional)


@pytest.mark.parametrize("argv", [row[0] for row in RUNS if row[1] != "error"])
def test_the_real_bash_runs_what_the_parser_predicts(argv: tuple[str, ...], script: Path) -> None:
    real = fill(argv, script)
    inv = parse_bash_argv(real, stdin_is_tty=False, stderr_is_tty=False)
    status, out, err = run_bash(real, script.parent)
    assert (status, read_probe(out, str(script))) == (0, predicted(inv)), err


# argv, stdin is a terminal, stderr is a terminal → mode
TERMINALS: list[tuple[tuple[str, ...], bool, str]] = [
    (("bash",), True, "interactive"),
    (("bash",), False, "stdin"),
    (("-bash",), True, "interactive"),
    (("bash", "-"), True, "interactive"),
    (("bash", "-s", "a"), True, "interactive"),
    (("bash", "+i"), True, "interactive"),
    (("bash", "-i", "+i"), False, "stdin"),
    (("bash", "-i"), False, "interactive"),
    (("bash", "-c", "CMD"), True, "command"),
    (("bash", "SCRIPT"), True, "script"),
]


@pytest.mark.pty
@pytest.mark.parametrize(("argv", "stderr_is_tty", "mode"), TERMINALS)
def test_a_terminal_on_stdin_and_stderr_makes_a_shell_interactive(
    argv: tuple[str, ...], stderr_is_tty: bool, mode: str, script: Path
) -> None:
    real = fill(argv, script)
    inv = parse_bash_argv(real, stdin_is_tty=True, stderr_is_tty=stderr_is_tty)
    assert inv.mode == mode
    out = run_bash_on_terminal(real, script.parent, stderr_is_tty=stderr_is_tty)
    assert read_probe(out, str(script)) == predicted(inv)


def test_a_pipe_on_stdin_never_makes_a_shell_interactive_without_i() -> None:
    for stderr_is_tty in (True, False):
        assert parse_bash_argv(["bash"], stdin_is_tty=False, stderr_is_tty=stderr_is_tty).mode == (
            "stdin"
        )


# argv → bash's message and exit status; nothing runs (with -e set first, bash exits 1 at once)
ERRORS: list[tuple[tuple[str, ...], str, int]] = [
    (("bash", "-c"), "bash: -c: option requires an argument", 2),
    (("bash", "-c", "-"), "bash: -c: option requires an argument", 2),
    (("bash", "-c", "-o"), "bash: -c: option requires an argument", 2),
    (("bash", "-s", "-c"), "bash: -c: option requires an argument", 2),
    (("/usr/bin/guarded-bash", "-lc"), "/usr/bin/guarded-bash: -c: option requires an argument", 2),
    (("bash", "-c", "--norc", "true"), "bash: --: invalid option", 2),
    (("bash", "-c", "--version"), "bash: --: invalid option", 2),
    (("bash", "-l", "--norc", "-c", "true"), "bash: --: invalid option", 2),
    (("bash", "--bogus"), "bash: --bogus: invalid option", 2),
    (("bash", "---"), "bash: ---: invalid option", 2),
    (("bash", "--help", "--bogus"), "bash: --bogus: invalid option", 2),
    (("bash", "--wordexp", "-c", "true"), "bash: --wordexp: invalid option", 2),
    (("bash", "-z"), "bash: -z: invalid option", 2),
    (("bash", "+z"), "bash: +z: invalid option", 2),
    (("bash", "-1"), "bash: -1: invalid option", 2),
    (("bash", "-x+e"), "bash: -+: invalid option", 2),
    (("bash", "-e+x"), "bash: -+: invalid option", 1),
    (("bash", "-ez"), "bash: -z: invalid option", 1),
    (("bash", "-ze"), "bash: -z: invalid option", 2),
    (("bash", "-ec"), "bash: -c: option requires an argument", 1),
    (("bash", "-o", "errexit", "-c"), "bash: -c: option requires an argument", 1),
    (("bash", "-e", "+o", "errexit", "-c"), "bash: -c: option requires an argument", 2),
    (("bash", "-e", "+e", "-c"), "bash: -c: option requires an argument", 2),
    (("bash", "-O", "errexit", "-c"), "bash: -c: option requires an argument", 2),
    (("bash", "-e", "-o", "bogus"), "bash: line 0: bash: bogus: invalid option name", 2),
    (("bash", "-e", "-O", "bogus", "-c", "x"), "bash: line 0: bogus: invalid shell option name", 2),
    (("bash", "-e", "-r", "+r"), "bash: +r: invalid option", 1),
    (("bash", "-cé", "true"), "bash: -\udcc3: invalid option", 2),
    (("-", "-z"), "-: -z: invalid option", 2),
    (("", "-z"), ": -z: invalid option", 2),
    (("bash", "-r", "+r", "-c", "true"), "bash: +r: invalid option", 2),
    (("bash", "--restricted", "+r", "-c", "true"), "bash: +r: invalid option", 2),
    (("bash", "--rcfile"), "bash: rcfile: option requires an argument", 2),
    (("bash", "--norc", "-init-file"), "bash: init-file: option requires an argument", 2),
    (("bash", "-o", "bogus", "-c", "true"), "bash: line 0: bash: bogus: invalid option name", 2),
    (("/x/y", "-o", "bogus"), "/x/y: line 0: /x/y: bogus: invalid option name", 2),
    (("", "-o", "bogus"), ": line 0: bash: bogus: invalid option name", 2),
    (("bash", "+o", "errex", "-c", "true"), "bash: line 0: bash: errex: invalid option name", 2),
    (("bash", "-o", "ERREXIT"), "bash: line 0: bash: ERREXIT: invalid option name", 2),
    (("bash", "-oc", "true"), "bash: line 0: bash: true: invalid option name", 2),
    (("bash", "-oo", "errexit", "-c", "true"), "bash: line 0: bash: -c: invalid option name", 2),
    (("bash", "-O", "bogus", "-o", "bad"), "bash: line 0: bash: bad: invalid option name", 2),
    (("bash", "-O", "bogus", "-c"), "bash: -c: option requires an argument", 2),
    (("bash", "-O", "bogus", "-c", "x", "z"), "bash: line 0: bogus: invalid shell option name", 2),
    (("bash", "+O", "-s", "x"), "bash: line 0: -s: invalid shell option name", 2),
    (("", "-O", "bogus"), ": line 0: bogus: invalid shell option name", 2),
    (("bash", "-i", "-O", "bogus"), "bash: bogus: invalid shell option name", 2),
    (("/a/-b", "-i", "-O", "bogus"), "-b: bogus: invalid shell option name", 2),
]


@pytest.mark.parametrize(("argv", "message", "status"), ERRORS)
def test_bash_refuses_these_with_the_same_message_and_status(
    argv: tuple[str, ...], message: str, status: int, tmp_path: Path
) -> None:
    inv = parse_bash_argv(argv, stdin_is_tty=False, stderr_is_tty=False)
    assert (inv.mode, inv.error, inv.exit_status, inv.command) == ("error", message, status, None)
    real_status, out, err = run_bash(list(argv), tmp_path)
    assert (real_status, err.splitlines()[0]) == (status, message)
    assert b"<probe>" not in out


# argv → mode; bash prints and exits 0 without reading anything else
INFO: list[tuple[tuple[str, ...], str]] = [
    (("bash", "--version"), "version"),
    (("bash", "--version", "-c", "true"), "version"),
    (("bash", "-version", "-z"), "version"),
    (("bash", "--help"), "help"),
    (("bash", "-help"), "help"),
    (("bash", "--version", "--help"), "help"),
    (("bash", "--norc", "--help", "--rcfile", "F", "-c"), "help"),
]


@pytest.mark.parametrize(("argv", "mode"), INFO)
def test_version_and_help_print_and_run_nothing(
    argv: tuple[str, ...], mode: str, tmp_path: Path
) -> None:
    inv = parse_bash_argv(argv, stdin_is_tty=True, stderr_is_tty=True)
    assert (inv.mode, inv.command, inv.arg0, inv.error) == (mode, None, None, None)
    assert inv.exit_status == 0
    status, out, _ = run_bash(list(argv), tmp_path)
    assert (status, out.startswith(b"GNU bash, version"), b"Usage:" in out) == (
        0, True, mode == "help",
    )  # fmt: skip


# argv → (norc, noprofile, rcfile) and the startup files the real bash reads
STARTUP: list[tuple[tuple[str, ...], tuple[bool, bool, str | None], str]] = [
    (("bash", "-i"), (False, False, None), "bashrc"),
    (("bash", "--norc", "-i"), (True, False, None), ""),
    (("bash", "--rcfile", "RC", "-i"), (False, False, "RC"), "rc"),
    (("bash", "--init-file", "RC", "-i"), (False, False, "RC"), "rc"),
    (("bash", "--rcfile", "X", "-init-file", "RC", "-i"), (False, False, "RC"), "rc"),
    (("bash", "--norc", "--rcfile", "RC", "-i"), (True, False, "RC"), ""),
    (("bash", "-l", "-c", "true"), (False, False, None), "profile"),
    (("bash", "--noprofile", "-l", "-c", "true"), (False, True, None), ""),
    (("bash", "-noprofile", "--login", "-i"), (False, True, None), ""),
    (("bash", "--login", "-i"), (False, False, None), "profile"),
]


@pytest.mark.parametrize(("argv", "fields", "reads"), STARTUP)
def test_norc_noprofile_and_rcfile_are_what_bash_obeys(
    argv: tuple[str, ...], fields: tuple[bool, bool, str | None], reads: str, tmp_path: Path
) -> None:
    inv = parse_bash_argv(argv, stdin_is_tty=False, stderr_is_tty=False)
    assert (inv.norc, inv.noprofile, inv.rcfile) == fields
    home = tmp_path / "home"
    home.mkdir()
    for name, word in ((".bashrc", "bashrc"), (".bash_profile", "profile"), ("RC", "rc")):
        (home / name).write_text(f"printf '[{word}]'\n")
    real = [str(home / "RC") if a == "RC" else a for a in argv]
    _, out, _ = run_bash(real, home, clean_env() | {"HOME": str(home)})
    assert out.decode().split("<probe>")[0].replace("[", " ").replace("]", " ").split() == (
        [reads] if reads else []
    )


def test_options_are_kept_in_the_order_bash_read_them() -> None:
    argv = ["bash", "--norc", "-rcfile", "F", "-eo", "pipefail", "+O", "extglob", "-lc", "x", "-o"]
    assert parse_bash_argv(argv, stdin_is_tty=False, stderr_is_tty=False).options == (
        "--norc", "--rcfile F", "-e", "-o pipefail", "+O extglob", "-l", "-c",
    )  # fmt: skip
    listing = parse_bash_argv(["bash", "-s", "+o"], stdin_is_tty=False, stderr_is_tty=False)
    assert (listing.mode, listing.options) == ("stdin", ("-s", "+o"))


# argv → (login, interactive_flag, restricted, posix)
FLAGS: list[tuple[tuple[str, ...], tuple[bool, bool, bool, bool]]] = [
    (("bash", "-c", "x"), (False, False, False, False)),
    (("-bash", "-c", "x"), (True, False, False, False)),
    (("bash", "+l", "-c", "x"), (True, False, False, False)),
    (("bash", "-i", "-c", "x"), (False, True, False, False)),
    (("bash", "-i", "+i", "-c", "x"), (False, False, False, False)),
    (("rbash", "-c", "x"), (False, False, True, False)),
    (("-sh", "-r", "-c", "x"), (True, False, True, True)),
    (("/bin/sh", "+o", "posix"), (False, False, False, True)),
    (("bash", "--posix", "+o", "posix"), (False, False, False, False)),
    (("/", "-c", "x"), (False, False, False, False)),
    (("sh/", "-c", "x"), (False, False, False, False)),
]


@pytest.mark.parametrize(("argv", "flags"), FLAGS)
def test_login_interactive_restricted_and_posix_flags(
    argv: tuple[str, ...], flags: tuple[bool, bool, bool, bool]
) -> None:
    inv = parse_bash_argv(argv, stdin_is_tty=False, stderr_is_tty=False)
    assert (inv.login, inv.interactive_flag, inv.restricted, inv.posix) == flags


@pytest.mark.parametrize(
    ("argv0", "login"),
    [("-bash", True), ("-", True), ("-/usr/bin/guarded-bash", True), ("bash", False),
     ("/usr/bin/-bash", False), ("", False)],
)  # fmt: skip
def test_a_leading_dash_in_argv0_asks_for_a_login_shell(argv0: str, login: bool) -> None:
    assert login_from_argv0(argv0) is login
    inv = parse_bash_argv([argv0, "-c", "x"], stdin_is_tty=False, stderr_is_tty=False)
    assert inv.login is login


def test_an_empty_argv_is_read_as_bash_with_no_arguments() -> None:
    inv = parse_bash_argv([], stdin_is_tty=False, stderr_is_tty=False)
    assert (inv.mode, inv.arg0) == ("stdin", "bash")


@settings(max_examples=500, deadline=None)
@given(argv=st.lists(st.text(max_size=8), max_size=8), tty=st.booleans(), err_tty=st.booleans())
def test_any_argv_gives_a_mode_and_never_raises(argv: list[str], tty: bool, err_tty: bool) -> None:
    inv = parse_bash_argv(argv, stdin_is_tty=tty, stderr_is_tty=err_tty)
    assert inv.mode in ("command", "script", "stdin", "interactive", "version", "help", "error")
    assert (inv.mode == "error") == (inv.error is not None) == (inv.exit_status in (1, 2))
    assert (inv.mode == "command") == (inv.command is not None)
    assert (inv.mode == "script") == (inv.script is not None)
    if inv.command is not None:
        assert inv.command in argv[1:]


# Tokens for argvs that real bash reads with BASH_ENV: that hook reports what bash would run
# ($BASH_EXECUTION_STRING, $0, $@) and exits before any of it runs. Options that skip BASH_ENV
# (-i, -p, -n, -D, --posix, argv[0] sh) are covered by the tables above instead.
ARGV0S = ["bash", "-bash", "/opt/bin/guarded-bash", "", "-", "rbash"]
TOKENS = [
    "-c", "+c", "-l", "-s", "-e", "+e", "-x", "-u", "-o", "+o", "-O", "+O", "-lc", "-cl", "-oc",
    "-co", "-ec", "-sc", "-Oc", "-lO", "-rc", "-", "--", "+", "--login", "-login", "--norc",
    "-norc", "--noprofile", "--rcfile", "--init-file", "--verbose", "--version", "--help",
    "--bogus", "-z", "+z", "-r", "+r", "--restricted", "errexit", "nounset", "pipefail", "bogus",
    "extglob", "nullglob", "w1", "w2", "x y", "", "echo hi", "a=b",
]  # fmt: skip
HOOK = (
    'printf \'%s\\0\' "${BASH_EXECUTION_STRING-(none)}" "$0" "$#" "$@" > "$PROBE_OUT";'
    ' shopt -q login_shell && printf L >> "$PROBE_OUT"; exit 0\n'
)


ONE_TMP_PATH_FOR_ALL_EXAMPLES = [HealthCheck.function_scoped_fixture]


@settings(max_examples=200, deadline=None, suppress_health_check=ONE_TMP_PATH_FOR_ALL_EXAMPLES)
@given(argv0=st.sampled_from(ARGV0S), rest=st.lists(st.sampled_from(TOKENS), max_size=6))
def test_the_real_bash_agrees_on_what_it_would_run(
    argv0: str, rest: list[str], tmp_path: Path
) -> None:
    work = tmp_path / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    hook, report = tmp_path / "hook.sh", work / "report"
    hook.write_text(HOOK)
    argv = [argv0, *rest]
    inv = parse_bash_argv(argv, stdin_is_tty=False, stderr_is_tty=False)
    env = clean_env() | {"BASH_ENV": str(hook), "PROBE_OUT": str(report)}
    done = subprocess.run(
        argv, executable=BASH, stdin=subprocess.DEVNULL, capture_output=True, env=env, cwd=work,
        timeout=30, check=False,
    )  # fmt: skip
    if inv.mode in ("version", "help", "error"):
        assert not report.exists()
        first = done.stderr.decode(errors="surrogateescape").partition("\n")[0]
        assert (done.returncode, first if inv.error else None) == (inv.exit_status, inv.error)
        return
    if not report.exists():
        # `-n` (noexec, also inside a cluster such as `-norc`) reads the line and runs nothing,
        # not even BASH_ENV: guard reading what it would run errs on the strict side
        assert any(w == "noexec" or (w[:1] in "-+" and w[1:2] != "-" and "n" in w) for w in rest)
        return
    execution, arg0, count, *args, flags = report.read_bytes().decode().split("\0")
    assert len(args) == int(count)
    expected_execution = inv.command if inv.mode == "command" else "(none)"
    assert (execution, arg0, tuple(args), flags == "L") == (
        expected_execution, inv.arg0, inv.positional, inv.login,
    )  # fmt: skip
    assert inv.mode != "interactive"
