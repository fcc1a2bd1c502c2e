"""Reading an agent's hook JSON and writing an answer: what the agents' records share."""

from __future__ import annotations

import json
import os
from typing import Any

from guard.entry.agents.calls import AgentAnswer, Unreadable, absolute


def text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise Unreadable(f"the hook input has no {what}")
    return value


def cwd(value: object, fallback: str | None = None) -> str:
    if isinstance(value, str) and os.path.isabs(value):
        return value
    if (value is None or value == "") and fallback:
        return fallback
    raise Unreadable(f"the hook input's cwd {value!r} is not a path")


def first_root(value: object) -> str | None:
    if isinstance(value, list) and value:
        return absolute(value[0])
    return None


def as_json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


def pretooluse(answer: AgentAnswer) -> dict[str, Any]:
    """The PreToolUse answer Claude Code reads (and Codex, for a deny)."""
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": answer.decision,
            "permissionDecisionReason": answer.reason,
        }
    }
