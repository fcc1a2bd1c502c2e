"""Cline: a PreToolUse hook script, https://docs.cline.bot/features/hooks/hook-reference

`{"cancel": bool, "errorMessage"}`; no ask: the call is held for `guard watch`. Cline gives
every hook 30 s, and a hook that fails or times out blocks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from guard.entry.agents.agent import WATCH, Agent
from guard.entry.agents.calls import AgentAnswer, AgentCall, Unreadable, session_for
from guard.entry.agents.payload import as_json, first_root, text

NAME = "cline"


def parse(data: dict[str, Any], env: Mapping[str, str]) -> AgentCall | None:
    if data.get("hookName", "PreToolUse") != "PreToolUse":
        return None
    pre = data.get("preToolUse")
    if not isinstance(pre, dict):
        raise Unreadable("the hook input has no preToolUse")
    if text(pre.get("toolName"), "preToolUse.toolName") != "execute_command":
        return None
    parameters = pre.get("parameters")
    command = parameters.get("command") if isinstance(parameters, dict) else None
    root = first_root(data.get("workspaceRoots"))
    if root is None:
        raise Unreadable("the hook input has no workspaceRoots (where the command runs)")
    return AgentCall(
        NAME,
        text(command, "preToolUse.parameters.command"),
        root,
        session_for(NAME, data.get("taskId")),
        root,
    )


def answer(given: AgentAnswer) -> str:
    if given.decision == "allow":
        return as_json({"cancel": False})
    return as_json({"cancel": True, "errorMessage": given.reason})


def script(command: str, program: str) -> str:
    return (
        "#!/bin/sh\n"
        "# guard: written by `guard setup cline`; `guard setup cline --uninstall` removes it.\n"
        '# guard answers {"cancel": …}; when it cannot start, crashes or is stopped, the\n'
        "# line below cancels the call itself.\n"
        f"{command}\n"
    )


AGENT = Agent(
    NAME, parse, answer, no_opinion=as_json({"cancel": False}), in_band_ask=False,
    default_timeout=30.0,
    user_path=("", "Documents/Cline"), user_below="Hooks/PreToolUse",
    project_path=".clinerules/hooks/PreToolUse", shape="file", event="PreToolUse", matcher="",
    entry=None, file_text=script,
    steps=("turn hooks on in Cline (Settings > Features > Hooks; CLI: cline config set "
           "hooks-enabled=true)",
           f"Cline has no ask for hooks, and gives a hook 30 s: {WATCH}; a question nobody "
           "answers within 25 s is denied"),
    binaries=("cline",),
    fail_closed="built in: a hook that fails or times out blocks", fail_closed_option=None,
    deny_form=('{"cancel":true,"errorMessage":"REASON"}', 0),
    hook_timeout=30, executable=True,
)  # fmt: skip
