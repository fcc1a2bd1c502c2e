"""What the page shows: the waiting requests as the terminal shows them, as JSON.

Built on the approver's thread from its queue, then handed to the page's thread as text. The
command comes as rows of ("mark" | "", text) fragments, made visible as the terminal makes it
(control characters escaped); the answers are the terminal's, with the words it shows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from guard.asking.approver_queue import Waiting
from guard.asking.prompt import command_rows, describe, needs_confirming
from guard.asking.terminal_device import visible

WIDE = 1 << 20  # columns: the page wraps the command itself
EVENTS = 8  # recent events the page lists


def snapshot(queue: Sequence[Waiting], events: Sequence[str], now: float) -> str:
    """The page's state as JSON text; ``now`` is time.monotonic()."""
    requests = [_request(w, i + 1, now) for i, w in enumerate(queue)]
    return json.dumps({"requests": requests, "events": list(events)[-EVENTS:][::-1]})


def _request(w: Waiting, position: int, now: float) -> dict[str, object]:
    ask = w.ask
    rows = command_rows(ask.command, ask.question.marks, WIDE)
    return {
        "id": w.id,
        "position": position,
        "origin": visible(ask.origin or "an agent"),
        "session": visible(ask.session),
        "workspace": visible(", ".join(ask.workspace)),
        "cwd": visible(ask.cwd),
        "rows": [[[style, text] for style, text in row] for row in rows],
        "lines": [visible(line) for line in ask.question.lines],
        "left": round(max(0.0, w.deadline - now), 1),
        "choices": [
            {
                "key": c.key,
                "scope": c.scope,
                "text": describe(c),
                "confirm": needs_confirming(c),
            }
            for c in ask.question.choices
        ],
    }
