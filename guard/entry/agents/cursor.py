"""Cursor: beforeShellExecution, https://cursor.com/docs/agent/hooks

Only deny is honoured everywhere; `ask` shows no prompt in some modes; with `failClosed` an
empty answer blocks, so allow is explicit. Held for `guard watch`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from guard.entry.agents.agent import TIMEOUT, WATCH, Agent
from guard.entry.agents.calls import AgentAnswer, AgentCall, absolute, session_for
from guard.entry.agents.payload import as_json, cwd, first_root, text

NAME = "cursor"


def parse(data: dict[str, Any], env: Mapping[str, str]) -> AgentCall | None:
    event = data.get("hook_event_name", "beforeShellExecution")
    if event != "beforeShellExecution":
        return None
    roots = first_root(data.get("workspace_roots"))
    project = absolute(env.get("CURSOR_PROJECT_DIR", "")) or roots
    return AgentCall(
        NAME,
        text(data.get("command"), "command"),
        cwd(data.get("cwd"), project),
        session_for(NAME, data.get("conversation_id") or data.get("session_id")),
        project,
    )


def answer(given: AgentAnswer) -> str:
    if given.decision == "allow":
        return as_json({"permission": "allow"})
    return as_json(
        {"permission": "deny", "user_message": given.reason, "agent_message": given.reason}
    )


AGENT = Agent(
    NAME, parse, answer, no_opinion=as_json({"permission": "allow"}), in_band_ask=False,
    default_timeout=30.0,
    user_path=("", ".cursor"), user_below="hooks.json",
    project_path=".cursor/hooks.json", shape="flat", event="beforeShellExecution", matcher="",
    entry=lambda command: {"command": command, "timeout": TIMEOUT, "failClosed": True},
    file_text=None,
    steps=("reload Cursor's window; Settings > Hooks lists guard's hook",
           f"Cursor shows no prompt for a shell hook's ask: {WATCH}"),
    binaries=("cursor", "cursor-agent"),
    fail_closed="failClosed: true", fail_closed_option=("failClosed", True),
    deny_form=('{"permission":"deny","user_message":"REASON","agent_message":"REASON"}', 2),
)  # fmt: skip
