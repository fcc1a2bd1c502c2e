"""The approver's queue, as the human sees it: a request waiting for an answer, the events
shown at `guard watch`, and a waiting request as the control socket lists it.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import Literal

from guard.asking.approver import Ask


@dataclass(frozen=True, slots=True)
class Event:
    """Something the human should see: a request arrived, was answered, went away …"""

    kind: Literal["arrived", "allowed", "denied", "withdrawn", "refused", "problem"]
    id: int  # the request, 0 when there is none
    text: str


@dataclass(slots=True)
class Waiting:
    """A request in the queue: what it asks, who waits for the answer, and since when."""

    id: int
    ask: Ask
    sock: socket.socket
    pid: int
    arrived: float  # time.monotonic()
    deadline: float

    def waited(self, now: float) -> float:
        return max(0.0, now - self.arrived)


def waiting_summary(w: Waiting, now: float) -> dict[str, object]:
    return {
        "id": w.id,
        "session": w.ask.session,
        "origin": w.ask.origin,
        "command": w.ask.command,
        "waited": round(w.waited(now), 1),
        "left": round(max(0.0, w.deadline - now), 1),
        "choices": [
            {"key": c.key, "label": c.label, "covers": c.covers} for c in w.ask.question.choices
        ],
    }
