"""The surroundings a line is judged in: its workspace, context, trust, policy, protected list
and the approver page's port.

judgement.py builds them for each line; a long-lived process keeps them between lines while
nothing they were built from has changed (line_cache.py).
"""

from __future__ import annotations

from typing import NamedTuple

from guard.policy import Policy
from guard.projection import Context


class Surroundings(NamedTuple):
    """What a line is judged in, the same for every line until something it saw changes."""

    context: Context  # with the protected list, and the session's kind
    policy: Policy
    trusted: bool  # the project file is absent or trusted as it is
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    workspace_why: str
    trust_asked: str = ""  # the project file whose trust was asked: asked again each line
    trust_note: str = ""
    web_port: int | None = None  # where `guard watch --web` serves its page (web_port.py)
