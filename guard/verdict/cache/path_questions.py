"""What a look at a path found, and the questions a long-lived process asks again.

A question is a kind of look (below) at a path; answered, it is kept with its answer, and
asked again on a later line to know whether what was built from it still holds (resolved_paths.py).
`pruned` turns the questions a line asked into the cheapest set that says the same: nothing
there is asked with an `access`, and nothing at or below a missing path is asked at all.

A stamp (mode, times, size, inode) younger than `RACY_NS` proves nothing: the kernel's clock
moves once a tick, and a file changed twice within one shows one stamp.
"""

from __future__ import annotations

import os
import posixpath
import time
from collections.abc import Callable
from stat import S_ISDIR

from guard.policy import owners_of as owners_of  # who may change a file

Look = os.stat_result | OSError  # what an lstat or a stat found
Question = tuple[int, str]  # which look (below), of which path
Answered = tuple[tuple[int, str, object], ...]  # questions, each with its answer
RACY_NS = 1_000_000_000  # a stamp younger than this (a second) may hide a second change
LSTAT, STAT, NODE, GONE, IDENTITY, EXISTS = range(6)  # the questions a caller asks
NO_STAT, ENTRIES = 6, 7  # and those only asked again: whether a stat fails; a directory's
# stamp, for what was not there in it (an entry made or removed changes the directory's mtime)
OWNERS = 8  # who may change a file: its mode, owner, group and inode (no times: never racy)
MISSING = object()  # what a walk found at a path: nothing there;
PLAIN = None  # or something, not a link; or a link, its target (a str)
UNSEEN = object()


if os.access in os.supports_effective_ids and os.access in os.supports_follow_symlinks:

    def fails(path: str) -> bool:
        """Whether an lstat of `path` would fail, without making one (an lstat that fails
        raises, which costs twice the look). realpath takes any failure for "not a link":
        to it, a path that fails is as good as one that is not there, and so is what is
        below it."""
        return not os.access(path, os.F_OK, effective_ids=True, follow_symlinks=False)

    def no_stat(path: str) -> bool:
        """Whether a stat of `path` would fail, without making one."""
        return not os.access(path, os.F_OK, effective_ids=True)

else:

    def fails(path: str) -> bool:
        return os.path.lexists(path) is False

    def no_stat(path: str) -> bool:
        return os.path.exists(path) is False


def stamp_of(look: Look) -> object:
    """What changes when the file changes: None for no file, an errno when it cannot be looked
    at, else its mode, times, size and inode."""
    if isinstance(look, FileNotFoundError):
        return None
    if isinstance(look, OSError):
        return look.errno
    return (look.st_mode, look.st_mtime_ns, look.st_ctime_ns, look.st_size, look.st_ino,
            look.st_dev)  # fmt: skip


def pruned(answered: Answered) -> Answered:
    """The questions worth asking again, each in its cheapest form. "Nothing there" is asked
    again with an `access` (an lstat that fails raises, which costs twice the look); it says
    whether a look fails, not why, which is all a walk or a missing file's stamp needs. And
    what a missing path answers for is not asked: nothing below it is there, nor at it."""
    asked: list[tuple[int, str, object]] = []
    for kind, path, answer in answered:
        if (kind == NODE and answer is MISSING) or (kind == LSTAT and answer is None):
            asked.append((GONE, path, True))
        elif kind == STAT and answer is None:
            asked.append((NO_STAT, path, True))
        else:
            asked.append((kind, path, answer))
    gone = {path for kind, path, answer in asked if kind == GONE and answer}
    no_file = gone | {path for kind, path, _ in asked if kind == NO_STAT}
    kept: list[tuple[int, str, object]] = []
    for kind, path, answer in asked:
        if gone and _below(path, gone):
            continue
        if kind in (NO_STAT, EXISTS, IDENTITY, OWNERS) and path in gone:
            continue
        if kind in (EXISTS, IDENTITY, OWNERS) and path in no_file:
            continue
        kept.append((kind, path, answer))
    return tuple(dict.fromkeys(kept))


def _below(path: str, gone: set[str]) -> bool:
    probe = posixpath.dirname(path)
    while probe not in ("/", ""):
        if probe in gone:
            return True
        probe = posixpath.dirname(probe)
    return False


def by_directory(
    answered: Answered, since: int, lstat: Callable[[str], Look], seen: Callable[[str], bool]
) -> tuple[Answered, bool]:
    """Paths not there, asked again as their directory's stamp when it is settled (older by a
    second than `since`, the first look): one lstat for all of them, and none more when the
    directory is looked at anyway (`seen`). And whether a directory was too young for that."""
    parents: dict[str, int] = {}
    for kind, path, _ in answered:
        if kind == GONE:
            parent = posixpath.dirname(path)
            parents[parent] = parents.get(parent, 0) + 1
    stamps: dict[str, object] = {}
    young = False
    for parent, count in parents.items():
        if not seen(parent) and count < 2:
            continue  # an access each costs less than a look of its own
        look = lstat(parent)
        if isinstance(look, os.stat_result) and S_ISDIR(look.st_mode):
            if since - max(look.st_mtime_ns, look.st_ctime_ns) >= RACY_NS:
                stamps[parent] = stamp_of(look)
            else:
                young = True
    if not stamps:
        return answered, young
    asked: list[tuple[int, str, object]] = []
    for kind, path, answer in answered:
        parent = posixpath.dirname(path) if kind == GONE else ""
        if parent in stamps:
            asked.append((ENTRIES, parent, stamps[parent]))
        else:
            asked.append((kind, path, answer))
    return tuple(dict.fromkeys(asked)), young


def settled(stamps: tuple[object, ...]) -> bool:
    """Whether no stamp is younger than a second: what was read then is what the stamps say."""
    now = time.time_ns()
    return not any(isinstance(s, tuple) and now - max(s[1], s[2]) < RACY_NS for s in stamps)
