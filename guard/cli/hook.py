"""`guard hook AGENT`: guard's verdict as the answer to an agent's own pre-tool hook.

The agent runs the hook before each tool call with its JSON on stdin; guard judges shell calls
and prints the answer in that agent's form (guard/entry/agents/protocols.py); other tools get no
opinion. Whatever goes wrong — bad or truncated JSON, a missing command, a crash — the answer
is the agent's deny with a `guard:` reason, and the exit status is 0 so that the agent reads it
(for most agents a hook that fails with another status lets the call through). Should anything
escape even that, the status is 2, the block status of Claude Code, Codex, Gemini and Cursor.

Where the agent shows its own prompt for a hook's ask (Claude Code, Gemini CLI, Copilot CLI),
ask goes there, unless ``GUARD_APPROVER=always``; elsewhere the call is held and the human at
`guard watch` answers, until a few seconds before the hook's timeout (``--timeout``, which
`guard setup` writes together with the agent's own timeout).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping

from guard.cli import summary
from guard.entry import NAMES, respond, run


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("hook", help=summary("hook"))
    p.add_argument("agent", choices=sorted(NAMES), help="whose hook protocol to speak")
    p.add_argument(
        "--timeout",
        type=float,
        help="the agent's timeout for this hook, in seconds: a held call is denied before it",
    )
    # 2 blocks in Claude Code, Codex, Gemini CLI and Cursor: should anything escape, no run
    p.set_defaults(run=run, error_status=2)


def claude_code(raw: bytes, env: Mapping[str, str]) -> dict[str, object] | None:
    """Claude Code's answer to one PreToolUse input; None for tools guard has no opinion on."""
    from guard.entry import AGENT

    text = respond(AGENT, raw, env)
    if not text:
        return None
    answer: dict[str, object] = json.loads(text)
    return answer
