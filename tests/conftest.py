"""Shared fixtures. Every test runs with its own HOME, XDG dirs, config and state: the real home
directory and the user's configuration are never touched."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    # A directory of its own in the temp dir, not one of pytest's thousands of siblings: guard's
    # state and config (protected paths) live here, and an enforced line's Landlock cover splits
    # each directory on the way to a protected path into its entries (up to a limit).
    base = Path(tempfile.mkdtemp(prefix="guard-home-"))
    home = base / "home"
    home.mkdir()
    for name in list(os.environ):
        if name.startswith("GUARD_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(base / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(base / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(base / "cache"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(base / "run"))
    (base / "run").mkdir(mode=0o700)
    monkeypatch.setenv("GUARD_STATE_DIR", str(base / "state" / "guard"))
    monkeypatch.setenv("GUARD_CONFIG", str(base / "config" / "guard" / "policy.toml"))
    monkeypatch.setenv("NO_COLOR", "1")
    # no resident checker unless a test starts one (tests/entry/resident_test.py): every guard check
    # and guarded-bash in the suite checks in-process, and none leaves a checker running
    monkeypatch.setenv("GUARD_RESIDENT", "0")
    yield home
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project directory named by GUARD_WORKSPACE (a module's own `workspace` overrides it)."""
    ws = tmp_path / "ws"
    ws.mkdir()
    monkeypatch.setenv("GUARD_WORKSPACE", str(ws))
    return ws
