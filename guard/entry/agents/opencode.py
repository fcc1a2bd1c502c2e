"""OpenCode: guard's own plugin (guard/entry/agents/opencode_plugin.py, written by `guard setup
opencode`) passes tool.execute.before here and throws unless the answer is allow. Held.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from guard.entry.agents.agent import TIMEOUT, WATCH, Agent
from guard.entry.agents.calls import AgentAnswer, AgentCall, absolute, session_for
from guard.entry.agents.payload import as_json, cwd, text

NAME = "opencode"


def parse(data: dict[str, Any], env: Mapping[str, str]) -> AgentCall | None:
    if text(data.get("tool"), "tool") != "bash":
        return None
    args = data.get("args")
    command = args.get("command") if isinstance(args, dict) else None
    project = absolute(data.get("worktree")) or absolute(data.get("directory"))
    where_run = cwd(data.get("directory"))
    workdir = args.get("workdir") if isinstance(args, dict) else None
    if isinstance(workdir, str) and workdir:
        where_run = os.path.normpath(os.path.join(where_run, workdir))
    return AgentCall(
        NAME,
        text(command, "args.command"),
        where_run,
        session_for(NAME, data.get("sessionID")),
        project if project != "/" else None,
    )


def answer(given: AgentAnswer) -> str:
    decision = "allow" if given.decision == "allow" else "deny"
    return as_json({"decision": decision, "reason": given.reason})


def plugin(command: str, program: str) -> str:
    from guard.entry.agents.opencode_plugin import plugin_text

    return plugin_text(program, TIMEOUT)


AGENT = Agent(
    NAME, parse, answer, no_opinion=as_json({"decision": "allow"}), in_band_ask=False,
    default_timeout=150.0,
    user_path=("XDG_CONFIG_HOME", ".config"), user_below="opencode/plugins/guard.js",
    project_path=".opencode/plugins/guard.js", shape="file", event="tool.execute.before",
    matcher="", entry=None, file_text=plugin,
    steps=("restart opencode: it loads plugins at start",
           f"opencode has no ask for plugins: {WATCH}"),
    binaries=("opencode",),
    fail_closed="built in: the plugin throws on anything but allow", fail_closed_option=None,
    deny_form=None, config_dir="opencode",
)  # fmt: skip
