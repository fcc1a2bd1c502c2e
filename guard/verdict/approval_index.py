"""Approvals indexed by what a request can match: a check looks at a handful, not all of them.

Every approval's pattern has a literal head (its text before the first wildcard, see
`guard.projection.patterns.literal_head`), and a request can match it only if the request's text
starts with that head. The index files each approval under its head cut at the head's last separator
(a space for commands and text, `/` for paths), and a request looks only in the buckets named by
its own text cut at each of its separators. So a request reads the approvals that could match
it, whatever the number in the store, and tests them in id order, as a plain scan would.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from guard.projection import compile_command, compile_path, compile_text, literal_head, render_argv

if TYPE_CHECKING:
    from guard.projection import Request

PATHS = ("external_directory", "protected")  # surfaces whose patterns are path patterns
MAX_KEYS = 256  # a request with more separators than this looks in every bucket of its surface


class ApprovalLike(Protocol):
    """What decide needs of a stored approval (`guard.verdict.store.schema.Approval` has
    these)."""

    @property
    def id(self) -> int: ...
    @property
    def scope(self) -> str: ...
    @property
    def surface(self) -> str: ...
    @property
    def pattern(self) -> str: ...
    @property
    def access(self) -> str | None: ...


def _cut(head: str, sep: str) -> str:
    at = head.rfind(sep)
    return head[:at] if at > 0 else ""


def _file_key(pattern: str, sep: str, home: str | None) -> str:
    """Where an approval is filed: its literal text, when it is the whole pattern or ends at a
    separator (`git commit *`, `/srv/data/**`); else that text cut at its last separator. Every
    text the pattern matches has the key as itself, or as its part before one of its separators.
    `home` is given for path patterns (`~` becomes it)."""
    if home is not None:
        pattern = pattern.rstrip("/") or pattern[:1]
        if pattern == "~" or pattern.startswith("~/"):
            pattern = home.rstrip("/") + pattern[1:]
    cut = min((i for i in (pattern.find(c) for c in "*?\\") if i >= 0), default=len(pattern))
    literal = pattern[:cut]
    if cut == len(pattern):
        return literal
    if literal.endswith(sep):
        return literal.rstrip(sep)
    return _cut(literal, sep)


def _keys(text: str, sep: str) -> list[str]:
    """The keys an approval covering `text` may be filed under."""
    keys = ["", text]
    at = text.find(sep, 1)
    while at > 0 and len(keys) <= MAX_KEYS:
        keys.append(text[:at])
        at = text.find(sep, at + 1)
    return keys


def stored_key(surface: str, pattern: str) -> str:
    """The key the store files an approval under (`~` left as it is: the store has no home)."""
    if surface in PATHS:
        return _file_key(pattern, "/", "~")
    return _file_key(pattern, " ", None)


def request_keys(request: Request, home: str) -> list[str] | None:
    """The stored keys an approval that covers `request` may have; None: too many to list."""
    text, sep = _text(request)
    keys = _keys(text, sep)
    top = home.rstrip("/")
    if request.surface in PATHS and home and (text + "/").startswith(top + "/"):
        keys += ["~" + k[len(top) :] for k in keys if len(k) >= len(top)]
    return None if len(keys) > MAX_KEYS else list(dict.fromkeys(keys))


def _text(request: Request) -> tuple[str, str]:
    if request.surface == "command":
        return render_argv(request.argv), " "
    if request.surface in PATHS:
        return request.path, "/"
    if request.surface == "effect":  # approvals of an effect name its `kind:target`
        return f"{request.kind}:{request.target}", " "
    return request.text, " "


class ApprovalIndex:
    """The approvals a process holds, bucketed per surface by their literal head."""

    __slots__ = ("_buckets", "count", "home")

    def __init__(self, approvals: Iterable[ApprovalLike], home: str) -> None:
        self.home = home
        self._buckets: dict[str, dict[str, list[ApprovalLike]]] = {}
        self.count = 0
        for approval in sorted(approvals, key=lambda a: a.id):
            surface = approval.surface
            if surface in PATHS:
                key = _file_key(approval.pattern, "/", home)
            else:
                key = _file_key(approval.pattern, " ", None)
            self._buckets.setdefault(surface, {}).setdefault(key, []).append(approval)
            self.count += 1

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[ApprovalLike]:
        return (a for buckets in self._buckets.values() for b in buckets.values() for a in b)

    def match(self, request: Request) -> ApprovalLike | None:
        """The first approval (by id) that covers `request`, or None."""
        buckets = self._buckets.get(request.surface)
        if not buckets:
            return None
        text, sep = _text(request)
        keys = _keys(text, sep)
        if len(keys) > MAX_KEYS:
            found = [a for bucket in buckets.values() for a in bucket]
        else:
            found = [a for key in keys for a in buckets.get(key, ())]
        if len(found) > 1:
            found.sort(key=lambda a: a.id)
        for approval in found:
            if _covers(approval, request, text, self.home):
                return approval
        return None


def _covers(approval: ApprovalLike, request: Request, text: str, home: str) -> bool:
    if request.surface == "command":
        return (
            text.startswith(literal_head(approval.pattern))
            and compile_command(approval.pattern).regex.fullmatch(text) is not None
        )
    if request.surface in PATHS:
        if approval.access is not None and request.access != approval.access:
            return False
        return compile_path(approval.pattern, home).fullmatch(text) is not None
    return (
        text.startswith(literal_head(approval.pattern))
        and compile_text(approval.pattern).fullmatch(text) is not None
    )
