"""The real Codex CLI with `guard setup codex`: what runs, what is blocked, and what the model
reads, end to end.

Codex (from the npm registry, installed once into a cache directory under the system's temp
dir) runs `codex exec` against tests/mock_responses.py, a stdlib mock of the Responses API,
inside a network namespace that has only loopback (`unshare --net`), with a HOME of the
test's own. The mock asks for one shell call; a marker file shows whether it ran, and the mock
logs what the model was told. Skipped where npm, the registry or unshare is not available.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pexpect
import pytest

GUARD = [sys.executable, "-m", "guard"]
CODEX_VERSION = "0.171.0"
MOCK = Path(__file__).with_name("mock_responses.py")
PORT = 8931  # inside the test's own network namespace: nothing else listens there

CONFIG = """\
model = "gpt-5.1-codex"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"

[analytics]
enabled = false

[feedback]
enabled = false

[features]
plugins = false
"""


@pytest.fixture(scope="session")
def codex() -> Path:
    if shutil.which("npm") is None or shutil.which("unshare") is None:
        pytest.skip("npm or unshare is not installed")
    probe = subprocess.run(["unshare", "--net", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"no network namespace here: {probe.stderr.decode().strip()}")
    prefix = Path(tempfile.gettempdir()) / "guard-test-npm" / f"codex-{CODEX_VERSION}"
    binary = prefix / "node_modules" / ".bin" / "codex"
    if not binary.exists():
        done = subprocess.run(
            ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund",
             f"@openai/codex@{CODEX_VERSION}"],
            capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        if done.returncode != 0 or not binary.exists():
            pytest.skip(f"could not install Codex from npm: {done.stderr.strip()[-300:]}")
    return binary


@dataclass
class Run:
    ran: bool
    told: list[str]  # what the model read as the call's output
    log: str


@dataclass
class World:
    codex: Path
    root: Path
    env: dict[str, str]

    @property
    def workspace(self) -> Path:
        return self.root / "ws"

    def start(self, command: str, *flags: str) -> subprocess.Popen[str]:
        log = self.root / "mock.log"
        log.unlink(missing_ok=True)
        inner = (
            f"ip link set lo up && {{ {shlex.quote(sys.executable)} {shlex.quote(str(MOCK))} "
            f"{PORT} {shlex.quote(command)} {shlex.quote(str(log))} & }} && sleep 1 && "
            f"timeout 90 {shlex.quote(str(self.codex))} exec {' '.join(flags)} "
            "--skip-git-repo-check 'run it'; status=$?; kill %1; exit $status"
        )
        return subprocess.Popen(
            ["unshare", "--net", "bash", "-c", inner], cwd=self.workspace, env=self.env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip

    def finish(self, running: subprocess.Popen[str], marker: Path) -> Run:
        out, _ = running.communicate(timeout=120)
        lines = (self.root / "mock.log").read_text().splitlines()
        told = [o for line in lines for o in json.loads(line)]
        return Run(marker.exists(), told, out)

    def run(self, command: str, marker: Path, *flags: str) -> Run:
        return self.finish(self.start(command, *flags), marker)


TRUSTED = "--dangerously-bypass-hook-trust"  # what trusting the hook in /hooks does for exec


@pytest.fixture
def world(codex: Path, tmp_path: Path) -> Iterator[World]:
    home = Path(os.environ["HOME"])
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(CONFIG.format(port=PORT))
    (tmp_path / "ws").mkdir()
    runtime = Path(tempfile.mkdtemp(prefix="ge", dir="/tmp"))  # socket paths must stay short
    env = {
        **os.environ,
        "CODEX_HOME": str(home / ".codex"),
        "MOCK_API_KEY": "not-a-key",
        "GUARD_WORKSPACE": str(tmp_path / "ws"),
        "GUARD_APPROVER_SOCKET": str(runtime / "approver.sock"),
        "GUARD_APPROVER_CONTROL": str(runtime / "control.sock"),
        "TERM": "xterm",
    }
    done = subprocess.run([*GUARD, "setup", "codex"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    yield World(codex, tmp_path, env)
    for child in runtime.iterdir():
        child.unlink()
    runtime.rmdir()


def test_an_everyday_command_runs(world: World) -> None:
    marker = world.workspace / "made"
    result = world.run(f"touch {marker}", marker, TRUSTED)
    assert result.ran, result.log


def test_a_write_outside_the_workspace_is_blocked_and_the_model_reads_how_to_approve(
    world: World,
) -> None:
    marker = world.root / "outside"
    result = world.run(f"touch {marker}", marker, TRUSTED)
    assert not result.ran, result.log
    (told,) = result.told
    assert told.startswith(f"Command blocked by PreToolUse hook: guard: denied `touch {marker}`")
    assert "start `guard watch`" in told
    assert "guard approvals grant --session codex:" in told


@pytest.mark.parametrize(("key", "ran"), [("y", True), ("n", False)])
def test_the_human_at_guard_watch_decides_a_held_call(world: World, key: str, ran: bool) -> None:
    human = pexpect.spawn(
        GUARD[0], [*GUARD[1:], "watch"], env=world.env, encoding="utf-8", timeout=60,
        dimensions=(50, 200),
    )  # fmt: skip
    human.delaybeforesend = None
    human.expect("waiting for requests")
    marker = world.root / "outside"
    running = world.start(f"touch {marker}", TRUSTED)
    human.expect_exact("via codex")
    human.expect_exact("[n] deny")
    human.send(key)
    result = world.finish(running, marker)
    assert result.ran is ran, result.log
    human.send("q")
    human.expect(pexpect.EOF)


def test_an_untrusted_hook_is_skipped_by_codex_which_is_why_setup_says_to_trust_it(
    world: World,
) -> None:
    marker = world.root / "outside"
    result = world.run(f"touch {marker}", marker)
    assert result.ran, "Codex ran guard's untrusted hook: the note in guard setup is out of date"
    assert result.told and not result.told[0].startswith("Command blocked")
