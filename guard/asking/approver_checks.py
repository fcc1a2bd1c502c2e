"""What the approver checks when an ask arrives, before it queues it: whether a stored approval
already allows every request that asks (then no human is asked), and whether the ask may offer
"always (this project's .guard.toml)" — only while the human's side trusts that file as it is.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from guard.asking.approver import Ask
from guard.errors import GuardError

if TYPE_CHECKING:
    from guard.approvals.line_cache import LineCache
    from guard.approvals.store import Store


def checked(ask: Ask) -> Ask:
    """Drop an "always (this project's .guard.toml)" choice unless the human's side trusts
    that file as it is: otherwise the answer would trust rules an agent wrote there."""
    project = next((c for c in ask.question.choices if c.target == "project"), None)
    if project is None:
        return ask
    from dataclasses import replace

    from guard.approvals.trust import is_trusted
    from guard.policy.policy_file import project_policy_path

    if ask.workspace and is_trusted(project_policy_path(ask.workspace[0]))[0]:
        return ask
    kept = tuple(c for c in ask.question.choices if c is not project)
    return replace(ask, question=replace(ask.question, choices=kept))


def approved(
    ask: Ask,
    cache: LineCache,
    store: Store,
    env: Mapping[str, str],
    tell: Callable[[str, int, str], None],
) -> int:
    """The id of a stored approval under which every asking request is allowed, or 0."""
    if not ask.approvable or not ask.asking:
        return 0
    from guard.approvals.decide import decide
    from guard.policy.records import Policy
    from guard.projection.requests import SURFACES, Projection

    try:  # indexed, and read again only when the approvals change (approvals/line_cache.py)
        approvals = cache.approvals(ask.session, env, time.time(), ask.home, store=store)
    except GuardError as exc:
        tell("problem", 0, f"{exc} (approvals were not looked up)")
        return 0
    if not approvals:
        return 0
    asks = Policy(rules=(), defaults=dict.fromkeys(SURFACES, "ask"), default_sources={})
    projection = Projection(ask.command, ask.cwd, ask.workspace, ask.asking)
    verdict = decide(asks, projection, approvals, home=ask.home)
    if verdict.decision != "allow":
        return 0
    by = next(d.by for d in verdict.decided if d.by.startswith("approval #"))
    return int(by.removeprefix("approval #"))
