"""Each agent's hook protocol: where its JSON keeps the command, and how it reads an answer.

A row reads the agent's documented stdin JSON into a `Call` (None: a call guard has no opinion
on, such as another tool) and writes guard's `Answer` in the form that agent obeys. Sources for
every field are cited in docs/agents.md. What matters for failing closed:

- Claude Code: only exit 2 or a JSON decision blocks; `onFailure: "block"` covers crashes.
- Codex: `ask` and a bare `allow` are invalid output and the command runs; no answer is no
  objection; deny needs a non-empty reason. No real ask: the call is held.
- Cursor (`beforeShellExecution`): only deny is honoured everywhere; `ask` shows no prompt in
  some modes; with `failClosed` an empty answer blocks, so allow is explicit. Held.
- Gemini CLI (`BeforeTool`): decision allow/deny/ask; its prompt hides the reason, so it goes
  in `systemMessage` too.
- Copilot CLI (`preToolUse`): permissionDecision allow/deny/ask; no output is no objection.
- Cline (`PreToolUse` script): `{"cancel": bool, "errorMessage"}`; no ask. Held.
- OpenCode: guard's plugin passes the call here and throws unless the answer is allow. Held.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from guard.entry.agents.calls import Answer, Call, Protocol, Unreadable, absolute, session_for


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise Unreadable(f"the hook input has no {what}")
    return value


def _cwd(value: object, fallback: str | None = None) -> str:
    if isinstance(value, str) and os.path.isabs(value):
        return value
    if (value is None or value == "") and fallback:
        return fallback
    raise Unreadable(f"the hook input's cwd {value!r} is not a path")


def _first_root(value: object) -> str | None:
    if isinstance(value, list) and value:
        return absolute(value[0])
    return None


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


# Claude Code: PreToolUse, https://code.claude.com/docs/en/hooks


def _claude_parse(data: dict[str, Any], env: Mapping[str, str]) -> Call | None:
    tool = _text(data.get("tool_name"), "tool_name")
    if tool != "Bash" or data.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None
    tool_input = data.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    command = _text(command, "tool_input.command (the Bash call's command)")
    return Call(
        "claude-code",
        command,
        _cwd(data.get("cwd", os.getcwd())),
        session_for("claude-code", data.get("session_id")),
        absolute(env.get("CLAUDE_PROJECT_DIR", "")),
    )


def _pretooluse(answer: Answer) -> dict[str, Any]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": answer.decision,
            "permissionDecisionReason": answer.reason,
        }
    }


# Codex: codex-rs/hooks/schema/generated/pre-tool-use.command.{input,output}.schema.json


def _codex_parse(data: dict[str, Any], env: Mapping[str, str]) -> Call | None:
    tool = _text(data.get("tool_name"), "tool_name")
    if tool != "Bash" or data.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None  # apply_patch and MCP tools: not shell lines
    tool_input = data.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    command = _text(command, "tool_input.command")
    return Call(
        "codex", command, _cwd(data.get("cwd")), session_for("codex", data.get("session_id"))
    )


def _codex_answer(answer: Answer) -> str:
    # allow: no decision at all, so Codex's own approval policy still applies
    if answer.decision == "allow":
        return ""
    return _json(_pretooluse(Answer("deny", answer.reason)))  # ask would be invalid: run


# Cursor: beforeShellExecution, https://cursor.com/docs/agent/hooks


def _cursor_parse(data: dict[str, Any], env: Mapping[str, str]) -> Call | None:
    event = data.get("hook_event_name", "beforeShellExecution")
    if event != "beforeShellExecution":
        return None
    roots = _first_root(data.get("workspace_roots"))
    project = absolute(env.get("CURSOR_PROJECT_DIR", "")) or roots
    return Call(
        "cursor",
        _text(data.get("command"), "command"),
        _cwd(data.get("cwd"), project),
        session_for("cursor", data.get("conversation_id") or data.get("session_id")),
        project,
    )


def _cursor_answer(answer: Answer) -> str:
    if answer.decision == "allow":
        return _json({"permission": "allow"})
    return _json(
        {"permission": "deny", "user_message": answer.reason, "agent_message": answer.reason}
    )


# Gemini CLI: BeforeTool, https://geminicli.com/docs/hooks/reference


def _gemini_parse(data: dict[str, Any], env: Mapping[str, str]) -> Call | None:
    tool = _text(data.get("tool_name"), "tool_name")
    if tool != "run_shell_command" or data.get("hook_event_name", "BeforeTool") != "BeforeTool":
        return None
    tool_input = data.get("tool_input")
    if not isinstance(tool_input, dict):
        raise Unreadable("the hook input has no tool_input")
    cwd = _cwd(data.get("cwd"))
    where = tool_input.get("dir_path") or tool_input.get("directory")
    if isinstance(where, str) and where:
        cwd = os.path.normpath(os.path.join(cwd, where))
    return Call(
        "gemini",
        _text(tool_input.get("command"), "tool_input.command"),
        cwd,
        session_for("gemini", data.get("session_id")),
        absolute(env.get("GEMINI_PROJECT_DIR", "")),
    )


def _gemini_answer(answer: Answer) -> str:
    if answer.decision == "allow":
        return _json({})  # no objection: Gemini's own confirmation policy applies
    if answer.decision == "ask":  # its prompt does not show the reason: systemMessage does
        return _json({"decision": "ask", "reason": answer.reason, "systemMessage": answer.reason})
    return _json({"decision": "deny", "reason": answer.reason})


# GitHub Copilot CLI: preToolUse, docs.github.com/en/copilot/reference/hooks-reference


def _copilot_parse(data: dict[str, Any], env: Mapping[str, str]) -> Call | None:
    tool = data.get("toolName", data.get("tool_name"))
    tool = _text(tool, "toolName")
    if tool.lower() not in ("bash", "shell"):
        return None
    args: object = data.get("toolArgs", data.get("tool_input"))
    if isinstance(args, str):  # camelCase payloads carry the arguments as a JSON string
        try:
            args = json.loads(args)
        except ValueError:
            raise Unreadable("the hook input's toolArgs is not JSON") from None
    command = args.get("command") if isinstance(args, dict) else None
    return Call(
        "copilot",
        _text(command, "toolArgs.command"),
        _cwd(data.get("cwd")),
        session_for("copilot", data.get("sessionId", data.get("session_id"))),
    )


def _copilot_answer(answer: Answer) -> str:
    if answer.decision == "allow":
        return ""  # empty output: Copilot's own permission flow applies
    return _json({"permissionDecision": answer.decision, "permissionDecisionReason": answer.reason})


# Cline: a PreToolUse hook script, https://docs.cline.bot/features/hooks/hook-reference


def _cline_parse(data: dict[str, Any], env: Mapping[str, str]) -> Call | None:
    if data.get("hookName", "PreToolUse") != "PreToolUse":
        return None
    pre = data.get("preToolUse")
    if not isinstance(pre, dict):
        raise Unreadable("the hook input has no preToolUse")
    if _text(pre.get("toolName"), "preToolUse.toolName") != "execute_command":
        return None
    parameters = pre.get("parameters")
    command = parameters.get("command") if isinstance(parameters, dict) else None
    root = _first_root(data.get("workspaceRoots"))
    if root is None:
        raise Unreadable("the hook input has no workspaceRoots (where the command runs)")
    return Call(
        "cline",
        _text(command, "preToolUse.parameters.command"),
        root,
        session_for("cline", data.get("taskId")),
        root,
    )


def _cline_answer(answer: Answer) -> str:
    if answer.decision == "allow":
        return _json({"cancel": False})
    return _json({"cancel": True, "errorMessage": answer.reason})


# OpenCode: guard's own plugin (guard/entry/agents/setup.py writes it) passes tool.execute.before
# here


def _opencode_parse(data: dict[str, Any], env: Mapping[str, str]) -> Call | None:
    if _text(data.get("tool"), "tool") != "bash":
        return None
    args = data.get("args")
    command = args.get("command") if isinstance(args, dict) else None
    project = absolute(data.get("worktree")) or absolute(data.get("directory"))
    cwd = _cwd(data.get("directory"))
    workdir = args.get("workdir") if isinstance(args, dict) else None
    if isinstance(workdir, str) and workdir:
        cwd = os.path.normpath(os.path.join(cwd, workdir))
    return Call(
        "opencode",
        _text(command, "args.command"),
        cwd,
        session_for("opencode", data.get("sessionID")),
        project if project != "/" else None,
    )


def _opencode_answer(answer: Answer) -> str:
    decision = "allow" if answer.decision == "allow" else "deny"
    return _json({"decision": decision, "reason": answer.reason})


def _claude_answer(answer: Answer) -> str:
    return _json(_pretooluse(answer))


PROTOCOLS: dict[str, Protocol] = {
    "claude-code": Protocol("claude-code", _claude_parse, _claude_answer, "", True, 600.0),
    "codex": Protocol("codex", _codex_parse, _codex_answer, "", False, 600.0),
    "cursor": Protocol(
        "cursor", _cursor_parse, _cursor_answer, _json({"permission": "allow"}), False, 30.0
    ),
    "gemini": Protocol("gemini", _gemini_parse, _gemini_answer, _json({}), True, 60.0),
    "copilot": Protocol("copilot", _copilot_parse, _copilot_answer, "", True, 30.0),
    "cline": Protocol("cline", _cline_parse, _cline_answer, _json({"cancel": False}), False, 30.0),
    "opencode": Protocol(
        "opencode", _opencode_parse, _opencode_answer, _json({"decision": "allow"}), False, 150.0
    ),
}
