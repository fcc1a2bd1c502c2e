"""What a glob matches now, listing at most so many directory entries to find out.

`glob.iglob` stops early only when it finds matches: a pattern that matches nothing, such as
`/*/*/*/*/*/*/*/nothing`, walks the whole filesystem first (minutes). This walk follows the
same rules as `glob.glob` without `recursive` (a component is matched with `fnmatch`, names
starting with `.` only by a component that starts with `.`, `**` is `*`), and counts the entries
it lists: past `max_entries` it raises `OverBudget`, so the line asks instead of waiting.
"""

from __future__ import annotations

import os
import re
from fnmatch import fnmatchcase

from guard.projection.budget import OverBudget

MAX_ENTRIES = 20_000
_MAGIC = re.compile(r"[*?[]")


def is_pattern(word: str) -> bool:
    """Whether `word` has anything to match (`*`, `?` or `[`): else it matches only itself."""
    return _MAGIC.search(word) is not None


def matches(pattern: str, *, max_matches: int = 256, max_entries: int = MAX_ENTRIES) -> list[str]:
    """Up to `max_matches` paths `pattern` matches, in no fixed order; raises OverBudget."""
    if not _MAGIC.search(pattern):
        return [pattern] if os.path.lexists(pattern) else []
    absolute = pattern.startswith("/")
    parts = [p for p in pattern.split("/") if p] if absolute else pattern.split("/")
    found: list[str] = []
    listed = 0
    # a stack of (directory so far, index of the next part); "" is the current directory
    stack: list[tuple[str, int]] = [("/" if absolute else "", 0)]
    while stack and len(found) < max_matches:
        base, at = stack.pop()
        part = parts[at]
        last = at == len(parts) - 1
        if not _MAGIC.search(part):
            path = _join(base, part)
            if last:
                if part == "" or os.path.lexists(path):  # "" : a pattern ending in "/"
                    found.append(path)
            elif os.path.isdir(path):
                stack.append((path, at + 1))
            continue
        try:
            with os.scandir(base or ".") as entries:
                names = []
                for entry in entries:
                    listed += 1
                    if listed > max_entries:
                        raise OverBudget(
                            f"matching {pattern} lists more than {max_entries} directory entries"
                        )
                    if last or _is_dir(entry):
                        names.append(entry.name)
        except OSError:
            continue
        hidden_too = part.startswith(".")
        for name in names:
            if (hidden_too or not name.startswith(".")) and fnmatchcase(name, part):
                if last:
                    found.append(_join(base, name))
                else:
                    stack.append((_join(base, name), at + 1))
    return found[:max_matches]


def _join(base: str, name: str) -> str:
    if not base:
        return name
    return base + name if base.endswith("/") else f"{base}/{name}"


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False
