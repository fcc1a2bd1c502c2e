"""An agent's shell call and guard's answer to it: what the agents' records (one module per
agent, guard/entry/agents/registry.py) and the judging (guard/entry/agents/core.py) share.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class AgentCall:
    """One shell call an agent is about to make, as its hook input describes it."""

    agent: str  # "codex", "cursor" …: the origin shown at `guard watch` and in the audit log
    command: str
    cwd: str
    session: str  # "codex:<session id>"
    workspace_dir: str | None = None  # the agent's project directory, when it names one


@dataclass(frozen=True, slots=True)
class AgentAnswer:
    decision: str  # "allow", "deny" or "ask"
    reason: str  # one line starting with "guard"


class Unreadable(Exception):
    """The hook input is not what the agent documents; the message says what is missing."""


Parse = Callable[[dict[str, Any], Mapping[str, str]], AgentCall | None]


def session_for(agent: str, given: object) -> str:
    """`agent:<id>` from the agent's session id field, else this process's parent session."""
    if isinstance(given, str) and given.strip():
        return f"{agent}:{given.strip()}"
    from guard.verdict import current_session

    return current_session()


def absolute(path: object) -> str | None:
    return path if isinstance(path, str) and os.path.isabs(path) else None
