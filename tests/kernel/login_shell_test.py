"""A login shell under enforcement (issue 26.8): `guarded-bash -lc CMD` in an agent's session
runs the user's profile held to the line's ruleset. Real login bash, real Landlock, a temp HOME
whose profile keeps its tools' state as version managers do; in-process and through the
resident checker.

An ordinary profile runs cleanly: the version managers' shims and state are granted (and only
they: home and its start-up files stay read-only, secrets withheld). What a profile writes
elsewhere fails as the kernel makes it fail, and a `guard:` line says which file writes what,
and how to let lines write it (`[enforce] write`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from checkers import checker_pids

from guard.entry.resident import protocol as wire
from guard.entry.resident.client import request

BIN = Path(sys.executable).parent
SHIM = str(BIN / "guarded-bash")
GUARD = str(BIN / "guard")


def _landlock() -> str:
    from guard.kernel.landlock import abi_version

    found = abi_version()
    return "" if isinstance(found, int) else found


NO_LANDLOCK = _landlock()
pytestmark = pytest.mark.skipif(bool(NO_LANDLOCK), reason=f"no Landlock here: {NO_LANDLOCK}")

# what `pyenv init -`, `rbenv init -`, `asdf` and `mise activate` do while a shell starts: a
# rehash writes a new shim (pyenv: a prototype shim under noclobber), mise keeps its state
PROFILE = """\
for tool in .pyenv .rbenv .asdf; do
    set -o noclobber
    : > "$HOME/$tool/shims/.$tool-shim-$$" || echo "rehash failed: $tool"
    set +o noclobber
done
date > "$HOME/.local/state/mise/last-activate" || echo "mise failed"
"""
WRITES_ELSEWHERE = 'echo "$$" >> "$HOME/.profile-log"\n'


@pytest.fixture
def home(tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))  # not the one that holds home
    for name in ("PYENV_ROOT", "RBENV_ROOT", "ASDF_DATA_DIR", "MISE_STATE_DIR", "BASH_ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GUARD_AGENT", "1")
    for tool in (".pyenv", ".rbenv", ".asdf"):
        (isolated_home / tool / "shims").mkdir(parents=True)
    (isolated_home / ".local" / "state" / "mise").mkdir(parents=True)
    (isolated_home / ".ssh").mkdir()
    (isolated_home / ".ssh" / "id_ed25519").write_text("PRIVATE KEY\n")
    (isolated_home / ".bash_profile").write_text(PROFILE)
    return isolated_home


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    return workspace


def login(line: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SHIM, "-lc", line], cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True,
        stdin=subprocess.DEVNULL, start_new_session=True, timeout=120, check=False,
    )  # fmt: skip


def shims(home: Path) -> int:
    return sum(len(list((home / t / "shims").iterdir())) for t in (".pyenv", ".rbenv", ".asdf"))


def test_an_ordinary_profile_runs_cleanly_and_keeps_its_tools_state(home: Path, ws: Path) -> None:
    done = login("echo ran", ws)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ran\n", "")
    assert shims(home) == 3
    assert (home / ".local" / "state" / "mise" / "last-activate").exists()


def test_home_its_start_up_files_and_secrets_stay_held(home: Path, ws: Path) -> None:
    """The tools' directories are granted, not what is around them."""
    line = (
        'echo x > ~/.pyenv/version; echo x >> ~/.bash_profile; echo x > ~/new-file; '
        "cat ~/.ssh/id_ed25519; echo end"
    )
    helper = ws / "helper.sh"
    helper.write_text(f"#!/bin/sh\n{line}\n")
    helper.chmod(0o755)
    done = login("./helper.sh", ws)
    assert done.stdout == "end\n"
    assert done.stderr.count("Permission denied") == 4
    assert not (home / ".pyenv" / "version").exists()
    assert (home / ".bash_profile").read_text() == PROFILE
    assert not (home / "new-file").exists()


def test_a_write_the_kernel_holds_is_explained_by_a_guard_line(home: Path, ws: Path) -> None:
    (home / ".bash_profile").write_text(PROFILE + WRITES_ELSEWHERE)
    done = login("echo ran", ws)
    assert done.returncode == 0 and done.stdout == "ran\n"
    told = done.stderr.splitlines()
    assert told[0] == (
        "guard: ~/.bash_profile line 7 writes ~/.profile-log, which an enforced line may not "
        "create (Permission denied); to let lines write it, create it once yourself, then add "
        f'"~/.profile-log" to [enforce] write in {os.environ["GUARD_CONFIG"]}'
    )
    assert told[1].endswith(".profile-log: Permission denied")  # bash's own word, after
    assert len(told) == 2
    # as it says: made once, then granted in the policy, the profile runs cleanly
    (home / ".profile-log").write_text("")
    config = Path(os.environ["GUARD_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[enforce]\nwrite = ["~/.profile-log"]\n')
    again = login("echo ran", ws)
    assert (again.returncode, again.stdout, again.stderr) == (0, "ran\n", "")
    assert (home / ".profile-log").read_text().strip().isdigit()


def test_a_file_the_profile_sources_is_read_too(home: Path, ws: Path) -> None:
    (home / ".tool-env").write_text("\n\nmkdir -p ~/.mytool\n")
    (home / ".bash_profile").write_text(PROFILE + '. "$HOME/.tool-env"\n')
    done = login("true", ws)
    assert done.stderr.splitlines()[0].startswith(
        "guard: ~/.tool-env line 3 writes ~/.mytool, which an enforced line may not create"
    )
    assert not login("true", ws, GUARD_ENFORCE="off").stderr  # checked only: nothing to say


@pytest.fixture
def resident(monkeypatch: pytest.MonkeyPatch, ws: Path, home: Path) -> Iterator[None]:
    monkeypatch.delenv("GUARD_RESIDENT")
    monkeypatch.setenv("GUARD_RESIDENT_IDLE", "60")
    path = wire.socket_path(os.environ)
    try:
        subprocess.run([GUARD, "check", "--", "true"], cwd=ws, check=False,
                       stdin=subprocess.DEVNULL, capture_output=True)  # fmt: skip
        deadline = time.monotonic() + 30
        while request([("kind", "status")]) is None:
            assert time.monotonic() < deadline, "the checker did not start"
            time.sleep(0.05)
        yield
    finally:
        request([("kind", "stop")])
        for pid in checker_pids(path):
            os.kill(pid, signal.SIGKILL)


def _served() -> int:
    answer = request([("kind", "status")])
    assert answer is not None
    return int(wire.first(answer, "served"))


def test_through_the_resident_checker_the_same_is_said(
    home: Path, ws: Path, resident: None
) -> None:
    (home / ".bash_profile").write_text(PROFILE + WRITES_ELSEWHERE)
    before = _served()
    through = login("echo ran", ws)
    assert _served() == before + 1  # answered by the checker
    alone = login("echo ran", ws, GUARD_RESIDENT="0")
    assert through.stdout == alone.stdout == "ran\n"
    assert through.stderr.splitlines()[0] == alone.stderr.splitlines()[0]
    assert through.stderr.splitlines()[0].startswith("guard: ~/.bash_profile line 7 writes")
    assert shims(home) == 6
