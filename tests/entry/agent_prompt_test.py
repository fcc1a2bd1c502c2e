"""A hook's ask goes to Gemini CLI's or Copilot CLI's own prompt only where a human sees it.

Headless, Gemini CLI waits forever for the confirmation a hook's ask starts (0.61: its
scheduler forces `ask_user`), so guard looks at the agent process above the hook: its
arguments, whether its stdin and stdout are a terminal, `CI`. The agent here is a stand-in
program named `gemini` / `copilot` that runs `guard setup`'s hook command the way the agent does
(`bash -c`, the call's JSON on stdin), started through a real pty (pexpect) or without one.
With no approver listening, a held call is denied at once with how to approve; the real Gemini
CLI headless is in tests/entry/agent_e2e_test.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from guard.entry.agents.config import hook_command
from guard.entry.agents.prompt import interactive_args

AGENT = """\
#!{python}
import subprocess, sys
payload = open({payload!r}).read()
done = subprocess.run(["bash", "-c", {command!r}], input=payload, capture_output=True, text=True)
print("ANSWER " + done.stdout.strip(), flush=True)
"""
PAYLOAD = {
    "gemini": lambda cwd: {
        "session_id": "g1", "cwd": cwd, "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "cat /etc/hosts"},
    },
    "copilot": lambda cwd: {
        "sessionId": "c1", "cwd": cwd, "toolName": "bash",
        "toolArgs": json.dumps({"command": "cat /etc/hosts"}),
    },
}  # fmt: skip
ASKED = {"gemini": '"decision": "ask"', "copilot": '"permissionDecision": "ask"'}
DENIED = {"gemini": '"decision": "deny"', "copilot": '"permissionDecision": "deny"'}


def stand_in(tmp_path: Path, agent: str) -> tuple[Path, dict[str, str]]:
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps(PAYLOAD[agent](str(ws))))
    program = tmp_path / "bin" / agent
    program.parent.mkdir(exist_ok=True)
    program.write_text(
        AGENT.format(python=sys.executable, payload=str(payload), command=hook_command(agent))
    )
    program.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS")}
    env.update(GUARD_WORKSPACE=str(ws), GUARD_APPROVER_SOCKET=str(tmp_path / "nobody.sock"))
    env.pop("GUARD_APPROVER", None)
    return program, env


def in_pty(program: Path, args: list[str], env: dict[str, str]) -> str:
    child = pexpect.spawn(str(program), args, env=env, encoding="utf-8", timeout=60)
    child.expect(r"ANSWER (.*)\r\n")
    out = str(child.match.group(1))
    child.expect(pexpect.EOF)
    return out


@pytest.mark.parametrize("agent", ["gemini", "copilot"])
def test_an_interactive_session_gets_the_ask_at_its_own_prompt(tmp_path: Path, agent: str) -> None:
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("no /proc here: guard cannot see the agent, and holds every ask")
    program, env = stand_in(tmp_path, agent)
    assert ASKED[agent] in in_pty(program, ["--model", "m1"], env)


@pytest.mark.parametrize("agent", ["gemini", "copilot"])
@pytest.mark.parametrize(
    "how", ["-p", "a query", "no terminal", "CI=true"],
)
def test_a_headless_session_is_held_and_never_handed_the_ask(
    tmp_path: Path, agent: str, how: str
) -> None:
    program, env = stand_in(tmp_path, agent)
    if how == "no terminal":
        done = subprocess.run(
            [str(program)], env=env, capture_output=True, text=True, timeout=60,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        out = done.stdout
    elif how == "CI=true":
        if agent == "copilot":
            pytest.skip("Copilot CLI is not known to go headless on CI=true")
        out = in_pty(program, [], {**env, "CI": "true"})
    else:
        out = in_pty(program, ["-p", "do it"] if how == "-p" else ["do", "it"], env)
    assert DENIED[agent] in out, out
    assert "start `guard watch` in a terminal of your own" in out


@pytest.mark.parametrize(
    ("args", "interactive"),
    [
        ([], True),
        (["-m", "gemini-2.5-flash", "--yolo"], True),
        (["--model=x", "-i", "first prompt"], True),
        (["-yi", "first prompt"], True),
        (["-p", "q"], False),
        (["--prompt=q"], False),
        (["-yp", "q"], False),
        (["just", "a", "query"], False),
        (["--yolo", "query"], False),
        (["-r", "latest"], False),  # -r may or may not take a value: not known, so held
        (["--", "-p"], False),
        (["--acp"], False),
    ],
)
def test_gemini_arguments(args: list[str], interactive: bool) -> None:
    assert interactive_args("gemini", args) is interactive
