"""Protected paths: the list of places every access to which asks, inside the workspace or not.

Pure: the list comes from the policy (`[protected]` in each layer) and from the edge (guard's
own config, state and runtime directories); `~` is the home directory the edge names. An entry
is a path pattern (see guard/projection/patterns.py) that covers the path and everything below it;
an entry without a leading `/` or `~` names that path in any directory (`.git/hooks` is every
repository's hooks). Entries may cover every access or writes only.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from typing import NamedTuple

from guard.projection.patterns import compile_path, is_relative_path_pattern
from guard.projection.requests import Access


class ProtectedPath(NamedTuple):
    """One entry of the protected list: a path pattern (the path and everything below it) and
    the accesses it covers (empty: any). A pattern without a leading `/` or `~` names that
    path in any directory (`.git/hooks`)."""

    pattern: str
    access: tuple[Access, ...] = ()
    source: str = ""
    agent_only: bool = False  # `secrets`: reads in agents' sessions only ("!x" excepts x)


_UNSEEN = object()
_SEEN_PATHS = 8192  # answers kept by a protected list, at most


class ProtectedPaths:
    """A compiled protected list: `match(path, access)` gives the entry that covers it."""

    __slots__ = (
        "_any",
        "_covering",
        "_entries",
        "_except",
        "_literal",
        "_reads",
        "_seen",
        "_writes",
        "home",
    )

    def __init__(self, entries: Iterable[ProtectedPath], home: str) -> None:
        self.home = home.rstrip("/") or "/"
        given = tuple(entries)
        # `secrets` entries `!x`: exceptions to the secrets (`.env.*` but not `.env.example`)
        excepted = [e.pattern[1:] for e in given if e.agent_only and e.pattern.startswith("!")]
        self._entries = tuple(e for e in given if not e.pattern.startswith("!"))
        any_: list[str] = []
        writes: list[str] = []
        reads: list[str] = []
        literal: list[tuple[tuple[str, ...], ProtectedPath]] = []
        for entry in self._entries:
            text = entry.pattern
            text = _anchored(text)
            regex = compile_path(text.rstrip("/") + "/**", self.home).pattern
            group = writes if entry.access == ("write",) else any_
            (reads if entry.access == ("read",) else group).append(regex)
            literal.append((tuple(_expand(text, self.home).split("/")), entry))
        self._any = _union(any_)
        self._writes = _union(writes)
        self._reads = _union(reads)
        self._except = _union(
            [compile_path(covered_pattern(p), self.home).pattern for p in excepted]
        )
        self._literal = tuple(literal)
        # each entry with what it covers, compiled once: `match` names the first that covers
        self._covering = tuple(
            (e, e.access, compile_path(covered_pattern(e.pattern), self.home))
            for e in self._entries
        )
        self._seen: dict[tuple[str, str], ProtectedPath | None] = {}

    @property
    def entries(self) -> tuple[ProtectedPath, ...]:
        return self._entries

    def match(self, path: str, access: str) -> ProtectedPath | None:
        """The entry that protects `access` to `path` (absolute, normalised), or None; each
        answer kept (the list never changes): a project's files come back line after line,
        `grep -r` a few dozen at a time, and a path costs some regex searches, a few µs."""
        key = (path, access)
        seen = self._seen
        found = seen.get(key, _UNSEEN)
        if found is _UNSEEN:
            if len(seen) >= _SEEN_PATHS:
                seen.clear()
            found = seen[key] = self._match(path, access)
        return found  # type: ignore[return-value]

    def _match(self, path: str, access: str) -> ProtectedPath | None:
        hit = self._any is not None and self._any.covers(path)
        if not hit and access == "write" and self._writes is not None:
            hit = self._writes.covers(path)
        if not hit and access == "read" and self._reads is not None:
            hit = self._reads.covers(path) and not self.excepted(path)
        if not hit:
            return None
        for entry, accesses, covered in self._covering:
            if (not accesses or access in accesses) and covered.fullmatch(path) is not None:
                return entry
        return self._entries[0]

    def excepted(self, path: str) -> bool:
        """Whether a `!x` secrets entry excepts `path` (`.env.example`)."""
        return self._except is not None and self._except.covers(path)

    def may_match(self, glob: str, access: str) -> ProtectedPath | None:
        """The entry a glob (`~/.s*/id_rsa`, `/etc/sh*`) could reach, whatever matches it now:
        component by component, each side read as a pattern of the other."""
        parts = glob.split("/")
        for entry_parts, entry in self._literal:
            if entry.access and access not in entry.access:
                continue
            if entry.agent_only and self.excepted(glob):
                continue
            if entry_parts[:2] == ("", "**"):
                tail = entry_parts[2:]
                starts = range(1, max(len(parts) - len(tail) + 1, 1))
                if any(_parts_meet(parts[i : i + len(tail)], tail) for i in starts):
                    return entry
                continue
            if len(parts) >= len(entry_parts) and _parts_meet(parts, entry_parts):
                return entry
        return None


def covered_pattern(pattern: str) -> str:
    """The path pattern of what an entry covers: the path, and everything below it, in any
    directory when the entry is relative."""
    return _anchored(pattern).rstrip("/") + "/**"


def _parts_meet(parts: list[str] | tuple[str, ...], entry: tuple[str, ...]) -> bool:
    for have, want in zip(parts, entry, strict=False):
        if have == want:
            continue
        if have[:1] in ("*", "?", "[") and want.startswith("."):
            return False  # bash's globs do not match a leading dot unless they spell it
        if not (fnmatch.fnmatchcase(want, have) or fnmatch.fnmatchcase(have, want)):
            return False
    return True


def _anchored(pattern: str) -> str:
    """A relative entry names that path in any directory."""
    if not is_relative_path_pattern(pattern):
        return pattern
    while pattern.startswith("./"):
        pattern = pattern[2:]
    return "/**/" + pattern


def _expand(pattern: str, home: str) -> str:
    if pattern == "~" or pattern.startswith("~/"):
        return home + pattern[1:]
    return pattern


class _Union:
    """Path regexes (compile_path's) joined: `covers(path)` says whether one matches it all.

    Most relative entries read `(?:/.*)?/X(?:/.*)?` (`.env` in any directory, and below):
    one regex of them all made a fullmatch try every way of splitting each path, some 60 µs
    a path. Matched against an absolute path, such an entry matches when `X` matches from
    some `/` to a `/` or the end: every part before that `/` starts with one (or is empty),
    which is all `(?:/.*)?` asks. So those are searched for as `/X(?=/|$)`, one regex that
    skips to each slash, and the others (anchored at `/` or `~`) matched whole as before; a
    path that is not absolute is matched against all of them joined, as written."""

    __slots__ = ("_anchored", "_floating", "_whole")

    def __init__(self, regexes: list[str]) -> None:
        anchored: list[str] = []
        floating: list[str] = []
        for regex in regexes:
            if regex.startswith(_ANY_DEPTH + "/") and regex.endswith(_ANY_DEPTH):
                floating.append(regex[len(_ANY_DEPTH) : -len(_ANY_DEPTH)] + r"(?=/|\Z)")
            else:
                anchored.append(regex)
        self._whole = _joined(regexes)
        self._anchored = _joined(anchored)
        self._floating = _joined(floating)

    def covers(self, path: str) -> bool:
        if path[:1] != "/":
            return self._whole is not None and self._whole.fullmatch(path) is not None
        if self._anchored is not None and self._anchored.fullmatch(path) is not None:
            return True
        return self._floating is not None and self._floating.search(path) is not None


_ANY_DEPTH = "(?:/.*)?"  # compile_path's `/**`


def _joined(regexes: list[str]) -> re.Pattern[str] | None:
    """One regex of them all, the beginning each shares with others written once:
    `/h/u/\\.ssh…|/h/u/\\.aws…` is `/h/u/\\.(?:ssh…|aws…)`. Joined as written (`(?:a)|(?:b)`),
    a path in the workspace, beside the home directory, was matched against the home
    directory's thirty entries one after another, some 3 µs a path."""
    if not regexes:
        return None
    return re.compile(_alternatives([_leading_units(r) for r in regexes]), re.DOTALL)


_STOPS = frozenset("(|")
_REPEATS = frozenset("*+?{")


def _leading_units(regex: str) -> tuple[tuple[str, ...], str]:
    """The units `regex` begins with, each as written (a character, an escape, a class, any
    with its repeat: `[^/]*`), up to its first group, and what follows them; none for a regex
    with a `|` outside its groups (it is one alternative whole)."""
    if _branches(regex):
        return (), f"(?:{regex})"
    units: list[str] = []
    at = 0
    while at < len(regex) and regex[at] not in _STOPS:
        end = _unit_end(regex, at)
        if end is None:
            break
        units.append(regex[at:end])
        at = end
    return tuple(units), regex[at:]


def _unit_end(regex: str, at: int) -> int | None:
    """Where the unit starting at `at` ends, with its repeat (`*`, `{2,3}`, lazy `?`); None
    where it cannot be told simply."""
    if regex[at] == "\\":
        end = at + 2
    elif regex[at] == "[":
        end = at + 1
        if regex[end : end + 1] == "^":
            end += 1
        end += 1  # a `]` first in the class is one of its own
        while end < len(regex) and regex[end] != "]":
            end += 2 if regex[end] == "\\" else 1
        end += 1
    else:
        end = at + 1
    if end > len(regex):
        return None
    if regex[end : end + 1] == "{":
        close = regex.find("}", end)
        if close < 0:
            return None
        end = close + 1
    elif regex[end : end + 1] in _REPEATS:
        end += 1
    if regex[end : end + 1] in ("?", "+") and regex[end - 1 : end] in _REPEATS | {"}"}:
        end += 1  # lazy or possessive
    return end


def _alternatives(entries: list[tuple[tuple[str, ...], str]]) -> str:
    """The regex of any of `entries` (leading units, rest), those sharing a first unit
    under it once, as a trie (`AB|AC` is `A(?:B|C)`: the same paths match)."""
    ends: list[str] = []
    by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for atoms, rest in entries:
        if atoms:
            by_first.setdefault(atoms[0], []).append((atoms[1:], rest))
        else:
            ends.append(rest)
    choices = list(dict.fromkeys(ends))
    for first, below in by_first.items():
        inner = _alternatives(below)
        choices.append(first + (f"(?:{inner})" if _branches(inner) else inner))
    return choices[0] if len(choices) == 1 else "|".join(choices)


def _branches(regex: str) -> bool:
    """Whether `regex` has a `|` outside every group and character class."""
    depth = 0
    opened = -1  # where the character class we are in began (-1: in none)
    escaped = False
    for at, char in enumerate(regex):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif opened >= 0:  # a `]` first in the class (after `[` or `[^`) is one of its own
            if char == "]" and at > opened + 1 and regex[opened + 1 : at] != "^":
                opened = -1
        elif char == "[":
            opened = at
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            return True
    return False


def _union(regexes: list[str]) -> _Union | None:
    return _Union(regexes) if regexes else None
