"""guarded-bash as agents and scripts meet it: what it refuses, what it lets through unchanged.

Every run is a real process started in a new session (no controlling terminal, as agents run
commands), in a temporary workspace. The directory above the workspace is outside it; a user
policy makes writing there ask, so with nobody to ask it is refused.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from shells import answer

BIN = Path(sys.executable).parent
SHIM = str(BIN / "guarded-bash")
REFUSED = 126


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A workspace whose parent asks for every access, whatever the shipped policy says."""
    workspace = tmp_path / "work"
    workspace.mkdir()
    monkeypatch.setenv("GUARD_WORKSPACE", str(workspace))
    monkeypatch.delenv("BASH_ENV", raising=False)
    write_policy(
        f'[[rules]]\nsurface = "external_directory"\npattern = "{tmp_path}/**"\naction = "ask"\n'
    )
    return workspace


def write_policy(text: str) -> None:
    path = Path(os.environ["GUARD_CONFIG"])
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        handle.write(text)


def shim(
    *args: str, cwd: Path, stdin: str | bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [SHIM, *args], input=data, stdin=None if data is not None else subprocess.DEVNULL,
        capture_output=True, cwd=cwd, env={**os.environ, **(env or {})}, timeout=60,
        check=False, start_new_session=True,
    )  # fmt: skip


def bash(*args: str, cwd: Path, stdin: str) -> subprocess.CompletedProcess[bytes]:
    """The real bash, given the argv[0] guarded-bash sees, so messages name the same shell."""
    return subprocess.run(
        [SHIM, *args], executable="/bin/bash", input=stdin.encode(), capture_output=True,
        cwd=cwd, timeout=60, check=False,
    )  # fmt: skip


def run_with_stdin(executable: str, path: Path, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    with path.open("rb") as handle:
        return subprocess.run(
            [SHIM], executable=executable, stdin=handle, capture_output=True, cwd=cwd,
            timeout=60, check=False,
        )  # fmt: skip


def assert_refused(done: subprocess.CompletedProcess[bytes]) -> str:
    """Status 126 and exactly one line on stderr, a `guard:` line; returns it."""
    lines = done.stderr.decode().splitlines()
    assert (done.returncode, len(lines)) == (REFUSED, 1), done.stderr.decode()
    assert lines[0].startswith("guard: ")
    assert done.stdout == b""
    return lines[0]


# (argv, stdin): each would create ../marker, outside the workspace, and must not
REFUSED_RUNS: list[tuple[tuple[str, ...], str | None]] = [
    (("-c", "touch ../marker"), None),
    (("-lc", "touch ../marker"), None),
    (("-c", "-l", "touch ../marker"), None),
    (("-c", 'eval "$1"', "_", "touch ../marker"), None),
    (("-c", '"$@"', "_", "touch", "../marker"), None),
    (("-c", 'bash -c "$1"', "_", "touch ../marker"), None),
    (("-c", "echo first; touch ../marker"), None),
    (("-c", "echo $(touch ../marker)"), None),
    (("-c", 'eval "$0"', "touch ../marker"), None),
    (("script.sh",), None),
    (("script.sh", "../marker"), None),
    ((), "touch ../marker\n"),
    (("-s", "x"), "echo first\ntouch ../marker\n"),
    (("-",), "touch ../marker\n"),
]


@pytest.mark.parametrize(("argv", "stdin"), REFUSED_RUNS, ids=lambda v: repr(v))
def test_a_refused_line_runs_nothing_and_says_so_in_one_guard_line(
    argv: tuple[str, ...], stdin: str | None, work: Path
) -> None:
    (work / "script.sh").write_text('echo first\ntouch "${1:-../marker}"\n')
    assert_refused(shim(*argv, cwd=work, stdin=stdin))
    assert not (work.parent / "marker").exists()


def test_an_agent_style_login_call_without_a_terminal_is_refused(work: Path) -> None:
    done = subprocess.run(
        ["setsid", SHIM, "-lc", "touch ../x"], stdin=subprocess.DEVNULL, capture_output=True,
        cwd=work, timeout=60, check=False,
    )  # fmt: skip
    line = assert_refused(done)
    assert "denied" in line
    assert not (work.parent / "x").exists()


def test_a_rule_that_denies_is_refused_with_its_reason(work: Path) -> None:
    write_policy('[[rules]]\nsurface = "command"\npattern = "curl *"\naction = "deny"\n')
    line = assert_refused(shim("-c", "curl http://example.invalid > out", cwd=work))
    assert "curl" in line
    assert not (work / "out").exists()


def test_a_script_outside_the_workspace_asks_even_when_its_lines_are_harmless(
    work: Path,
) -> None:
    outside = work.parent / "outside.sh"
    outside.write_text("echo harmless > made-here\n")
    assert_refused(shim(str(outside), cwd=work))
    assert not (work / "made-here").exists()
    (work / "inside.sh").write_text("echo harmless > made-here\n")
    assert shim("inside.sh", cwd=work).returncode == 0
    assert (work / "made-here").read_text() == "harmless\n"


def test_a_script_too_long_to_check_asks_and_does_not_run(work: Path) -> None:
    (work / "long.sh").write_text("touch marker\n" + "# padding\n" * 10_000)
    assert_refused(shim("long.sh", cwd=work))
    assert not (work / "marker").exists()


@pytest.mark.parametrize(
    "stdin",
    [
        "echo one\nread line\necho \"read: $line\"\nsecond line\necho three\n",
        "echo no newline at the end",
        "",
        "printf '%s\\n' \"$0\" \"$#\"\nexit 4\n",
    ],
)
def test_commands_on_stdin_run_as_bash_runs_them(stdin: str, work: Path) -> None:
    guarded, real = shim(cwd=work, stdin=stdin), bash(cwd=work, stdin=stdin)
    assert (guarded.returncode, guarded.stdout, guarded.stderr) == (
        real.returncode, real.stdout, real.stderr
    )


def test_stdin_from_a_file_is_rewound_for_bash(work: Path) -> None:
    commands = work / "commands"
    commands.write_text('echo from file\nread rest\necho "rest: $rest"\nleft over\n')
    guarded = run_with_stdin(SHIM, commands, work)
    real = run_with_stdin("/bin/bash", commands, work)
    assert (guarded.returncode, guarded.stdout, guarded.stderr) == (
        real.returncode, real.stdout, real.stderr
    )
    assert guarded.stdout.startswith(b"from file\n")


def test_too_long_input_that_the_policy_allows_reaches_bash_whole(work: Path) -> None:
    write_policy('[defaults]\nsyntax = "allow"\n')
    big = "# padding\n" * 20_000 + "echo the end\n"
    done = shim(cwd=work, stdin=big)
    assert (done.returncode, done.stdout) == (0, b"the end\n")
    (work / "gen.sh").write_text(f"cat <<'EOF'\n{big}EOF\n")
    piped = subprocess.run(
        ["/bin/bash", "-c", f'{SHIM} <(bash gen.sh) a; echo "status $?"'], capture_output=True,
        cwd=work, timeout=60, check=False,
    )  # fmt: skip
    assert piped.stdout == b"the end\nstatus 0\n"


def test_a_script_from_a_pipe_is_read_once_and_bash_runs_those_bytes(work: Path) -> None:
    done = subprocess.run(
        ["/bin/bash", "-c", f"{SHIM} <(echo 'echo \"$0 $1\"') arg"], capture_output=True,
        cwd=work, timeout=60, check=False,
    )  # fmt: skip
    assert done.stdout.decode().startswith("/dev/fd/")
    assert done.stdout.decode().endswith(" arg\n")
    refused = subprocess.run(
        ["/bin/bash", "-c", f"{SHIM} <(echo 'touch ../marker'); echo \"status $?\""],
        capture_output=True, cwd=work, timeout=60, check=False, start_new_session=True,
    )  # fmt: skip
    assert refused.stdout == b"status 126\n"
    assert not (work.parent / "marker").exists()


def test_a_named_pipe_script_is_read_once(work: Path) -> None:
    fifo = work / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["/bin/sh", "-c", f"echo 'echo from fifo' > {fifo}"])
    done = shim(str(fifo), cwd=work)
    writer.wait(timeout=30)
    assert (done.returncode, done.stdout) == (0, b"from fifo\n")


def test_a_wrapper_that_execs_its_arguments_comes_back_through_the_shim(
    work: Path, tmp_path: Path
) -> None:
    """`. "$1" && shift && exec "$@"`: with guarded-bash as `bash` first in PATH, the command
    the wrapper execs is checked again when it reaches bash."""
    subprocess.run(
        [str(BIN / "guard"), "install-shell", "--dir", str(tmp_path / "bin")],
        check=True, capture_output=True,
    )  # fmt: skip
    # guard cannot follow `shift`, so the wrapper's own `exec "$@"` asks; this policy lets it
    write_policy(
        '[[rules]]\nsurface = "dynamic"\npattern = "*$@*"\nrole = "command_name"\n'
        'action = "allow"\n'
    )
    (work / "env.sh").write_text("export FROM_ENV=yes\n")
    path = {"PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}"}
    wrapper = ". \"$1\" && shift && exec \"$@\""
    inner_ok = 'echo "$FROM_ENV" > inner-ran'
    ok = shim("-c", wrapper, "_", "./env.sh", "bash", "-c", inner_ok, cwd=work, env=path)
    assert ok.returncode == 0, ok.stderr
    assert (work / "inner-ran").read_text() == "yes\n"
    inner_bad = "touch ../marker"
    bad = shim("-c", wrapper, "_", "./env.sh", "bash", "-c", inner_bad, cwd=work, env=path)
    assert_refused(bad)
    assert not (work.parent / "marker").exists()


def test_the_real_bash_is_never_looked_up_in_path(work: Path, tmp_path: Path) -> None:
    fake = tmp_path / "fake-bin"
    fake.mkdir()
    (fake / "bash").write_text("#!/bin/sh\ntouch \"$HOME/fake-ran\"\n")
    (fake / "bash").chmod(0o755)
    done = shim("-c", "echo real", cwd=work, env={"PATH": f"{fake}:{os.environ['PATH']}"})
    assert (done.returncode, done.stdout) == (0, b"real\n")
    assert not (Path(os.environ["HOME"]) / "fake-ran").exists()


@pytest.mark.parametrize(
    ("real_shell", "says"),
    [
        ("bash", "must be an absolute path"),
        (SHIM, "is guarded-bash itself"),
        ("/nonexistent/bash", "cannot start the real bash"),
    ],
)
def test_a_bad_real_shell_is_refused_before_anything_runs(
    real_shell: str, says: str, work: Path
) -> None:
    done = shim("-c", "touch made", cwd=work, env={"GUARD_REAL_SHELL": real_shell})
    assert says in assert_refused(done)
    assert not (work / "made").exists()


def test_a_launcher_given_as_the_real_shell_is_recognised_and_refused(
    work: Path, tmp_path: Path
) -> None:
    for flag in ([], ["--script"]) if shutil.which("cc") else (["--script"],):
        out = tmp_path / f"bin{len(flag)}"
        subprocess.run(
            [str(BIN / "guard"), "install-shell", "--dir", str(out), *flag],
            check=True, capture_output=True,
        )  # fmt: skip
        done = shim("-c", "touch made", cwd=work, env={"GUARD_REAL_SHELL": str(out / "bash")})
        assert "is guarded-bash itself" in assert_refused(done)
    assert not (work / "made").exists()


def test_an_inherited_argv0_is_ignored_and_not_passed_on(work: Path) -> None:
    code = 'shopt -q login_shell && echo login; echo "${GUARD_ARGV0-unset}"'
    done = shim("-c", code, cwd=work, env={"GUARD_ARGV0": "1:-bash"})
    assert done.stdout == b"unset\n"


def test_bash_gets_the_default_sigpipe_that_python_ignores(work: Path) -> None:
    guarded = shim("-c", "yes | head -n 1", cwd=work)
    assert (guarded.returncode, guarded.stdout, guarded.stderr) == (0, b"y\n", b"")


def test_no_prompt_library_is_imported_when_nobody_is_asked(work: Path) -> None:
    done = shim("-c", "true", cwd=work, env={"PYTHONPROFILEIMPORTTIME": "1"})
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.decode().splitlines()}
    assert done.returncode == 0
    assert "guard.entry.check" in imported  # the profile is there: the line was judged
    assert "argparse" not in imported
    assert not {name for name in imported if name.startswith("prompt_toolkit")}


@pytest.mark.pty
@pytest.mark.parametrize(("key", "status", "ran"), [("y", 0, True), ("n", REFUSED, False)])
def test_with_a_terminal_in_front_a_human_answers_for_the_line(
    key: str, status: int, ran: bool, work: Path
) -> None:
    child = pexpect.spawn(
        SHIM, ["-c", "touch ../marker && echo made"], cwd=str(work),
        env={**os.environ, "TERM": "dumb"}, encoding="utf-8", timeout=30,
    )  # fmt: skip
    child.delaybeforesend = None
    child.expect("needs your approval")
    child.expect("deny")
    answer(child, key)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status
    assert (work.parent / "marker").exists() == ran
    assert ("made" in str(child.before)) == ran


def interactive(work: Path, *args: str) -> pexpect.spawn:
    child = pexpect.spawn(
        SHIM, list(args), cwd=str(work), encoding="utf-8", timeout=30,
        env={**os.environ, "TERM": "dumb", "GUARD_HOOK_TIMEOUT": "20"},
    )  # fmt: skip
    child.delaybeforesend = None
    return child


@pytest.mark.pty
@pytest.mark.parametrize(
    ("args", "startup_file", "marker"),
    [
        ((), ".bashrc", "from-bashrc"),
        (("-i",), ".bashrc", "from-bashrc"),
        (("-l",), ".bash_profile", "from-profile"),
        (("--login",), ".profile", "from-profile"),
        (("--rcfile", "custom-rc"), "custom-rc", "from-custom"),
        (("--norc",), None, "no-rc"),
    ],
)
def test_an_interactive_shell_reads_the_startup_files_then_checks_every_line(
    args: tuple[str, ...], startup_file: str | None, marker: str, work: Path, tmp_path: Path
) -> None:
    """A typed allowed line runs; a denied one is dropped whole; the user's files ran first."""
    home = Path(os.environ["HOME"])
    write_policy(
        f'[[rules]]\nsurface = "external_directory"\npattern = "{tmp_path}/**"\naction = "deny"\n'
    )
    for name in (".bashrc", ".bash_profile", ".profile"):  # the ones bash must not read
        if name != ".bash_profile" or startup_file != ".profile":  # it would come first
            (home / name).write_text("MARK=wrong-file\n")
    if startup_file:
        path = work / startup_file if startup_file == "custom-rc" else home / startup_file
        path.write_text(f"MARK={marker}\nPS1='guarded$ '\n")
    child = interactive(work, *args)
    if startup_file is None:
        child.sendline("PS1='guarded$ '")
    child.expect_exact("guarded$ ")
    child.sendline('echo "mark=${MARK-no-rc}"')
    child.expect_exact(f"mark={marker}")
    child.expect_exact("guarded$ ")
    child.sendline("echo before; touch ../marker; echo after")
    child.expect_exact("guarded$ ")
    shown = str(child.before).splitlines()
    assert any(line.startswith("guard: ") for line in shown), shown
    assert "before" not in [line.strip() for line in shown]  # only the typed line says it
    child.sendline("exit 0")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert not (tmp_path / "marker").exists()


@pytest.mark.pty
def test_an_interactive_shell_whose_hook_cannot_load_stops_before_reading_a_line(
    work: Path, tmp_path: Path
) -> None:
    (Path(os.environ["HOME"]) / ".bashrc").write_text("readonly PS0=''\n")
    child = interactive(work)
    child.sendline("touch ../marker")
    child.expect_exact("guard: the shell hook did not load")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == REFUSED
    assert not (tmp_path / "marker").exists()


@pytest.mark.pty
def test_an_interactive_shell_keeps_the_other_options_and_the_arguments(work: Path) -> None:
    (Path(os.environ["HOME"]) / ".bashrc").write_text("PS1='guarded$ '\n")
    child = interactive(work, "-O", "extglob", "-s", "a", "-b")
    child.expect_exact("guarded$ ")
    child.sendline('shopt -q extglob && echo "args:$0:$#:$1:$2"')
    child.expect_exact(f"args:{SHIM}:2:a:-b")
    child.sendline("exit")
    child.expect(pexpect.EOF)


@pytest.mark.pty
@pytest.mark.skipif(shutil.which("cc") is None, reason="needs the native launcher")
def test_a_login_shell_named_by_argv0_reads_the_profile_and_checks_lines(
    work: Path, tmp_path: Path
) -> None:
    subprocess.run(
        [str(BIN / "guard"), "install-shell", "--dir", str(tmp_path / "bin")],
        check=True, capture_output=True,
    )  # fmt: skip
    home = Path(os.environ["HOME"])
    (home / ".bash_profile").write_text("PS1='login$ '\n")
    (home / ".bashrc").write_text("PS1='not-login$ '\n")
    child = pexpect.spawn(
        "/bin/bash", ["-c", f"exec -a -bash {tmp_path / 'bin' / 'bash'}"], cwd=str(work),
        encoding="utf-8", timeout=30, env={**os.environ, "TERM": "dumb"},
    )  # fmt: skip
    child.delaybeforesend = None
    child.expect_exact("login$ ")
    child.sendline("touch ../marker")
    child.expect("needs your approval")  # the policy asks; the human says no
    child.expect("deny")
    answer(child, "n")
    child.expect_exact("login$ ")
    child.sendline("exit")
    child.expect(pexpect.EOF)
    assert not (tmp_path / "marker").exists()


def test_a_script_swapped_after_its_check_does_not_run(work: Path, tmp_path: Path) -> None:
    """Red-team finding: bash opened the script path again after guard checked it, so a file
    swapped in between ran unchecked. bash now runs the checked copy."""
    script = work / "s.sh"
    script.write_text("echo checked\n")
    marker = tmp_path / "swapped-marker"
    swapper = tmp_path / "swapping-bash"  # swaps the script the moment guard execs "bash"
    swapper.write_text(f"#!/bin/sh\nprintf 'touch {marker}\\n' > {script}\nexec /bin/bash \"$@\"\n")
    swapper.chmod(0o755)
    done = shim(str(script), cwd=work, env={"GUARD_REAL_SHELL": str(swapper)})
    assert script.read_text().startswith("touch ")  # the swap happened before bash ran
    assert done.returncode == 0
    assert b"checked" in done.stdout
    assert not marker.exists()


@pytest.mark.pty
@pytest.mark.parametrize("quiet", ["", "1"])
def test_an_interactive_shell_starts_with_a_one_line_banner_unless_quiet(
    quiet: str, work: Path
) -> None:
    child = pexpect.spawn(
        SHIM, ["--norc"], cwd=str(work), encoding="utf-8", timeout=30,
        env={**os.environ, "TERM": "dumb", "GUARD_QUIET": quiet},
    )  # fmt: skip
    child.delaybeforesend = None
    child.sendline("echo READY-$((6 * 7))")
    child.expect_exact("READY-42")
    shown = str(child.before).replace("\r", "")
    child.sendline("exit")
    child.expect(pexpect.EOF)
    banner = (f"guard: guarded bash — workspace {work}; policy: shipped default + "
              f"{os.environ['GUARD_CONFIG']}; questions: this terminal (no approver running). "
              "GUARD_QUIET=1 hides this line\n")  # fmt: skip
    assert (banner in shown) is (quiet == "")
    assert "guard:" not in shown.replace(banner, "")
