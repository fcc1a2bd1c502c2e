"""Whether guard's hook is in an agent's configuration, and whether it fails closed there.

`status` reads the agent's file (guard/entry/agents/config.py says where) and finds guard's
entries by their command; `fails_closed` says whether an entry keeps the call from running when
guard cannot answer, and what this machine leaves open; `codex_trusted` whether Codex recorded
trust for it. guard/entry/agents/setup.py writes the entries; `guard setup --detect` and `guard
doctor` report what this finds.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guard.entry.agents.config import AGENTS, FAIL_CLOSED_MARK, config_path
from guard.errors import GuardError


@dataclass(frozen=True, slots=True)
class Status:
    agent: str
    path: Path
    installed: bool
    fail_closed: bool
    note: str = ""


def is_guards(agent: str, value: object) -> bool:
    """Whether a hook command is guard's hook for `agent`."""
    return (
        isinstance(value, str)
        and re.search(rf"(^|[/'\"\s])guard['\"]?\s+hook\s+{re.escape(agent)}(\s|$)", value)
        is not None
    )


def command_of(entry: object) -> object:
    return entry.get("command", entry.get("bash")) if isinstance(entry, dict) else None


def read_config(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, {}
    except OSError as exc:
        raise GuardError(
            f"guard: cannot read {path} ({exc.strerror}); fix its permissions"
        ) from None
    try:
        data = json.loads(raw) if raw.strip() else {}
    except ValueError as exc:
        raise GuardError(
            f"guard: {path} is not JSON ({exc}); fix it or move it aside, then run this again"
        ) from None
    if not isinstance(data, dict):
        raise GuardError(f"guard: {path} does not hold a JSON object; fix it or move it aside")
    return raw, data


def status(agent: str, *, project: str | None = None) -> Status:
    """Whether guard's hook is there, and whether it fails closed (`note`: why not, or the
    part of failing closed this machine cannot give)."""
    cfg = AGENTS[agent]
    path = config_path(agent, project=project)
    if cfg.shape == "file":
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return Status(agent, path, False, False)
        ours = is_guards(agent, text) or f"guard hook {agent}" in text
        return Status(agent, path, ours, ours)
    try:
        _raw, data = read_config(path)
    except GuardError as exc:
        return Status(agent, path, False, False, str(exc))
    hooks = data.get("hooks")
    entries = hooks.get(cfg.event) if isinstance(hooks, dict) else None
    found = []
    for entry in entries if isinstance(entries, list) else []:
        inner = entry.get("hooks") if isinstance(entry, dict) else None
        for h in inner if isinstance(inner, list) else [entry]:
            if is_guards(agent, command_of(h)):
                found.append(h)
    if not found:
        return Status(agent, path, False, False)
    closed, note = True, ""
    for h in found:
        one_closed, one_note = fails_closed(agent, h)
        closed, note = closed and one_closed, note or one_note
    return Status(agent, path, True, closed, note)


def fails_closed(agent: str, entry: dict[str, Any]) -> tuple[bool, str]:
    """Whether an installed entry keeps the call from running when guard cannot answer
    (missing, not executable, crashing, hanging), and what this machine leaves open."""
    option = (agent == "claude-code" and entry.get("onFailure") == "block") or (
        agent == "cursor" and entry.get("failClosed") is True
    )
    command = command_of(entry)
    wrapped = isinstance(command, str) and FAIL_CLOSED_MARK in command
    if not (wrapped or option):
        return False, (
            f"an older hook command: {agent} runs the call when guard is missing or crashes; "
            f"run guard setup {agent} again"
        )
    if not option and shutil.which("timeout") is None:
        return True, (
            "no `timeout` program here to stop a guard that hangs, and "
            f"{agent} runs the call when its own hook timeout passes; install coreutils"
        )
    return True, ""


def codex_trusted(path: Path) -> bool:
    """Whether Codex recorded trust for guard's hook in `path` (its config.toml keeps a
    `[hooks.state."PATH:pre_tool_use:GROUP:HOOK"]` with a `trusted_hash`). Codex skips an
    untrusted hook without a word; a changed hook needs trusting again, which guard cannot see."""
    import tomllib

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
        if is_guards("codex", command_of(hook))
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
