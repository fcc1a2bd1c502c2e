"""Gemini CLI: BeforeTool, https://geminicli.com/docs/hooks/reference

Decision allow/deny/ask; its prompt hides the reason, so it goes in `systemMessage` too. It
shows that prompt only when it runs interactively (guard/entry/agents/prompt.py).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from guard.entry.agents.agent import TIMEOUT, WATCH, Agent, Process
from guard.entry.agents.calls import AgentAnswer, AgentCall, Unreadable, absolute, session_for
from guard.entry.agents.payload import as_json, cwd, text

NAME = "gemini"


def parse(data: dict[str, Any], env: Mapping[str, str]) -> AgentCall | None:
    tool = text(data.get("tool_name"), "tool_name")
    if tool != "run_shell_command" or data.get("hook_event_name", "BeforeTool") != "BeforeTool":
        return None
    tool_input = data.get("tool_input")
    if not isinstance(tool_input, dict):
        raise Unreadable("the hook input has no tool_input")
    where_run = cwd(data.get("cwd"))
    where = tool_input.get("dir_path") or tool_input.get("directory")
    if isinstance(where, str) and where:
        where_run = os.path.normpath(os.path.join(where_run, where))
    return AgentCall(
        NAME,
        text(tool_input.get("command"), "tool_input.command"),
        where_run,
        session_for(NAME, data.get("session_id")),
        absolute(env.get("GEMINI_PROJECT_DIR", "")),
    )


def answer(given: AgentAnswer) -> str:
    if given.decision == "allow":
        return as_json({})  # no objection: Gemini's own confirmation policy applies
    if given.decision == "ask":  # its prompt does not show the reason: systemMessage does
        return as_json({"decision": "ask", "reason": given.reason, "systemMessage": given.reason})
    return as_json({"decision": "deny", "reason": given.reason})


AGENT = Agent(
    NAME, parse, answer, no_opinion=as_json({}), in_band_ask=True, default_timeout=60.0,
    user_path=("", ".gemini"), user_below="settings.json",
    project_path=".gemini/settings.json", shape="grouped", event="BeforeTool",
    matcher="run_shell_command",
    entry=lambda command: {"type": "command", "name": "guard", "command": command,
                           "timeout": TIMEOUT * 1000,
                           "description": "guard checks each shell command before it runs"},
    file_text=None,
    steps=("restart Gemini CLI; /hooks lists guard's hook",
           "ask goes to Gemini CLI's own prompt in an interactive session; headless (gemini -p) "
           f"guard holds the call instead: {WATCH}"),
    binaries=("gemini",),
    fail_closed="", fail_closed_option=None, deny_form=("", 2),
    # Gemini CLI 0.61 `gemini --help`
    process=Process(
        names=("gemini", "gemini.js"), package="/@google/gemini-cli/",
        valued=frozenset({
            "-m", "--model", "--approval-mode", "--policy", "--admin-policy",
            "--allowed-mcp-server-names", "--allowed-tools", "-e", "--extensions",
            "--session-file", "--session-id", "--include-directories", "-o", "--output-format",
        }),
        interactive=("-i", "--prompt-interactive"),
        headless_in_ci=True, not_ci=("GEMINI_CLI_INTEGRATION_TEST", "true"),
    ),
)  # fmt: skip
