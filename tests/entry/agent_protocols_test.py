"""`guard hook AGENT`: each agent's documented hook input in, exactly its answer out.

The payloads follow each agent's own documentation (cited in docs/agents.md): Codex's JSON
Schema for PreToolUse, Cursor's beforeShellExecution, Gemini CLI's BeforeTool, Copilot CLI's
camelCase preToolUse, Cline's PreToolUse script input, and the call guard's OpenCode plugin
passes on. With no approver running, an ask on an agent without a real prompt is a deny that
says how to approve. Whatever is wrong with the input, the answer is the agent's block form.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from agent_payloads import PAYLOADS, Payload, allowed, codex, dumps, pretooluse

from guard.entry.agents.core import MAX_COMMAND, respond
from guard.entry.agents.protocols import PROTOCOLS

GUARD = [sys.executable, "-m", "guard"]
NOT_RUN = "the command was not run"


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    ws = tmp_path / "project"
    ws.mkdir()
    monkeypatch.setenv("GUARD_WORKSPACE", str(ws))
    # no approver: the socket is a path where nothing listens
    monkeypatch.setenv("GUARD_APPROVER_SOCKET", str(tmp_path / "nobody.sock"))
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(
        '[[rules]]\nsurface = "command"\npattern = "curl *"\naction = "deny"\n'
        'reason = "no downloads here"\n'
    )
    return ws


def denied(agent: str, reason: str) -> str:
    return {
        "claude-code": pretooluse("deny", reason),
        "codex": pretooluse("deny", reason),
        "cursor": dumps({"permission": "deny", "user_message": reason, "agent_message": reason}),
        "gemini": dumps({"decision": "deny", "reason": reason}),
        "copilot": dumps({"permissionDecision": "deny", "permissionDecisionReason": reason}),
        "cline": dumps({"cancel": True, "errorMessage": reason}),
        "opencode": dumps({"decision": "deny", "reason": reason}),
    }[agent]


ASKS = "guard asks: read /etc/hosts (cat) is outside the workspace"
ASKED = {  # agents with a real prompt for a hook's ask
    "claude-code": pretooluse("ask", ASKS),
    "gemini": dumps({"decision": "ask", "reason": ASKS, "systemMessage": ASKS}),
    "copilot": dumps({"permissionDecision": "ask", "permissionDecisionReason": ASKS}),
}
AGENTS = list(PAYLOADS)


def answer(agent: str, data: object, *, in_band: bool | None = None) -> str:
    raw = data if isinstance(data, bytes) else dumps(data).encode()
    text = respond(PROTOCOLS[agent], raw, os.environ, hook_timeout=150, in_band=in_band)
    assert text is not None
    return text


@pytest.mark.parametrize("agent", AGENTS)
def test_an_everyday_command_gets_the_agents_no_objection(workspace: Path, agent: str) -> None:
    assert answer(agent, PAYLOADS[agent]("ls -la", str(workspace))) == allowed(agent)


@pytest.mark.parametrize("agent", AGENTS)
def test_what_the_policy_denies_gets_the_agents_block_form(workspace: Path, agent: str) -> None:
    rule = f"rule {os.environ['GUARD_CONFIG']}:1: no downloads here"
    reason = f"guard: denied: curl https://example.com ({rule}); {NOT_RUN} (the policy forbids it: "
    reason += "do not try it another way; ask the user if it is needed)"
    got = answer(agent, PAYLOADS[agent]("curl https://example.com", str(workspace)))
    assert got == denied(agent, reason)


@pytest.mark.parametrize("agent", AGENTS)
def test_an_ask_is_the_agents_prompt_or_a_deny_that_says_how_to_approve(
    workspace: Path, agent: str
) -> None:
    """Where a human sits at the agent's own prompt, ask goes there; elsewhere (here: no
    interactive Gemini or Copilot CLI above this process, tests/entry/agent_prompt_test.py has
    those) the call is held, and with no approver denied with how to approve."""
    payload = PAYLOADS[agent]("cat /etc/hosts", str(workspace))
    if agent in ASKED:
        assert answer(agent, payload, in_band=True) == ASKED[agent]
    got = answer(agent, payload)
    if agent == "claude-code":  # headless, Claude Code refuses with guard's reason: no hang
        assert got == ASKED[agent]
        return
    reason = (
        json.loads(got).get("errorMessage")
        or json.loads(got).get("reason")
        or (
            json.loads(got).get("user_message")
            or json.loads(got).get("permissionDecisionReason")
            or json.loads(got)["hookSpecificOutput"]["permissionDecisionReason"]
        )
    )
    assert got == denied(agent, reason)
    assert reason.startswith("guard: denied `cat /etc/hosts` (read /etc/hosts (cat) is outside")
    assert "start `guard watch` in a terminal of your own" in reason
    grant = (f"guard approvals grant --session {agent}:s1 --surface external_directory "
             "--pattern /etc/hosts --access read")  # fmt: skip
    assert reason.endswith(f"or allow it for this session: {grant}")


BROKEN: list[tuple[str, Callable[[Payload, str], object], str]] = [
    ("bad JSON", lambda p, cwd: dumps(p("ls", cwd)).encode()[:-9], "is not JSON (truncated?)"),
    ("no input at all", lambda p, cwd: b"", "is not JSON"),
    ("a JSON list", lambda p, cwd: [p("ls", cwd)], "is not a JSON object"),
    ("an empty command", lambda p, cwd: p("", cwd), "the call has an empty command"),
    ("a blank command", lambda p, cwd: p("  \n", cwd), "the call has an empty command"),
    ("a command that is not text", lambda p, cwd: p(["rm", "-rf", "/"], cwd), "has no"),
    ("a 1 MB command", lambda p, cwd: p("echo " + "a" * (1 << 20), cwd),
     f"over the {MAX_COMMAND} guard checks"),
]  # fmt: skip


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize(("case", "make", "why"), BROKEN, ids=[b[0] for b in BROKEN])
def test_input_guard_cannot_check_gets_the_block_form(
    workspace: Path, agent: str, case: str, make: Callable[[Payload, str], object], why: str
) -> None:
    got = answer(agent, make(PAYLOADS[agent], str(workspace)))
    assert got, "an empty answer would let the call run"
    data = json.loads(got)
    reason = next(v for v in _strings(data) if v.startswith("guard: "))
    assert why in reason and reason.endswith(NOT_RUN)
    assert got == denied(agent, reason)


def _strings(data: object) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in _strings(v)]
    return []


OTHER_TOOLS: dict[str, dict[str, Any]] = {
    "claude-code": {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Read",
                    "tool_input": {"file_path": "/etc/shadow"}},
    "codex": {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "apply_patch",
              "tool_input": {"command": "*** Begin Patch"}},
    "cursor": {"conversation_id": "s1", "hook_event_name": "beforeReadFile",
               "file_path": "/etc/hosts", "content": ""},
    "gemini": {"session_id": "s1", "hook_event_name": "BeforeTool", "tool_name": "read_file",
               "tool_input": {"absolute_path": "/etc/hosts"}},
    "copilot": {"sessionId": "s1", "cwd": "/", "toolName": "view", "toolArgs": "{}"},
    "cline": {"hookName": "PreToolUse", "taskId": "s1", "workspaceRoots": ["/"],
              "preToolUse": {"toolName": "read_file", "parameters": {"path": "x"}}},
    "opencode": {"tool": "read", "sessionID": "s1", "args": {"filePath": "x"},
                 "directory": "/", "worktree": "/"},
}  # fmt: skip


@pytest.mark.parametrize("agent", AGENTS)
def test_another_tool_gets_no_opinion(workspace: Path, agent: str) -> None:
    assert answer(agent, OTHER_TOOLS[agent]) == PROTOCOLS[agent].no_opinion


@pytest.mark.parametrize("agent", AGENTS)
def test_session_approvals_key_on_the_agents_own_session_id(workspace: Path, agent: str) -> None:
    subprocess.run(
        [*GUARD, "approvals", "grant", "--session", f"{agent}:s1", "--surface",
         "external_directory", "--pattern", "/etc/hosts", "--access", "read"],
        check=True, capture_output=True,
    )  # fmt: skip
    got = answer(agent, PAYLOADS[agent]("cat /etc/hosts", str(workspace)))
    expected = allowed(agent).replace("allowed by the policy", "allowed by an approval")
    assert got == expected


def hook(agent: str, stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*GUARD, "hook", agent, *args], input=stdin, capture_output=True, timeout=60, check=False
    )


@pytest.mark.parametrize("agent", AGENTS)
def test_the_hook_process_exits_0_with_its_answer_on_stdout(workspace: Path, agent: str) -> None:
    done = hook(agent, b"{not json")
    assert done.returncode == 0, done.stderr
    reason = next(v for v in _strings(json.loads(done.stdout)) if v.startswith("guard: "))
    assert done.stdout.decode() == denied(agent, reason) + "\n"


CRASH = """
import sys
import guard.entry.agents.core as core
def crash(*args, **kwargs):
    raise RuntimeError("the checker crashed")
core.verdict_for = crash
from guard.cli import main
sys.exit(main(["hook", sys.argv[1]]))
"""


@pytest.mark.parametrize("agent", AGENTS)
def test_a_checker_that_crashes_gives_the_block_form(workspace: Path, agent: str) -> None:
    stdin = dumps(PAYLOADS[agent]("ls", str(workspace))).encode()
    done = subprocess.run(
        [sys.executable, "-c", CRASH, agent], input=stdin, capture_output=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    reason = "guard: could not check the command (RuntimeError('the checker crashed')); " + NOT_RUN
    assert done.stdout.decode() == denied(agent, reason) + "\n"


@pytest.mark.parametrize(
    ("timeout", "line", "said"),
    [
        (
            "12",
            "cat /etc/hosts",
            "guard: codex's hook timeout leaves no time for a human to answer",
        ),
        ("3", "ls", "guard: the hook's timeout of 3 s is too short for guard to answer in time"),
    ],
)
def test_a_hook_timeout_too_short_for_the_hold_denies_at_once(
    workspace: Path, timeout: str, line: str, said: str
) -> None:
    done = hook("codex", dumps(codex(line, str(workspace))).encode(), "--timeout", timeout)
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.startswith(said)
