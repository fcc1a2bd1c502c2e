"""The policy's `[enforce]` table and the mode a session's lines run in."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from guard.policy.enforce_policy import enforcement_mode
from guard.policy.files import check_policy_file, load_policy, render_policy


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


@pytest.fixture
def user_file() -> Path:
    return Path(os.environ["GUARD_CONFIG"])


def test_the_enforce_table_sets_the_mode_and_adds_paths(
    user_file: Path, isolated_home: Path
) -> None:
    write(user_file, """
        [enforce]
        mode = "require"
        write = ["~/.cache/bazel", "/srv/build/"]
        read = ["/mnt/data"]
    """)
    policy = load_policy(None)
    assert policy.problems == ()
    assert policy.enforce.mode == "require"
    assert policy.enforce.mode_source == f"{user_file}:2"
    assert policy.enforce.write == (f"{isolated_home}/.cache/bazel", "/srv/build")
    assert policy.enforce.read == ("/mnt/data",)
    shown = render_policy(policy)
    assert f"enforce: mode require  ({user_file}:2)" in shown
    assert "  write /srv/build" in shown


CHECKS = [
    ('[enforce]\nmode = "on"\n', 2,
     'unknown enforce mode "on"; write one of off, landlock, require'),
    ("[enforce]\nmode = true\n", 2,
     'enforce.mode must be a string, not true/false; write mode = "off"'),
    ('[enforce]\n\nmodes = "off"\n', 3,
     'unknown key "modes" in [enforce]; write one of mode, write, read (did you mean "mode"?)'),
    ('[enforce]\nwrite = "~/.npm"\n', 2, 'enforce.write must be a list of paths; write write = ['),
    ('[enforce]\nmode = "off"\nread = ["data"]\n', 3,
     'enforce.read path "data" is relative; write an absolute path'),
    ('enforce = "landlock"\n', 1, 'enforce must be a table; write [enforce] and mode = "landlock"'),
]  # fmt: skip


@pytest.mark.parametrize(("text", "line", "message"), CHECKS)
def test_each_mistake_in_the_enforce_table_is_reported_with_its_line(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(text)
    (problem,) = check_policy_file(str(path))
    assert problem.startswith(f"{path}:{line}: {message}")


def test_a_later_file_sets_the_mode_and_the_lists_add_up(user_file: Path, tmp_path: Path) -> None:
    write(user_file, '[enforce]\nmode = "off"\nwrite = ["/srv/a"]\n')
    write(tmp_path / "ws" / ".guard.toml", '[enforce]\nmode = "landlock"\nwrite = ["/srv/b"]\n')
    policy = load_policy(str(tmp_path / "ws"))
    assert policy.enforce.mode == "landlock"
    assert policy.enforce.write == ("/srv/a", "/srv/b")


@pytest.mark.parametrize(
    ("user", "project", "mode", "ignored"),
    [
        (None, "off", None, "enforce mode = off"),  # may not turn enforcement off for agents
        ("landlock", "off", "landlock", "enforce mode = off"),
        ("landlock", "require", "require", ""),  # may raise it
        (None, "landlock", "landlock", ""),  # on for people too: tighter
    ],
)
def test_an_untrusted_project_file_may_only_raise_the_mode(
    user_file: Path, tmp_path: Path, user: str | None, project: str, mode: str | None, ignored: str
) -> None:
    if user:
        write(user_file, f'[enforce]\nmode = "{user}"\n')
    write(tmp_path / "ws" / ".guard.toml", f'[enforce]\nmode = "{project}"\nread = ["/"]\n')
    policy = load_policy(str(tmp_path / "ws"), trust_project=False)
    assert policy.enforce.mode == mode
    assert policy.enforce.read == ()  # never widens what a line may touch
    notes = " ".join(policy.ignored)
    assert "enforce write/read paths" in notes and "not trusted" in notes
    assert (ignored in notes) if ignored else ("enforce mode" not in notes)


@pytest.mark.parametrize(
    ("configured", "env", "agent", "mode"),
    [
        (None, "", True, "landlock"),  # an agent's session enforces by default
        (None, "", False, "off"),  # a person's does not
        ("landlock", "", False, "landlock"),
        ("off", "", True, "off"),
        (None, "off", True, "off"),
        (None, "0", True, "off"),
        (None, "1", False, "landlock"),
        ("off", "require", False, "require"),
        ("require", "off", True, "require"),  # the environment cannot lower a required mode
        (None, "landlok", True, "require"),  # a typo never turns enforcement off
    ],
)
def test_the_mode_comes_from_the_environment_the_policy_or_who_runs_the_session(
    user_file: Path, configured: str | None, env: str, agent: bool, mode: str
) -> None:
    if configured:
        write(user_file, f'[enforce]\nmode = "{configured}"\n')
    policy = load_policy(None)
    assert enforcement_mode(policy, {"GUARD_ENFORCE": env} if env else {}, agent=agent) == mode
