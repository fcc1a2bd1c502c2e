"""Where paths lead, symlinks resolved, kept between the lines a long-lived process judges.

`Links.realpath` is `os.path.realpath`, its answer kept with every path the walk through it
looked at and what it found there: not there, there and not a link, or a link and its target.
That is all realpath's answer depends on, so the kept answer is used again only while each of
those paths still is what it was: an `lstat` each (an `access` for one that was not there),
and a `readlink` for a link. A path that is not there stands for every path below it (nothing
below it is there either).

Between `begin` and `end` (one line) each path is looked at once, and each realpath answered
once: the line's realpaths and the `stat` calls of line_cache.py's stamps share one look (a
path that is not a link stats as it lstats). Outside a line every look is fresh.
"""

from __future__ import annotations

import os
import posixpath
from stat import S_ISLNK

from guard.projection.paths import normalise

Look = os.stat_result | OSError  # what an lstat or a stat found
_MISSING = object()  # what a walk found at a path: nothing there;
_PLAIN = None  # or something, not a link; or a link, its target (a str)
_UNSEEN = object()


if os.access in os.supports_effective_ids and os.access in os.supports_follow_symlinks:

    def _fails(path: str) -> bool:
        """Whether an lstat of `path` would fail, without making one (an lstat that fails
        raises, which costs twice the look). realpath takes any failure for "not a link":
        to it, a path that fails is as good as one that is not there, and so is what is
        below it."""
        return not os.access(path, os.F_OK, effective_ids=True, follow_symlinks=False)

else:

    def _fails(path: str) -> bool:
        return os.path.lexists(path) is False


class Links:
    def __init__(self) -> None:
        self._kept: dict[str, tuple[str, tuple[tuple[str, object], ...]]] = {}
        self._lstats: dict[str, Look] | None = None
        self._stats: dict[str, Look] | None = None
        self._targets: dict[str, object] | None = None
        self._answers: dict[str, str] | None = None
        self._batches: dict[
            tuple[str, ...], tuple[tuple[str, ...], tuple[tuple[str, object], ...]]
        ] = {}

    def begin(self) -> None:
        self._lstats, self._stats, self._targets, self._answers = {}, {}, {}, {}

    def end(self) -> None:
        self._lstats = self._stats = self._targets = self._answers = None

    def forget(self, path: str) -> None:
        """Look at `path` again (guard itself just made or changed it)."""
        for seen in (self._lstats, self._stats, self._targets):
            if seen is not None:
                seen.pop(path, None)
        if self._answers:
            self._answers.clear()  # an answer may have gone through it

    # -- looks ------------------------------------------------------------------------------
    def lstat(self, path: str) -> Look:
        seen = self._lstats
        if seen is not None:
            found = seen.get(path)
            if found is not None:
                return found
        try:
            found = os.lstat(path)
        except OSError as exc:
            found = exc
        if seen is not None:
            seen[path] = found
            if isinstance(found, FileNotFoundError) or (
                isinstance(found, os.stat_result) and not S_ISLNK(found.st_mode)
            ):
                assert self._stats is not None
                self._stats.setdefault(path, found)  # stat sees what lstat saw
        return found

    def stat(self, path: str) -> Look:
        """`os.stat`; in a line, an lstat first (what is not a link stats as it lstats), so a
        path both stamped and resolved is looked at once."""
        seen = self._stats
        if seen is None:
            try:
                return os.stat(path)
            except OSError as exc:
                return exc
        found = seen.get(path)
        if found is not None:
            return found
        self.lstat(path)
        found = seen.get(path)
        if found is None:  # a link, or an lstat that failed otherwise
            try:
                found = os.stat(path)
            except OSError as exc:
                found = exc
            seen[path] = found
        return found

    def _target(self, path: str) -> object:
        """What a walk finds at `path`: _MISSING, _PLAIN, a link's target, or an error (the
        walk stops: realpath takes an lstat it cannot make for "not a link")."""
        targets = self._targets
        if targets is not None and path in targets:
            return targets[path]
        look = self.lstat(path)
        found: object
        if isinstance(look, FileNotFoundError):
            found = _MISSING
        elif isinstance(look, OSError):
            found = look
        elif not S_ISLNK(look.st_mode):
            found = _PLAIN
        else:
            try:
                found = os.readlink(path)
            except OSError as exc:
                found = exc
        if targets is not None:
            targets[path] = found
        return found

    # -- realpath ---------------------------------------------------------------------------
    def realpath(self, path: str) -> str:
        answers = self._answers
        if answers is not None:
            answer = answers.get(path)
            if answer is not None:
                return answer  # asked already in this line
        kept = self._kept.get(path)
        if kept is not None and self._unchanged(kept[1]):
            answer = kept[0]
        else:
            if kept is not None:
                del self._kept[path]  # what it saw has changed
            answer = os.path.realpath(path)  # the answer, and its errors, are realpath's own
            if path[:1] == "/":
                looked: list[tuple[str, object]] = []
                walked = self._join("/", path, {}, looked)
                if walked is not None and posixpath.normpath(walked) == answer:
                    if len(self._kept) > 4096:
                        self._kept.clear()
                    self._kept[path] = (answer, tuple(looked))
        if answers is not None:
            answers[path] = answer
        return answer

    def realpaths(self, paths: tuple[str, ...]) -> tuple[str, ...]:
        """`realpath` of each, kept together: checked again as one list of what they saw."""
        kept = self._batches.get(paths)
        if kept is not None and self._unchanged(kept[1]):
            return kept[0]
        answers = tuple(self.realpath(p) for p in paths)
        looks = [self._kept.get(p) for p in paths]
        if all(k is not None and k[0] == a for k, a in zip(looks, answers, strict=True)):
            looked = tuple(dict.fromkeys(e for k in looks if k is not None for e in k[1]))
            if len(self._batches) > 64:
                self._batches.clear()
            self._batches[paths] = (answers, looked)
        return answers

    def real(self, path: str) -> str:
        """`realpath`, normalised (`//x` is `/x`): the workspace's resolver."""
        return normalise(self.realpath(path))

    def _unchanged(self, looked: tuple[tuple[str, object], ...]) -> bool:
        seen = self._targets.get if self._targets is not None else None
        gone = ""
        for probe, found in looked:
            if gone and found is _MISSING and probe.startswith(gone):
                continue  # below a path that is not there: not there either
            now = seen(probe, _UNSEEN) if seen is not None else _UNSEEN
            if now is _UNSEEN:
                now = _MISSING if found is _MISSING and _fails(probe) else self._target(probe)
            if now != found:
                return False
            if found is _MISSING:
                gone = probe + "/"
        return True

    def _join(
        self, path: str, rest: str, seen: dict[str, str | None], out: list[tuple[str, object]]
    ) -> str | None:
        """posixpath._joinrealpath, noting what it looks at; None where it would not simply
        walk on (a loop, a path it cannot look at): such answers are not kept."""
        if rest[:1] == "/":
            rest, path = rest[1:], "/"
        while rest:
            name, _, rest = rest.partition("/")
            if not name or name == ".":
                continue
            if name == "..":
                path = posixpath.split(path)[0]
                continue
            newpath = posixpath.join(path, name)
            target = self._target(newpath)
            if target is _PLAIN or target is _MISSING:
                out.append((newpath, target))
                path = newpath
                continue
            if not isinstance(target, str):
                return None
            out.append((newpath, target))
            if newpath in seen:
                kept = seen[newpath]
                if kept is None:
                    return None  # a loop
                path = kept
                continue
            seen[newpath] = None
            joined = self._join(path, target, seen, out)
            if joined is None:
                return None
            path = seen[newpath] = joined
        return path
