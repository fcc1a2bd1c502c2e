"""What an ask offers a human: each answer's key, its scope and the approvals it would store.

Built once, here, from the requests that ask (guard/approvals/arity.py says what each may
remember); the terminal prompt (guard/asking/confirmation.py) and the approver
(guard/asking/approver.py) only render it. Nothing here is kept between lines: whether a path
is a directory is asked when the offers are built, just before the question is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from guard.approvals import Choice as Grant
from guard.approvals import approval_choices
from guard.projection import Request

__all__ = ["Grant", "Offer", "granted", "offers_for"]


@dataclass(frozen=True, slots=True)
class Offer:
    """One answer: its key ("y", "s", "d", "a", "p", "n"), its scope (once, session, always,
    deny), what it stores, which policy file an always answer writes ("user", "project"), and
    whether it takes a second key (a protected path asks)."""

    key: str
    scope: str
    grants: tuple[Grant, ...] = ()
    target: str = ""
    sure: bool = False


def offers_for(
    asking: Sequence[Request],
    *,
    home: str,
    is_dir: Callable[[str], bool],
    rememberable: bool = True,
    always: bool = True,
    project: bool = False,
) -> tuple[Offer, ...]:
    """The answers offered for `asking`: once and deny always; for this session (narrowest,
    and directories and below when that is wider), always in the user's file (`always`) and in
    the project's (`project`) only when every request may be remembered (`rememberable`, and
    each has a scope)."""
    narrow: list[Grant] = []
    wide: list[Grant] = []
    for request in asking if rememberable else ():
        options = approval_choices(
            request, home=home, is_dir=bool(request.path) and is_dir(request.path)
        )
        if not options:
            rememberable = False
            break
        narrow.append(options[0])
        wide.append(options[-1])
    sure = any(r.surface == "protected" for r in asking)  # a protected path: a second key
    offers = [Offer("y", "once", (), sure=sure)]
    if rememberable and narrow:
        offers.append(Offer("s", "session", tuple(narrow), sure=sure))
        if tuple(dict.fromkeys(wide)) != tuple(dict.fromkeys(narrow)):
            offers.append(Offer("d", "session", tuple(wide), sure=sure))
        if always:  # the managed policy may turn off lasting approvals
            offers.append(Offer("a", "always", tuple(narrow), "user"))
            if project:  # an untrusted project file gets nothing added
                offers.append(Offer("p", "always", tuple(narrow), "project"))
    offers.append(Offer("n", "deny", ()))
    return tuple(offers)


def granted(offers: Sequence[Offer]) -> dict[str, tuple[Grant, ...]]:
    """For each key, the approvals that answer stores."""
    return {o.key: o.grants for o in offers}
