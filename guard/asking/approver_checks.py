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
from guard.policy import Policy

if TYPE_CHECKING:
    from guard.verdict import LineCache, Store


def checked(ask: Ask) -> Ask:
    """The choices this side may offer. Only "this once" and deny for a request the machine's
    managed policy asks (an approval never answers it), no lasting one where that policy turns
    them off, and "always (this project's .guard.toml)" only while the human's side trusts
    that file as it is: otherwise the answer would trust rules an agent wrote there."""
    from dataclasses import replace

    from guard.policy import setting

    policy = _machine_policy(ask)
    drop: set[str] = set()
    if _managed_asks(ask, policy):
        drop |= {"session", "always"}
    elif setting(policy.settings, "approvals.always") is False:
        drop.add("always")
    kept = tuple(c for c in ask.question.choices if c.scope not in drop)
    project = next((c for c in kept if c.target == "project"), None)
    if project is not None:
        from guard.policy import project_policy_path
        from guard.verdict import is_trusted

        if not (ask.workspace and is_trusted(project_policy_path(ask.workspace[0]))[0]):
            kept = tuple(c for c in kept if c is not project)
    if kept == ask.question.choices:
        return ask
    return replace(ask, question=replace(ask.question, choices=kept))


def _machine_policy(ask: Ask) -> Policy:
    """This side's policy, with the machine's managed layer: what the requester says of its
    own policy counts for nothing here."""
    from guard.policy import load_policy

    return load_policy(None, home=ask.home)


def _managed_asks(ask: Ask, policy: Policy) -> bool:
    """Whether the managed layer's deny or ask decides one of the requests that ask."""
    if not policy.managed_rules or not ask.asking:
        return False
    from guard.projection import SURFACES, Projection
    from guard.verdict import decide

    only = Policy(rules=(), defaults=dict.fromkeys(SURFACES, "allow"), default_sources={},
                  managed_rules=policy.managed_rules)  # fmt: skip
    verdict = decide(only, Projection(ask.command, ask.cwd, ask.workspace, ask.asking), (),
                     home=ask.home)  # fmt: skip
    return any(d.by.startswith("managed") for d in verdict.decided)


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
    from guard.policy import setting
    from guard.projection import SURFACES, Projection
    from guard.verdict import decide

    try:  # indexed, and read again only when the approvals change (approvals/line_cache.py)
        approvals = cache.approvals(ask.session, env, time.time(), ask.home, store=store)
    except GuardError as exc:
        tell("problem", 0, f"{exc} (approvals were not looked up)")
        return 0
    if not approvals:
        return 0
    policy = _machine_policy(ask)  # its managed ask stays an ask, whatever was approved
    if setting(policy.settings, "approvals.always") is False:
        approvals = tuple(a for a in approvals if getattr(a, "scope", "") != "always")  # type: ignore[assignment]
        if not approvals:
            return 0
    asks = Policy(rules=(), defaults=dict.fromkeys(SURFACES, "ask"), default_sources={},
                  managed_rules=policy.managed_rules)  # fmt: skip
    projection = Projection(ask.command, ask.cwd, ask.workspace, ask.asking)
    verdict = decide(asks, projection, approvals, home=ask.home)
    if verdict.decision != "allow":
        return 0
    by = next(d.by for d in verdict.decided if d.by.startswith("approval #"))
    return int(by.removeprefix("approval #"))
