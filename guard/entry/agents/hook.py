"""Answering one agent hook call in this process: read the hook's input from stdin (or take the
bytes the resident checker's client already read), print the answer in the agent's form, and
exit 0; anything that goes wrong is the agent's deny. `guard hook AGENT` (guard/cli/hook.py)
runs it, and the resident checker's client does when no checker answers.
"""

from __future__ import annotations

import argparse
import os
import sys

from guard.entry.agents.core import MAX_INPUT, respond
from guard.entry.agents.protocols import PROTOCOLS


def run(args: argparse.Namespace, raw: bytes | None = None, *, in_band: bool | None = None) -> int:
    """`raw`: the hook's input, and `in_band`, whether a human answers the agent's own prompt,
    when the resident checker's client found them out already."""
    protocol = PROTOCOLS[args.agent]
    try:
        raw = sys.stdin.buffer.read(MAX_INPUT + 1) if raw is None else raw
        text = respond(protocol, raw, os.environ, hook_timeout=args.timeout, in_band=in_band)
    except BaseException as exc:  # fail closed, whatever it was
        from guard.entry.agents.core import refused

        text = protocol.answer(refused(f"could not check the command ({exc!r})"))
    if text:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    return 0
