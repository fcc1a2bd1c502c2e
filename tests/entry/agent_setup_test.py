"""`guard setup AGENT`: guard's hook goes into the agent's configuration and comes out again.

Each agent's configuration already holds another tool's hooks and keys guard does not know,
written in a layout of its own (so that "byte for byte" means something). Setup keeps them,
a second run changes nothing, `--uninstall` gives back the original file byte for byte, and
`--dry-run` writes nothing. Everything happens under the test's HOME (tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guard.entry.agents.config import AGENTS, config_path

GUARD = [sys.executable, "-m", "guard"]

EXISTING: dict[str, str] = {
    "claude-code": """{
    "permissions": {"allow": ["Bash(npm test)"]},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --check"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
    },
    "someFutureKey": {"keep": true}
}
""",
    "codex": """{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
  "command": "python3 ~/.codex/hooks/log.py", "timeout": 5}]}],
  "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}]}}
""",
    "cursor": """{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [ { "command": "./hooks/audit.sh", "matcher": "curl|wget" } ],
    "afterFileEdit": [ { "command": "./hooks/format.sh" } ]
  }
}
""",
    "gemini": """{
  "general": {"vimMode": true},
  "hooks": {"BeforeTool": [{"matcher": "write_file",
    "hooks": [{"type": "command", "command": "./lint.sh", "timeout": 30000}]}]}
}
""",
    "copilot": """{"version": 1, "hooks": {"sessionStart": [{"type": "command",
  "bash": "echo started >> ~/copilot.log"}], "preToolUse": [{"type": "command",
  "bash": "./scripts/log-tool.sh", "timeoutSec": 10}]}}
""",
}
OTHER_FILES = {  # agents whose hook is a file of its own: the other tools' files beside it
    "cline": ("TaskStart", "#!/bin/sh\necho '{\"cancel\": false}'\n"),
    "opencode": ("notify.js", "export const Notify = async () => ({})\n"),
}
JSON_AGENTS = list(EXISTING)


def setup(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GUARD, "setup", *args], capture_output=True, text=True, timeout=60, check=False,
        cwd=cwd,
    )  # fmt: skip


def existing(agent: str) -> Path:
    path = config_path(agent)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(EXISTING[agent])
    return path


def commands(data: object) -> list[str]:
    if isinstance(data, dict):
        found = [v for k, v in data.items() if k in ("command", "bash") and isinstance(v, str)]
        return found + [c for v in data.values() for c in commands(v)]
    if isinstance(data, list):
        return [c for v in data for c in commands(v)]
    return []


@pytest.mark.parametrize("agent", JSON_AGENTS)
def test_setup_adds_guards_hook_and_keeps_the_other_hooks_and_keys(agent: str) -> None:
    path = existing(agent)
    before = json.loads(EXISTING[agent])
    done = setup(agent)
    assert done.returncode == 0, done.stderr
    assert f"added guard's hook: {path}" in done.stdout
    after = json.loads(path.read_text())
    assert set(commands(before)) < set(commands(after))
    (ours,) = set(commands(after)) - set(commands(before))
    assert f" hook {agent} --timeout 150)" in ours
    for key in before:
        if key != "hooks":
            assert after[key] == before[key]
    for event, entries in before["hooks"].items():
        assert all(e in after["hooks"][event] for e in entries)
    assert path.with_name(path.name + ".guard-backup").read_text() == EXISTING[agent]


@pytest.mark.parametrize("agent", JSON_AGENTS)
def test_a_second_setup_changes_nothing(agent: str) -> None:
    path = existing(agent)
    setup(agent)
    once = path.read_bytes()
    done = setup(agent)
    assert "unchanged (already set up)" in done.stdout
    assert path.read_bytes() == once


@pytest.mark.parametrize("agent", JSON_AGENTS)
def test_uninstall_gives_back_the_original_file_byte_for_byte(agent: str) -> None:
    path = existing(agent)
    setup(agent)
    done = setup(agent, "--uninstall")
    assert done.returncode == 0, done.stderr
    assert f"restored the original: {path}" in done.stdout
    assert path.read_text() == EXISTING[agent]
    assert not path.with_name(path.name + ".guard-backup").exists()


@pytest.mark.parametrize("agent", JSON_AGENTS)
def test_uninstall_after_the_file_changed_removes_only_guards_hook(agent: str) -> None:
    path = existing(agent)
    setup(agent)
    data = json.loads(path.read_text())
    data["addedLater"] = 1
    path.write_text(json.dumps(data))
    setup(agent, "--uninstall")
    left = json.loads(path.read_text())
    assert left == {**json.loads(EXISTING[agent]), "addedLater": 1}


@pytest.mark.parametrize("agent", list(AGENTS))
def test_dry_run_writes_nothing(agent: str) -> None:
    path = config_path(agent)
    done = setup(agent, "--dry-run")
    assert done.returncode == 0, done.stderr
    assert f"would add guard's hook: {path} (dry run: nothing written)" in done.stdout
    assert not path.exists() and not path.parent.exists()
    if agent in EXISTING:
        existing(agent)
        setup(agent, "--dry-run")
        assert path.read_text() == EXISTING[agent]
        assert sorted(os.listdir(path.parent)) == [path.name]


@pytest.mark.parametrize("agent", list(AGENTS))
def test_setup_without_a_file_creates_it_and_uninstall_removes_it(agent: str) -> None:
    path = config_path(agent)
    beside = None
    if agent in OTHER_FILES:
        name, text = OTHER_FILES[agent]
        beside = path.parent / name
        beside.parent.mkdir(parents=True)
        beside.write_text(text)
    assert setup(agent).returncode == 0
    assert path.exists()
    assert setup(agent).stdout.startswith("unchanged")
    assert setup(agent, "--uninstall").returncode == 0
    assert not path.exists()
    assert not path.with_name(path.name + ".guard-backup").exists()
    if beside is not None:
        assert beside.read_text() == OTHER_FILES[agent][1]


@pytest.mark.parametrize(
    ("agent", "closed"),
    [("claude-code", ("onFailure", "block")), ("cursor", ("failClosed", True))],
)
def test_setup_turns_on_the_agents_fail_closed_option(
    agent: str, closed: tuple[str, object]
) -> None:
    setup(agent)
    hooks = json.loads(config_path(agent).read_text())["hooks"]
    (entry,) = [e for entries in hooks.values() for e in entries]
    handler = entry["hooks"][0] if "hooks" in entry else entry
    assert handler[closed[0]] == closed[1]


def test_the_cline_hook_is_an_executable_script_that_runs_guard() -> None:
    setup("cline")
    path = config_path("cline")
    assert os.access(path, os.X_OK)
    stdin = json.dumps({"hookName": "PreToolUse", "taskId": "t", "workspaceRoots": ["/"],
                        "preToolUse": {"toolName": "read_file", "parameters": {}}})  # fmt: skip
    done = subprocess.run([str(path)], input=stdin, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, '{"cancel": false}\n')


def test_another_tools_cline_hook_is_never_overwritten() -> None:
    path = config_path("cline")
    path.parent.mkdir(parents=True)
    path.write_text("#!/bin/sh\necho '{\"cancel\": false}'\n")
    done = setup("cline")
    assert done.returncode == 1
    assert "is another tool's hook" in done.stderr
    assert path.read_text() == "#!/bin/sh\necho '{\"cancel\": false}'\n"


def test_project_setup_writes_below_the_project(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    done = setup("codex", "--project", cwd=project / "src")
    assert done.returncode == 0, done.stderr
    assert (project / ".codex" / "hooks.json").exists()
    assert not config_path("codex").exists()


def test_setup_prints_what_guard_cannot_do_in_the_agent() -> None:
    done = setup("codex")
    assert "next: Codex skips a new or changed hook until you trust it" in done.stdout
    assert "open /hooks" in done.stdout
    assert "fails closed: yes: the hook command answers with the agent's deny" in done.stdout
    assert "always answers" not in done.stdout


def test_a_configuration_that_is_not_json_is_left_alone() -> None:
    path = config_path("gemini")
    path.parent.mkdir(parents=True)
    path.write_text("{ not json")
    done = setup("gemini")
    assert done.returncode == 1
    assert f"guard: {path} is not JSON" in done.stderr
    assert path.read_text() == "{ not json"


def test_detect_lists_the_agents_found_and_whether_guard_is_installed() -> None:
    config_path("codex").parent.mkdir(parents=True)
    config_path("gemini").parent.mkdir(parents=True)
    setup("gemini")
    done = setup("--detect")
    lines = {line.split()[0]: line for line in done.stdout.splitlines()}
    assert "guard's hook is not installed: guard setup codex" in lines["codex"]
    assert "guard's hook installed in" in lines["gemini"]
    assert lines["gemini"].endswith("; fails closed")


def doctor(cwd: Path) -> list[str]:
    done = subprocess.run(
        [*GUARD, "doctor"], capture_output=True, text=True, timeout=120, check=False, cwd=cwd
    )
    return [line for line in done.stdout.splitlines() if " agents " in line]


def test_doctor_says_where_guards_hook_is_and_whether_it_fails_closed(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    config_path("gemini").parent.mkdir(parents=True)
    setup("claude-code", "--project", cwd=project)
    setup("cursor")
    setup("codex")
    lines = doctor(project)
    claude = project / ".claude" / "settings.json"
    expected = {
        f"ok       agents  claude-code: guard's hook in {claude}; fails closed "
        '(the hook command denies; onFailure: "block")',
        f"ok       agents  cursor: guard's hook in {config_path('cursor')}; fails closed "
        "(the hook command denies; failClosed: true)",
        f"ok       agents  codex: guard's hook in {config_path('codex')}; fails closed "
        "(the hook command denies)",
        "warning  agents  codex: guard's hook is not trusted yet, and Codex skips it silently; "
        "open /hooks in codex, trust it",
        "warning  agents  gemini: found, but guard's hook is not installed; run: guard setup "
        "gemini",
    }
    assert expected <= set(lines)


def test_doctor_sees_the_trust_codex_recorded_for_guards_hook(tmp_path: Path) -> None:
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    setup("codex")
    key = f"{config_path('codex')}:pre_tool_use:0:0"
    (config_path("codex").parent / "config.toml").write_text(
        f'[hooks.state."{key}"]\ntrusted_hash = "sha256:0f"\n'
    )
    assert not any("not trusted" in line for line in doctor(project))


@pytest.mark.parametrize("original", ['{"hooks": {}}\n', "{}", '{"model": "x"}\n'])
def test_uninstall_restores_a_file_that_had_no_hooks_at_all(original: str) -> None:
    path = config_path("codex")
    path.parent.mkdir(parents=True)
    path.write_text(original)
    setup("codex")
    setup("codex", "--uninstall")
    assert path.read_text() == original


def test_doctor_says_where_failing_closed_cannot_be_had(tmp_path: Path) -> None:
    """An older hook command (guard's program run bare) lets Codex run the call when guard is
    gone; without a `timeout` program a hanging guard is not stopped before Gemini's own
    timeout runs the call. Claude Code's onFailure covers a hang by itself."""
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    for agent in ("codex", "gemini", "claude-code"):
        setup(agent)
    path = config_path("codex")
    data = json.loads(path.read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = "/old/bin/guard hook codex"
    path.write_text(json.dumps(data))
    (tmp_path / "empty").mkdir()
    done = subprocess.run(
        [*GUARD, "doctor"], capture_output=True, text=True, timeout=120, check=False, cwd=project,
        env={**os.environ, "PATH": str(tmp_path / "empty")},
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if " agents " in line]
    assert (
        f"warning  agents  codex: guard's hook in {path}; does not fail closed: an older hook "
        "command: codex runs the call when guard is missing or crashes; run guard setup codex "
        "again"
    ) in lines, lines
    assert (
        f"warning  agents  gemini: guard's hook in {config_path('gemini')}; fail-closed cannot be "
        "had here for a hang: no `timeout` program here to stop a guard that hangs, and gemini "
        "runs the call when its own hook timeout passes; install coreutils"
    ) in lines, lines
    assert any(line.startswith("ok       agents  claude-code:") for line in lines), lines


# -- every agent at once: guard setup --all, guard setup --uninstall --all -------------------


@pytest.fixture
def bare_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH with no agent's program on it (only `timeout`, which failing closed uses)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    timeout = shutil.which("timeout")
    assert timeout is not None
    (bindir / "timeout").symlink_to(timeout)
    monkeypatch.setenv("PATH", str(bindir))
    return bindir


def agents_here() -> dict[Path, bytes | None]:
    """What a user who has Claude Code, Codex and OpenCode (and no other agent) has in HOME."""
    existing("claude-code")
    codex = config_path("codex").parent / "config.toml"
    codex.parent.mkdir(parents=True)
    codex.write_text('model = "o3"\n')
    opencode = config_path("opencode").parent.parent / "opencode.json"
    opencode.parent.mkdir(parents=True)
    opencode.write_text("{}\n")
    return tree()


def tree() -> dict[Path, bytes | None]:
    """Every file (its bytes) and directory (None) below HOME and the XDG config dir."""
    found: dict[Path, bytes | None] = {}
    for top in (Path(os.environ["HOME"]), Path(os.environ["XDG_CONFIG_HOME"])):
        for root, dirs, files in os.walk(top):
            found.update({Path(root) / d: None for d in dirs})
            found.update({Path(root) / f: (Path(root) / f).read_bytes() for f in files})
    return found


def test_setup_all_sets_up_every_agent_found_each_failing_closed(bare_path: Path) -> None:
    agents_here()
    done = setup("--all")
    assert done.returncode == 0, done.stderr
    summary = done.stdout.split("summary:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in summary] == ["claude-code", "codex", "opencode"]
    for agent, line in zip(["claude-code", "codex", "opencode"], summary, strict=True):
        assert line.split(None, 1)[1] == f"installed in {config_path(agent)}; fails closed"
    assert "\ncodex:\n  added guard's hook: " in done.stdout
    assert "next: Codex skips a new or changed hook until you trust it" in done.stdout
    assert not config_path("cursor").parent.exists()
    again = setup("--all")
    assert again.stdout.count("unchanged (already set up)") == 3


def test_uninstall_all_takes_out_what_guard_created_and_nothing_else(bare_path: Path) -> None:
    before = agents_here()
    assert setup("cursor").returncode == 0  # an agent this user does not have
    assert setup("cline").returncode == 0
    assert setup("--all").returncode == 0
    done = setup("--uninstall", "--all")
    assert done.returncode == 0, done.stderr
    summary = done.stdout.split("summary:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in summary] == [
        "claude-code", "codex", "cursor", "cline", "opencode"]
    assert tree() == before
    detected = setup("--detect").stdout.splitlines()
    assert [line.split()[0] for line in detected] == ["claude-code", "codex", "opencode"]
    assert not any("cursor" in line or "cline" in line for line in doctor(Path.cwd()))
    assert setup("--uninstall", "--all").stdout == (
        "guard's hook is in no agent's configuration; nothing to remove\n")


def test_setup_all_goes_on_past_an_agent_it_cannot_set_up(bare_path: Path) -> None:
    agents_here()
    name, text = "PreToolUse", "#!/bin/sh\necho '{\"cancel\": false}'\n"
    theirs = config_path("cline").parent / name
    theirs.parent.mkdir(parents=True)
    theirs.write_text(text)  # another tool's hook, where Cline runs only one
    done = setup("--all")
    assert done.returncode == 1
    summary = done.stdout.split("summary:\n", 1)[1]
    assert "cline        not done: " in summary and "is another tool's hook" in summary
    assert summary.count("; fails closed") == 3 and theirs.read_text() == text


def test_setup_names_both_ways_when_given_neither(bare_path: Path) -> None:
    done = setup()
    assert (done.returncode, done.stderr) == (1, (
        "guard: name an agent (guard setup codex), or set up every agent found here with "
        "guard setup --all (guard setup --detect lists them)\n"))
    both = setup("codex", "--all")
    assert both.returncode == 1 and "not both" in both.stderr
    assert setup("--all").stdout.startswith("no agents found")
