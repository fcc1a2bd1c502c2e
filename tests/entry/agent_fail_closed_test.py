"""The hook command `guard setup AGENT` installs denies the call itself when guard cannot answer.

The installed command (or Cline's script, or OpenCode's plugin) is run as each agent runs it
(`bash -c`, `sh -c`, the script, node), with guard's program replaced by one that is missing,
not executable, crashing, killed or hanging, and must answer in the agent's own deny form with a
`guard:` line. tests/entry/agent_e2e_test.py does the same with the real Claude Code, Codex and
Gemini CLI; this covers every agent, and runs where they are not installed.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guard.entry.agents.config import (
    AGENTS,
    DENY_FORMS,
    config_path,
    guard_program,
    hook_command,
)

GUARD = [sys.executable, "-m", "guard"]
BROKEN = {  # what stands where guard's program was: (file text or None, mode)
    "missing": (None, 0),
    "not executable": ("#!/bin/sh\nexit 0\n", 0o644),
    "crashing": ("#!/bin/sh\necho 'Traceback (most recent call last):' >&2\nexit 1\n", 0o755),
    "escaping": (  # an allow in every agent's words, then a failure
        "#!/bin/sh\necho '{\"decision\": \"allow\", \"permission\": \"allow\", \"cancel\": false}'"
        "\nexit 2\n",
        0o755,
    ),
    "killed": ("#!/bin/sh\nkill -9 $$\n", 0o755),
    "hanging": ("#!/bin/sh\nexec sleep 60\n", 0o755),
}
NOT_RUN = "the command was not run (run guard doctor)"


def broken_program(tmp_path: Path, broken: str) -> Path:
    text, mode = BROKEN[broken]
    program = tmp_path / "bin" / "guard"
    program.parent.mkdir(exist_ok=True)
    if text is not None:
        program.write_text(text)
        program.chmod(mode)
    return program


def installed(agent: str, program: Path) -> str:
    """The installed command with `program` in guard's place and a 2 s watchdog."""
    command = hook_command(agent).replace(shlex.quote(guard_program()), shlex.quote(str(program)))
    stop = f"t={(30 if agent == 'cline' else 150) - 2};"
    assert command.count(str(program)) == 1 and stop in command, command
    return command.replace(stop, "t=2;")


def denied(agent: str, done: subprocess.CompletedProcess[str]) -> str:
    """guard's reason, after checking that the agent reads the answer as a deny."""
    form, status = DENY_FORMS[agent]
    assert done.returncode == status, done
    line = done.stderr.splitlines()[-1]
    assert line.startswith("guard: ") and line.endswith(NOT_RUN), done.stderr
    if not form:
        assert done.stdout == ""
        return line
    answer = json.loads(done.stdout)
    said = {
        "cursor": ("permission", "deny", "agent_message"),
        "copilot": ("permissionDecision", "deny", "permissionDecisionReason"),
        "cline": ("cancel", True, "errorMessage"),
    }[agent]
    assert answer[said[0]] == said[1], answer
    assert answer[said[2]] == line
    return line


COMMAND_AGENTS = [a for a in AGENTS if a not in ("cline", "opencode")]


@pytest.mark.parametrize("shell", ["bash", "sh"])
@pytest.mark.parametrize("broken", list(BROKEN))
@pytest.mark.parametrize("agent", COMMAND_AGENTS)
def test_the_installed_command_denies_when_guard_cannot_answer(
    tmp_path: Path, agent: str, broken: str, shell: str
) -> None:
    program = broken_program(tmp_path, broken)
    done = subprocess.run(
        [shell, "-c", installed(agent, program)], input='{"tool_name": "Bash"}',
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    line = denied(agent, done)
    if broken == "hanging":
        assert "was stopped (no answer within 2 s)" in line
    elif broken in ("missing", "not executable"):
        assert "cannot start guard's program" in line


def test_without_a_timeout_program_the_command_still_runs_guard(tmp_path: Path) -> None:
    """Where there is no `timeout` (macOS), guard runs unwatched rather than never."""
    stdin = json.dumps({"session_id": "s", "cwd": "/", "tool_name": "Read", "tool_input": {}})
    (tmp_path / "empty").mkdir()
    env = {**os.environ, "PATH": str(tmp_path / "empty")}
    sh = shutil.which("sh") or "/bin/sh"
    done = subprocess.run(
        [sh, "-c", hook_command("codex")], input=stdin, capture_output=True, text=True, env=env,
        timeout=60,
    )  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_working_guard_answers_through_the_command(tmp_path: Path) -> None:
    stdin = json.dumps({"hookName": "PreToolUse", "taskId": "t", "workspaceRoots": ["/"],
                        "preToolUse": {"toolName": "read_file", "parameters": {}}})  # fmt: skip
    done = subprocess.run(
        ["sh", "-c", hook_command("cline")], input=stdin, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, '{"cancel": false}\n'), done.stderr


@pytest.mark.parametrize("broken", list(BROKEN))
def test_clines_hook_script_cancels_when_guard_cannot_answer(tmp_path: Path, broken: str) -> None:
    subprocess.run([*GUARD, "setup", "cline"], check=True, capture_output=True)
    script = config_path("cline")
    program = broken_program(tmp_path, broken)
    script.write_text(
        script.read_text().replace(hook_command("cline"), installed("cline", program))
    )
    done = subprocess.run(
        [str(script)], input="{}", capture_output=True, text=True, timeout=30, check=False
    )
    denied("cline", done)


DRIVER = """\
import { GuardPlugin } from %s
const plugin = await GuardPlugin({ directory: "/tmp", worktree: "/tmp" })
try {
  await plugin["tool.execute.before"]({ tool: "bash", sessionID: "s" }, { args: { command: "ls" } })
  console.log("ALLOWED")
} catch (err) {
  console.log("DENIED " + err.message)
}
"""


@pytest.mark.parametrize("broken", [b for b in BROKEN if b != "hanging"])
def test_opencodes_plugin_throws_when_guard_cannot_answer(tmp_path: Path, broken: str) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    subprocess.run([*GUARD, "setup", "opencode"], check=True, capture_output=True)
    plugin = config_path("opencode")
    program = broken_program(tmp_path, broken)
    copy = tmp_path / "guard.mjs"
    text = plugin.read_text().replace(json.dumps(guard_program()), json.dumps(str(program)))
    copy.write_text(text)
    driver = tmp_path / "driver.mjs"
    driver.write_text(DRIVER % json.dumps(str(copy)))
    done = subprocess.run(["node", str(driver)], capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith("DENIED guard: "), done
