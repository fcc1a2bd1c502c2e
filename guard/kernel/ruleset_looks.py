"""What a kept ruleset looked at on this machine, asked again before it is used (line_hold.py).

A ruleset is built from the machine as well as from the line: the directories the cover lists,
whether paths exist, where links lead. A long-lived process (the resident checker) keeps each
ruleset with those answers and uses it again only while every one of them is the same.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence

from guard.verdict import RACY_NS, fails, no_stat


def there(path: str) -> bool:
    """`os.path.exists`, without the exception a missing path raises (most caches and tools'
    directories are missing)."""
    try:
        return not no_stat(path)
    except ValueError:  # a NUL in it: os.path.exists says no
        return False


def seen(what: str, path: str) -> object:
    """What a kept ruleset relied on: a listed directory's change stamp, a path's existence,
    where a path leads."""
    if what == "exists":
        return there(path)
    if what == "resolved":
        return resolve_link(path)
    try:
        st = os.stat(path)
    except OSError as exc:
        return exc.errno
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


# The kernel stamps a change with a clock that moves once a tick (1 to 10 ms): a directory
# changed twice within one tick keeps one stamp. A stamp that recent is not trusted (as git
# treats a "racy" index entry): the ruleset is built again on the next line (RACY_NS, the same
# second a long-lived process's looks use).
_RACY = object()  # equal to nothing a directory shows


def settled(stamp: object) -> object:
    if isinstance(stamp, tuple):
        import time

        if time.time_ns() - max(stamp[0], stamp[1]) < RACY_NS:
            return _RACY
    return stamp


def resolve_link(path: str) -> str:
    """Where a symlink leads; anything else is itself, without realpath's stat of each parent
    (the cover's paths are already real above the entry)."""
    if fails(path):  # nothing there (most protected paths): an access, no exception raised
        return path
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return path
    except OSError:
        return path
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):  # a link guard may not follow (/proc/1/cwd): left as it is
        return path


def listing(path: str, plain: set[str]) -> Sequence[str] | None:
    """The names in the directory at `path`; each entry that is no symlink is added to `plain`
    (one build's: an entry may become a link later, and its directory's stamp says so)."""
    try:
        with os.scandir(path) as entries:
            names = []
            for entry in entries:
                names.append(entry.name)
                if not entry.is_symlink():
                    plain.add(entry.path)
            return names
    except PermissionError:
        # a directory this process may not list: inside an enforced line (a nested
        # guarded-bash) that is the outer ruleset at work, and it still withholds what it
        # withholds, so this ruleset may take the directory whole
        from guard.kernel.ruleset import UNLISTABLE

        return UNLISTABLE
    except OSError:
        return None
