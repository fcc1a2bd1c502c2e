"""`guard hook AGENT [--timeout N]` through the resident checker, before argparse is imported.

The client reads the hook's input and sends it; the checker answers every call that needs no
human. A call it would hold for `guard watch`, or an ask whose answer depends on whether a human
sees the agent's own prompt (guard/entry/agents/prompt.py: only this process, below the agent,
can tell), comes back, and this process answers it as `guard hook` does without a checker. So
this path imports no agent's record: only the registry's names.
"""

from __future__ import annotations

import os

from guard.entry.agents.registry import NAMES
from guard.entry.resident import protocol as wire
from guard.entry.resident.client import exchange, read_stdin, write_fd


def fast_hook(argv: list[str]) -> int | None:
    """`hook AGENT [--timeout N]` through the checker; None: run it as usual (nothing was
    done, for another form of the arguments or with the checker turned off)."""
    if not wire.enabled(os.environ):
        return None
    hooked = hook_arguments(argv)
    return None if hooked is None else hook_cli(*hooked)


MAX_HOOK_INPUT = 16 << 20  # guard.entry.agents.core.MAX_INPUT: bytes of hook input read


AGENTS = frozenset(NAMES)  # the registry's names: this path imports no agent's module


def hook_arguments(argv: list[str]) -> tuple[str, str | None] | None:
    """`hook AGENT [--timeout N]` (as `guard setup` writes it): the agent and the timeout's
    text; None for anything else, which argparse then reads."""
    if len(argv) < 2 or argv[1] not in AGENTS:
        return None
    rest = argv[2:]
    if not rest:
        return argv[1], None
    if len(rest) == 2 and rest[0] == "--timeout":
        value = rest[1]
    elif len(rest) == 1 and rest[0].startswith("--timeout="):
        value = rest[0].partition("=")[2]
    else:
        return None
    try:
        float(value)
    except ValueError:
        return None  # argparse says what is wrong with it
    return argv[1], value


def hook_cli(agent: str, timeout: str | None) -> int:
    """`guard hook AGENT` through the checker; in this process when it does not answer (a call
    held for a human, no checker)."""
    raw = read_stdin(MAX_HOOK_INPUT + 1)
    from guard.verdict import current_session

    pairs: list[tuple[str, str | bytes]] = [
        ("kind", "hook"), ("agent", agent), ("input", raw), ("session", current_session()),
    ]  # fmt: skip
    if timeout is not None:
        pairs.append(("timeout", timeout))
    answer = exchange(pairs)
    if answer is None:
        import argparse

        from guard.entry.agents.hook import run

        seconds = float(timeout) if timeout is not None else None
        return run(argparse.Namespace(agent=agent, timeout=seconds), raw)
    write_fd(2, wire.first(answer, "stderr"))
    write_fd(1, wire.first(answer, "stdout"))
    return 0
