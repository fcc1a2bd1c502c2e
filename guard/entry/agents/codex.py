"""Codex: codex-rs/hooks/schema/generated/pre-tool-use.command.{input,output}.schema.json

`ask` and a bare `allow` are invalid output and the command runs; no answer is no objection;
deny needs a non-empty reason. No real ask: the call is held for `guard watch`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from guard.entry.agents.agent import TIMEOUT, WATCH, Agent
from guard.entry.agents.calls import AgentAnswer, AgentCall, session_for
from guard.entry.agents.payload import as_json, cwd, pretooluse, text

NAME = "codex"


def parse(data: dict[str, Any], env: Mapping[str, str]) -> AgentCall | None:
    tool = text(data.get("tool_name"), "tool_name")
    if tool != "Bash" or data.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None  # apply_patch and MCP tools: not shell lines
    tool_input = data.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    command = text(command, "tool_input.command")
    return AgentCall(NAME, command, cwd(data.get("cwd")), session_for(NAME, data.get("session_id")))


def answer(given: AgentAnswer) -> str:
    # allow: no decision at all, so Codex's own approval policy still applies
    if given.decision == "allow":
        return ""
    return as_json(pretooluse(AgentAnswer("deny", given.reason)))  # ask would be invalid: run


def trusted(path: Path) -> bool:
    """Whether Codex recorded trust for guard's hook in `path` (its config.toml keeps a
    `[hooks.state."PATH:pre_tool_use:GROUP:HOOK"]` with a `trusted_hash`). Codex skips an
    untrusted hook without a word; a changed hook needs trusting again, which guard cannot see."""
    import tomllib

    from guard.entry.agents.status import command_of, is_guards, read_config
    from guard.errors import GuardError

    try:
        _raw, data = read_config(path)
    except GuardError:
        return False
    groups = (
        data.get("hooks", {}).get("PreToolUse", []) if isinstance(data.get("hooks"), dict) else []
    )
    keys = [
        f"{path}:pre_tool_use:{g}:{h}"
        for g, group in enumerate(groups if isinstance(groups, list) else [])
        for h, hook in enumerate(group.get("hooks", []) if isinstance(group, dict) else [])
        if is_guards(NAME, command_of(hook))
    ]
    variable = os.environ.get("CODEX_HOME", "")
    config = Path(variable or os.path.expanduser("~/.codex")) / "config.toml"
    try:
        state = tomllib.loads(config.read_text(encoding="utf-8")).get("hooks", {}).get("state", {})
    except (OSError, ValueError, AttributeError):
        return False
    return bool(keys) and all(
        isinstance(state.get(k), dict) and state[k].get("trusted_hash") for k in keys
    )


AGENT = Agent(
    NAME, parse, answer, no_opinion="", in_band_ask=False, default_timeout=600.0,
    user_path=("CODEX_HOME", ".codex"), user_below="hooks.json",
    project_path=".codex/hooks.json", shape="grouped", event="PreToolUse", matcher="^Bash$",
    entry=lambda command: {"type": "command", "command": command, "timeout": TIMEOUT,
                           "statusMessage": "guard: checking the command"},
    file_text=None,
    steps=("Codex skips a new or changed hook until you trust it: start codex, open /hooks and "
           "trust guard's PreToolUse hook (non-interactive: codex exec "
           "--dangerously-bypass-hook-trust, or a managed hook in /etc/codex/requirements.toml)",
           f"Codex has no prompt for a hook's ask: {WATCH}"),
    binaries=("codex",),
    fail_closed="", fail_closed_option=None, deny_form=("", 2),
    trusted=trusted,
    untrusted_note="codex: guard's hook is not trusted yet, and Codex skips it silently; "
    "open /hooks in codex, trust it",
)  # fmt: skip
