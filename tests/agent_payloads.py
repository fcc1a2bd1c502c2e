"""Each agent's documented hook input for one shell command, and guard's answer that allows it.

Shared by the agent adapters' tests (tests/entry/) and the hook benchmark (tests/bench/).
The payloads follow each agent's own documentation, cited in docs/agents.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any


def dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


Payload = Callable[[object, str], dict[str, Any]]


def claude(command: object, cwd: str) -> dict[str, Any]:
    return {"session_id": "s1", "transcript_path": "/dev/null", "cwd": cwd,
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "d"}}  # fmt: skip


def codex(command: object, cwd: str) -> dict[str, Any]:
    return {"session_id": "s1", "turn_id": "t1", "transcript_path": None, "cwd": cwd,
            "hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": "default",
            "tool_name": "Bash", "tool_input": {"command": command},
            "tool_use_id": "call-1"}  # fmt: skip


def cursor(command: object, cwd: str) -> dict[str, Any]:
    return {"conversation_id": "s1", "generation_id": "g1", "model": "default",
            "hook_event_name": "beforeShellExecution", "cursor_version": "3.2",
            "workspace_roots": [cwd], "user_email": None, "transcript_path": None,
            "command": command, "cwd": cwd, "sandbox": False}  # fmt: skip


def gemini(command: object, cwd: str) -> dict[str, Any]:
    return {"session_id": "s1", "transcript_path": "/dev/null", "cwd": cwd,
            "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T00:00:00Z",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "d"}}  # fmt: skip


def copilot(command: object, cwd: str) -> dict[str, Any]:
    return {"sessionId": "s1", "timestamp": 1764547200000, "cwd": cwd, "toolName": "bash",
            "toolArgs": dumps({"command": command, "description": "d"})}  # fmt: skip


def cline(command: object, cwd: str) -> dict[str, Any]:
    return {"clineVersion": "3.40.0", "hookName": "PreToolUse", "timestamp": "1764547200000",
            "taskId": "s1", "workspaceRoots": [cwd], "userId": "u1",
            "preToolUse": {"toolName": "execute_command",
                           "parameters": {"command": command,
                                          "requires_approval": "false"}}}  # fmt: skip


def opencode(command: object, cwd: str) -> dict[str, Any]:
    return {"tool": "bash", "sessionID": "s1", "args": {"command": command, "description": "d"},
            "directory": cwd, "worktree": cwd}  # fmt: skip


PAYLOADS: dict[str, Payload] = {
    "claude-code": claude, "codex": codex, "cursor": cursor, "gemini": gemini,
    "copilot": copilot, "cline": cline, "opencode": opencode,
}  # fmt: skip


def pretooluse(decision: str, reason: str) -> str:
    output = {"hookEventName": "PreToolUse", "permissionDecision": decision,
              "permissionDecisionReason": reason}  # fmt: skip
    return dumps({"hookSpecificOutput": output})


# the answer each agent reads, for allow / deny / a deny of guard's own (reason given)
def allowed(agent: str) -> str:
    return {
        "claude-code": pretooluse("allow", "guard: allowed by the policy"),
        "codex": "",  # no decision: Codex's own approval policy applies
        "cursor": '{"permission": "allow"}',  # explicit: with failClosed, empty output blocks
        "gemini": "{}",
        "copilot": "",
        "cline": '{"cancel": false}',
        "opencode": '{"decision": "allow", "reason": "guard: allowed by the policy"}',
    }[agent]
