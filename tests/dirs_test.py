"""Where guard's files are: the environment as os.environ says it, a name unset or set."""

from __future__ import annotations

import os

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
