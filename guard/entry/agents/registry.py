"""The agents guard knows: the one place an agent is registered.

Adding an agent is one module, guard/entry/agents/<agent>.py, exporting `AGENT` (an `Agent`
record, guard/entry/agents/agent.py), and one line here. Everything else — `guard hook` and
`guard setup`'s choices, the config files, the fail-closed checks, detection, the resident
checker's client — is read from the records. Only the names are here, so that the per-call path
(`guard hook AGENT` through the resident checker) needs no module but the one agent's.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself costs the per-call path milliseconds
if TYPE_CHECKING:
    from guard.entry.agents.agent import Agent

MODULES = {  # name -> module below guard/entry/agents/, in the order listings show them
    "claude-code": "claude_code",
    "codex": "codex",
    "cursor": "cursor",
    "gemini": "gemini",
    "copilot": "copilot",
    "cline": "cline",
    "opencode": "opencode",
}
NAMES = tuple(MODULES)


def agent(name: str) -> Agent:
    """The record of the agent `name` (KeyError for a name guard does not know)."""
    from importlib import import_module  # not on the per-call path, which needs only NAMES

    record: Agent = import_module(f"guard.entry.agents.{MODULES[name]}").AGENT
    return record


def agents() -> dict[str, Agent]:
    """Every agent's record, by name."""
    return {name: agent(name) for name in NAMES}
