"""`guard doctor`: what it says about the shell hook, the policy, the store and the terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from shells import Shell, have

from guard.cli.doctor import tiocsti_finding


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


def doctor(*args: str) -> tuple[str, int]:
    done = subprocess.run(
        [sys.executable, "-m", "guard", "doctor", *args],
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    return done.stdout, done.returncode


def line(out: str, area: str) -> str:
    return "\n".join(row for row in out.splitlines() if row.split()[1:2] == [area])


@pytest.fixture(params=["bash", "zsh"])
def shell(request: pytest.FixtureRequest, workspace: Path) -> Iterator[Shell]:
    if not have(request.param):
        pytest.skip(f"{request.param} is not installed")
    s = Shell(request.param, workspace)
    yield s
    s.close()


@pytest.mark.pty
def test_in_a_guarded_shell_the_hook_is_loaded_and_intact(shell: Shell) -> None:
    out, status = shell.run("guard doctor")
    assert line(out, "hook").startswith(f"ok       hook    {shell.shell} hook loaded and intact")
    assert status == 0


@pytest.mark.pty
@pytest.mark.parametrize(
    ("shell_name", "tamper", "says"),
    [
        ("bash", "PS0=", "PS0 no longer runs guard's check"),
        ("bash", "trap - USR2", "the USR2 trap is not guard's"),
        ("bash", "PROMPT_COMMAND=", "PROMPT_COMMAND lost __guard_precmd"),
        ("zsh", "preexec_functions=(other __guard_preexec)", "is not the first preexec"),
        ("zsh", "__guard_confirm() { true; }", "redefined since loading: __guard_confirm"),
    ],
)
def test_a_clobbered_hook_is_a_problem_with_a_fix(
    workspace: Path, shell_name: str, tamper: str, says: str
) -> None:
    if not have(shell_name):
        pytest.skip(f"{shell_name} is not installed")
    s = Shell(shell_name, workspace)
    try:
        out, status = s.run(f"{tamper}; guard doctor")
        assert says in line(out, "hook") and "guard init" in line(out, "hook")
        assert status == 1
    finally:
        s.close()


def test_outside_a_guarded_shell_it_says_how_to_load_the_hook() -> None:
    out, _ = doctor()
    assert "not loaded" in line(out, "hook") and 'eval "$(guard init bash)"' in out


def test_rc_files_that_do_not_load_the_hook_are_named() -> None:
    home = Path(os.environ["HOME"])
    (home / ".bashrc").write_text('eval "$(guard init bash)"\n')
    (home / ".zshrc").write_text("setopt autocd\n")
    out, _ = doctor()
    assert f"ok       rc      {home / '.bashrc'} loads the bash hook" in out
    assert f"{home / '.zshrc'} does not load the hook" in out


def test_policy_files_in_effect_and_their_problems() -> None:
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text("[[rules]]\nsurface = 'comand'\n")
    out, status = doctor()
    assert "files in effect: guard/default-policy.toml" in line(out, "policy")
    assert "problem  policy" in out and "comand" in out
    assert status == 1


def test_a_damaged_store_is_a_problem() -> None:
    state = Path(os.environ["GUARD_STATE_DIR"])
    state.mkdir(parents=True, exist_ok=True)
    (state / "guard.db").write_bytes(b"this is not a database" * 100)
    out, status = doctor()
    assert line(out, "store").startswith("problem  store   guard:")
    assert status == 1


def test_a_sound_store_is_ok() -> None:
    out, _ = doctor()
    assert line(out, "store").startswith("ok       store") and "is sound" in out


@pytest.mark.parametrize(
    ("content", "level", "says"),
    [
        ("0\n", "ok", "no keystroke injection"),
        ("1\n", "warning", "sysctl -w dev.tty.legacy_tiocsti=0"),
        (None, "warning", "before Linux 6.2"),
    ],
)
def test_keystroke_injection_into_the_question_is_reported(
    tmp_path: Path, content: str | None, level: str, says: str
) -> None:
    path = tmp_path / "legacy_tiocsti"
    if content is not None:
        path.write_text(content)
    finding = tiocsti_finding(str(path))
    assert finding.level == level and says in finding.message
