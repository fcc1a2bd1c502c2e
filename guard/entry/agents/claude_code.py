"""Claude Code: PreToolUse, https://code.claude.com/docs/en/hooks

Only exit 2 or a JSON decision blocks; `onFailure: "block"` covers crashes. Its own prompt
shows guard's ask, headless (`claude -p`) too, as a refusal that shows the reason.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from guard.entry.agents.agent import TIMEOUT, WATCH, Agent
from guard.entry.agents.calls import AgentAnswer, AgentCall, absolute, session_for
from guard.entry.agents.payload import as_json, cwd, pretooluse, text

NAME = "claude-code"


def parse(data: dict[str, Any], env: Mapping[str, str]) -> AgentCall | None:
    tool = text(data.get("tool_name"), "tool_name")
    if tool != "Bash" or data.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None
    tool_input = data.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    command = text(command, "tool_input.command (the Bash call's command)")
    return AgentCall(
        NAME,
        command,
        cwd(data.get("cwd", os.getcwd())),
        session_for(NAME, data.get("session_id")),
        absolute(env.get("CLAUDE_PROJECT_DIR", "")),
    )


def answer(given: AgentAnswer) -> str:
    return as_json(pretooluse(given))


AGENT = Agent(
    NAME, parse, answer, no_opinion="", in_band_ask=True, default_timeout=600.0,
    user_path=("CLAUDE_CONFIG_DIR", ".claude"), user_below="settings.json",
    project_path=".claude/settings.json", shape="grouped", event="PreToolUse", matcher="Bash",
    entry=lambda command: {
        "type": "command", "command": command, "timeout": TIMEOUT, "onFailure": "block"
    },
    file_text=None,
    steps=("restart running Claude Code sessions; /hooks lists guard's hook",
           "ask goes to Claude Code's own prompt; for headless runs (claude -p) set "
           f"GUARD_APPROVER=always and {WATCH}"),
    binaries=("claude",),
    fail_closed='onFailure: "block"', fail_closed_option=("onFailure", "block"),
    deny_form=("", 2),
    prompt_always=True,
    cwd_optional=True,
    project_note="the agent can edit the project's own settings; your ~/.claude is safer",
)  # fmt: skip
