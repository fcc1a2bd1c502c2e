"""GitHub Copilot CLI: preToolUse, docs.github.com/en/copilot/reference/hooks-reference

permissionDecision allow/deny/ask; no output is no objection. It shows its prompt for an ask
only when it runs interactively (guard/entry/agents/prompt.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from guard.entry.agents.agent import TIMEOUT, WATCH, Agent, Process
from guard.entry.agents.calls import AgentAnswer, AgentCall, Unreadable, session_for
from guard.entry.agents.payload import as_json, cwd, text

NAME = "copilot"


def parse(data: dict[str, Any], env: Mapping[str, str]) -> AgentCall | None:
    tool = data.get("toolName", data.get("tool_name"))
    tool = text(tool, "toolName")
    if tool.lower() not in ("bash", "shell"):
        return None
    args: object = data.get("toolArgs", data.get("tool_input"))
    if isinstance(args, str):  # camelCase payloads carry the arguments as a JSON string
        try:
            args = json.loads(args)
        except ValueError:
            raise Unreadable("the hook input's toolArgs is not JSON") from None
    command = args.get("command") if isinstance(args, dict) else None
    return AgentCall(
        NAME,
        text(command, "toolArgs.command"),
        cwd(data.get("cwd")),
        session_for(NAME, data.get("sessionId", data.get("session_id"))),
    )


def answer(given: AgentAnswer) -> str:
    if given.decision == "allow":
        return ""  # empty output: Copilot's own permission flow applies
    return as_json({"permissionDecision": given.decision, "permissionDecisionReason": given.reason})


AGENT = Agent(
    NAME, parse, answer, no_opinion="", in_band_ask=True, default_timeout=30.0,
    user_path=("COPILOT_HOME", ".copilot"), user_below="hooks/guard.json",
    project_path=".github/hooks/guard.json", shape="flat", event="preToolUse", matcher="",
    entry=lambda command: {"type": "command", "bash": command, "timeoutSec": TIMEOUT},
    file_text=None,
    steps=("Copilot CLI reads hooks when a session starts: start a new one",
           f"with -p (no prompt) guard holds the call instead of asking: {WATCH}"),
    binaries=("copilot",),
    # Copilot CLI skips a hook that exits non-zero: JSON and 0
    fail_closed="", fail_closed_option=None,
    deny_form=('{"permissionDecision":"deny","permissionDecisionReason":"REASON"}', 0),
    # Copilot CLI's reference
    process=Process(
        names=("copilot", "copilot.js", "npm-loader.js"), package="/@github/copilot/",
        valued=frozenset({
            "--model", "--agent", "--log-level", "--log-dir", "--add-dir", "--allow-tool",
            "--deny-tool", "--config-dir",
        }),
        interactive=("-i", "--interactive"),
    ),
)  # fmt: skip
