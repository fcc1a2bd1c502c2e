"""Real agents with `guard setup AGENT`: what runs, what is blocked, and what the model reads,
end to end, for Claude Code, Codex and Gemini CLI.

Each agent (from the npm registry, installed once into a cache directory under the system's
temp dir) runs headless against tests/mock_models.py, a stdlib mock of its model API, inside a
network namespace that has only loopback (`unshare --net`), with a HOME of the test's own. The
mock asks for one shell call; a marker file shows whether it ran, and the mock logs what the
model was told. The agents run headless (`claude -p`, `codex exec`, `gemini -p`), where nobody
sees an agent's own prompt; most tests run them with GUARD_APPROVER=always (every ask to `guard
watch`), and some without it. Skipped where npm, the registry or unshare is not available.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pexpect
import pytest
from shells import answer

GUARD = [sys.executable, "-m", "guard"]
MOCK = Path(__file__).parents[1] / "mock_models.py"
PORT = 8931  # inside the test's own network namespace: nothing else listens there

CODEX_CONFIG = """\
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
GEMINI_SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "telemetry": {"enabled": False},
    "privacy": {"usageStatisticsEnabled": False},
    "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
}
TRUSTED = "--dangerously-bypass-hook-trust"  # what trusting the hook in /hooks does for exec


@dataclass(frozen=True)
class Agent:
    name: str
    package: str
    binary: str
    api: str

    def configure(self, home: Path) -> dict[str, str]:
        """The agent's own configuration (before `guard setup`), and its environment."""
        if self.name == "claude-code":
            return {
                "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{PORT}",
                "ANTHROPIC_API_KEY": "not-a-key",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_TELEMETRY": "1",
                "DISABLE_AUTOUPDATER": "1",
                "CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
                "GUARD_APPROVER": "always",
            }
        if self.name == "codex":
            (home / ".codex").mkdir()
            (home / ".codex" / "config.toml").write_text(CODEX_CONFIG.format(port=PORT))
            return {
                "CODEX_HOME": str(home / ".codex"),
                "MOCK_API_KEY": "not-a-key",
                "GUARD_APPROVER": "always",  # codex has no prompt for it: always the approver
            }
        (home / ".gemini").mkdir()
        (home / ".gemini" / "settings.json").write_text(json.dumps(GEMINI_SETTINGS))
        return {
            "GEMINI_API_KEY": "not-a-key",
            "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{PORT}",
            "GUARD_APPROVER": "always",
        }

    def argv(self, binary: Path, *, trusted: bool = True) -> list[str]:
        if self.name == "claude-code":  # no permission flags: guard's allow is what lets it run
            return [str(binary), "-p", "run it"]
        if self.name == "codex":
            flags = [TRUSTED] if trusted else []
            return [str(binary), "exec", *flags, "--skip-git-repo-check", "run it"]
        return [str(binary), "-p", "run it", "--yolo", "--skip-trust", "-m", "gemini-2.5-flash"]

    def said(self, told: object) -> str:
        """What the model read as the shell call's result."""
        if isinstance(told, list):  # Claude Code's content blocks
            return "".join(str(b.get("text", "")) for b in told if isinstance(b, dict))
        if isinstance(told, dict):
            return str(told.get("error") or told.get("output") or "")
        return str(told)


AGENTS = {
    "claude-code": Agent("claude-code", "@anthropic-ai/claude-code@2.1.332", "claude", "anthropic"),
    "codex": Agent("codex", "@openai/codex@0.171.0", "codex", "responses"),
    "gemini": Agent("gemini", "@google/gemini-cli@0.61.0", "gemini", "gemini"),
}
BLOCKED = {
    "claude-code": "PreToolUse:Bash hook error: ",
    "codex": "Command blocked by PreToolUse hook: ",
    "gemini": "Tool execution blocked: ",
}


def installed(agent: Agent) -> Path:
    if shutil.which("npm") is None or shutil.which("unshare") is None:
        pytest.skip("npm or unshare is not installed")
    probe = subprocess.run(["unshare", "--net", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"no network namespace here: {probe.stderr.decode().strip()}")
    cache = agent.package.replace("/", "+")
    prefix = Path(tempfile.gettempdir()) / "guard-test-npm" / cache
    binary = prefix / "node_modules" / ".bin" / agent.binary
    if not binary.exists():
        done = subprocess.run(
            ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", agent.package],
            capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        if done.returncode != 0 or not binary.exists():
            pytest.skip(f"could not install {agent.package}: {done.stderr.strip()[-300:]}")
    return binary


@dataclass
class Run:
    ran: bool
    told: list[str]  # what the model read as the call's result
    log: str


@dataclass
class World:
    agent: Agent
    binary: Path
    root: Path
    env: dict[str, str]

    @property
    def workspace(self) -> Path:
        return self.root / "ws"

    def start(self, command: str, *, trusted: bool = True) -> subprocess.Popen[str]:
        log = self.root / "mock.log"
        log.unlink(missing_ok=True)
        mock = shlex.join([sys.executable, str(MOCK), self.agent.api, str(PORT), command, str(log)])
        run = shlex.join(["timeout", "90", *self.agent.argv(self.binary, trusted=trusted)])
        inner = (
            f"ip link set lo up && {{ {mock} & }} && sleep 1 && {run}; status=$?; kill %1; "
            "exit $status"
        )
        return subprocess.Popen(
            ["unshare", "--net", "bash", "-c", inner], cwd=self.workspace, env=self.env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip

    def finish(self, running: subprocess.Popen[str], marker: Path) -> Run:
        out, _ = running.communicate(timeout=150)
        lines = (self.root / "mock.log").read_text().splitlines()
        told = [self.agent.said(t) for line in lines for t in json.loads(line)]
        return Run(marker.exists(), told, out)

    def run(self, command: str, marker: Path, *, trusted: bool = True) -> Run:
        return self.finish(self.start(command, trusted=trusted), marker)


@pytest.fixture(params=list(AGENTS))
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    agent = AGENTS[request.param]
    binary = installed(agent)
    home = Path(os.environ["HOME"])
    (tmp_path / "ws").mkdir()
    runtime = Path(tempfile.mkdtemp(prefix="ge", dir="/tmp"))  # socket paths must stay short
    env = {
        **os.environ,
        **agent.configure(home),
        "GUARD_WORKSPACE": str(tmp_path / "ws"),
        "GUARD_APPROVER_SOCKET": str(runtime / "approver.sock"),
        "GUARD_APPROVER_CONTROL": str(runtime / "control.sock"),
        "TERM": "xterm",
    }
    done = subprocess.run([*GUARD, "setup", agent.name], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    yield World(agent, binary, tmp_path, env)
    for child in runtime.iterdir():
        child.unlink()
    runtime.rmdir()


def test_an_everyday_command_runs(world: World) -> None:
    marker = world.workspace / "made"
    result = world.run(f"touch {marker}", marker)
    assert result.ran, result.log


def test_a_write_outside_the_workspace_is_blocked_and_the_model_reads_how_to_approve(
    world: World,
) -> None:
    marker = world.root / "outside"
    result = world.run(f"touch {marker}", marker)
    assert not result.ran, result.log
    (told,) = result.told
    blocked = BLOCKED[world.agent.name]
    assert told.startswith(f"{blocked}guard: denied `touch {marker}`"), told
    assert "start `guard watch`" in told
    assert f"guard approvals grant --session {world.agent.name}:" in told


@pytest.mark.parametrize(("key", "ran"), [("y", True), ("n", False)])
def test_the_human_at_guard_watch_decides_a_held_call(world: World, key: str, ran: bool) -> None:
    human = pexpect.spawn(
        GUARD[0], [*GUARD[1:], "watch"], env=world.env, encoding="utf-8", timeout=90,
        dimensions=(50, 200),
    )  # fmt: skip
    human.delaybeforesend = None
    human.expect("waiting for requests")
    marker = world.root / "outside"
    running = world.start(f"touch {marker}")
    human.expect_exact(f"via {world.agent.name}")
    human.expect_exact("[n] deny")
    answer(human, key)
    result = world.finish(running, marker)
    assert result.ran is ran, result.log
    human.send("q")
    human.expect(pexpect.EOF)


def test_an_untrusted_hook_is_skipped_by_codex_which_is_why_setup_says_to_trust_it(
    world: World,
) -> None:
    if world.agent.name != "codex":
        pytest.skip("only Codex asks the user to trust a hook")
    marker = world.root / "outside"
    result = world.run(f"touch {marker}", marker, trusted=False)
    assert result.ran, "Codex ran guard's untrusted hook: the note in guard setup is out of date"
    assert result.told and not result.told[0].startswith("Command blocked")


def test_claude_codes_own_prompt_gets_the_ask_where_there_is_no_approver_setting(
    world: World,
) -> None:
    if world.agent.name != "claude-code":
        pytest.skip("Claude Code's ask")
    world.env.pop("GUARD_APPROVER")
    marker = world.root / "outside"
    result = world.run(f"touch {marker}", marker)
    assert not result.ran, result.log  # headless: Claude Code's prompt is a refusal
    assert result.told == [f"guard asks: write {marker} (touch) is outside the workspace"]


BROKEN = {  # what stands where guard's program was: (file text or None, mode)
    "missing": (None, 0),
    "not executable": ("#!/bin/sh\nexit 0\n", 0o644),
    "crashing": ("#!/bin/sh\necho 'Traceback (most recent call last):' >&2\nexit 1\n", 0o755),
    "killed": ("#!/bin/sh\nkill -9 $$\n", 0o755),
    "hanging": ("#!/bin/sh\nexec sleep 120\n", 0o755),
}


def installed_config(world: World) -> Path:
    home = Path(world.env["HOME"])
    if world.agent.name == "codex":
        return Path(world.env["CODEX_HOME"]) / "hooks.json"
    return home / (".claude" if world.agent.name == "claude-code" else ".gemini") / "settings.json"


# not executable and killed: tests/entry/agent_fail_closed_test.py (the same sh line, quicker)
@pytest.mark.parametrize("broken", ["missing", "crashing", "hanging"])
def test_a_guard_that_cannot_answer_never_lets_the_call_run(world: World, broken: str) -> None:
    """The installed hook command itself denies when guard's program is gone, not executable,
    crashes, is killed, or hangs (stopped by the watchdog, here after 3 s rather than 148 s)."""
    from guard.entry.agents.config import guard_program

    text, mode = BROKEN[broken]
    program = world.root / "bin" / "guard"
    program.parent.mkdir()
    if text is not None:
        program.write_text(text)
        program.chmod(mode)
    config = installed_config(world)
    quoted = json.dumps(shlex.quote(guard_program()))[1:-1]
    changed = config.read_text().replace(quoted, str(program)).replace("t=148;", "t=3;")
    assert changed.count(str(program)) == 1, changed
    config.write_text(changed)
    marker = world.workspace / "made"
    result = world.run(f"touch {marker}", marker)
    assert not result.ran, result.log
    (told,) = result.told
    assert "guard: " in told and "the command was not run (run guard doctor)" in told, told


def test_headless_gemini_is_never_handed_an_ask_it_would_wait_on_forever(world: World) -> None:
    """Without GUARD_APPROVER=always, `gemini -p` used to hang on guard's ask: now the call is
    held for `guard watch`, and with nobody listening denied at once with how to approve."""
    if world.agent.name != "gemini":
        pytest.skip("Gemini CLI's headless ask")
    world.env.pop("GUARD_APPROVER")
    marker = world.root / "outside"
    result = world.run(f"touch {marker}", marker)
    assert not result.ran, result.log
    (told,) = result.told
    assert told.startswith(f"Tool execution blocked: guard: denied `touch {marker}`"), told
    assert "start `guard watch`" in told


def test_through_the_resident_checker_the_answers_are_the_same(world: World) -> None:
    """Every agent's hook goes through the per-user checker (issue 29): an everyday command
    runs, a write outside the workspace is blocked with guard's reason."""
    world.env.pop("GUARD_RESIDENT", None)
    world.env["GUARD_RESIDENT_IDLE"] = "20"
    made = world.workspace / "made"
    assert world.run(f"touch {made}", made).ran
    marker = world.root / "outside"
    result = world.run(f"touch {marker}", marker)
    assert not result.ran, result.log
    (told,) = result.told
    assert told.startswith(f"{BLOCKED[world.agent.name]}guard: denied `touch {marker}`"), told


def _on_screen(child: pexpect.spawn, texts: list[str], seconds: float) -> bool:
    """Whether all of `texts` were drawn, in order, within `seconds`: compared without the
    terminal's escapes, spaces and box lines, so a text wrapped or redrawn by the agent's screen
    still counts (its width and redraws differ with the machine's speed)."""
    wanted = [_bare(text) for text in texts]
    seen = ""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            seen += child.read_nonblocking(65536, timeout=0.5)
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            break
        bare = _bare(seen)
        at = 0
        for text in wanted:
            at = bare.find(text, at)
            if at < 0:
                break
        else:
            return True
    return False


def _bare(text: str) -> str:
    text = re.sub(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-_]", "", text)
    return re.sub(r"[\s│╭╮╰╯─┃]+", "", text)


def test_interactive_gemini_gets_guards_ask_at_its_own_prompt(world: World) -> None:
    """In a terminal, with no GUARD_APPROVER setting, Gemini CLI's own confirmation shows
    guard's reason, and the human's answer there decides (here: allow once, so it runs)."""
    if world.agent.name != "gemini":
        pytest.skip("Gemini CLI's interactive prompt")
    world.env.pop("GUARD_APPROVER")
    for variable in ("CI", "GITHUB_ACTIONS"):  # a CI's own: there Gemini CLI runs headless
        world.env.pop(variable, None)
    marker = world.root / "outside"
    log = world.root / "mock.log"
    mock = shlex.join([sys.executable, str(MOCK), "gemini", str(PORT), f"touch {marker}", str(log)])
    flags = ["-i", "run it", "--skip-trust", "-m", "gemini-2.5-flash"]
    gemini = shlex.join([str(world.binary), *flags])
    inner = f"ip link set lo up && {{ {mock} & }} && sleep 1 && exec {gemini}"
    child = pexpect.spawn(
        "unshare", ["--net", "bash", "-c", inner], env=world.env, cwd=world.workspace,
        encoding="utf-8", timeout=90, dimensions=(40, 150),
    )  # fmt: skip
    try:
        asks = f"guard asks: write {marker} (touch) is outside the workspace"
        assert _on_screen(child, [asks, "Allow once"], 180), log.read_text() if log.exists() else ""
        assert not marker.exists()  # Gemini's own confirmation shows guard's reason, and waits
        child.send("\r")
        deadline = time.monotonic() + 30
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        child.terminate(force=True)
    assert marker.exists(), "the human's allow at Gemini's prompt did not run the call"
