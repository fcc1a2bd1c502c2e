"""Each agent's hook protocol, by name: the records of guard/entry/agents/registry.py (each
agent's module says where its JSON keeps the command and how it reads an answer; sources in
docs/agents.md). `guard hook AGENT` takes only its one agent's record (registry.agent)."""

from __future__ import annotations

from guard.entry.agents.agent import Agent
from guard.entry.agents.registry import agents

PROTOCOLS: dict[str, Agent] = agents()
