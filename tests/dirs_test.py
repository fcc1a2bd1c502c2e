"""Where guard's files are: the environment as os.environ says it, a name unset or set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from guard.dirs import environ_get, user_runtime_dir


@pytest.mark.parametrize("value", ["/run/user/1000", "", " spaced ", "caf\u00e9", "x\udcff"])
def test_a_set_name_reads_as_os_environ_says(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("GUARD_TEST_NAME", value)
    assert environ_get("GUARD_TEST_NAME") == os.environ["GUARD_TEST_NAME"] == value
    assert environ_get("GUARD_TEST_NAME", "other") == value


def test_an_unset_name_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GUARD_TEST_NAME", raising=False)
    assert environ_get("GUARD_TEST_NAME") == ""
    assert environ_get("GUARD_TEST_NAME", "fallback") == "fallback"


def test_the_runtime_directory_follows_a_change_of_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/4242")
    assert user_runtime_dir() == "/run/user/4242/guard"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert user_runtime_dir() == f"/tmp/runtime-{os.getuid()}/guard"


def test_the_shell_hook_and_the_agents_config_name_the_same_guard_program() -> None:
    """One guard_program: `guard init`'s hook, `guarded-bash`'s hook and `guard setup`'s
    agent commands all run the guard guard.dirs.guard_program finds."""
    import shlex

    from guard import dirs
    from guard.entry.agents import config
    from guard.entry.shell_hooks import init

    program = dirs.guard_program()
    assert program is not None and os.path.isabs(program)
    assert init.guard_program() == config.guard_program() == program
    assert f"__guard_bin={shlex.quote(program)}\n" in init.render("bash", init.guard_program())
    assert config.guard_call("claude-code").startswith(f"{shlex.quote(program)} hook claude-code ")


def test_guard_program_is_none_when_there_is_none(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import sys

    from guard import dirs
    from guard.entry.agents import config
    from guard.entry.shell_hooks import init
    from guard.errors import GuardError

    monkeypatch.setattr(sys, "argv", [str(tmp_path / "pytest")])
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert dirs.guard_program() is None
    assert config.guard_program() == "guard"
    try:
        init.guard_program()
    except GuardError:
        pass
    else:
        raise AssertionError("init.guard_program without a guard program")
