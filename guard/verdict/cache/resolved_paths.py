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

`record()` … `recorded()` notes every question asked between them (which look, of which path)
with its answer, so that a caller can keep what it built from those answers and know later
whether it still holds: `still(questions)` asks each again. A stamp (a file's mode, times,
size and inode) younger than `RACY_NS` is no proof: a file changed twice within one tick of
the kernel's clock shows one stamp. What saw one is not kept (`recorded` says None), nor what
saw an answer that was an error, nor a realpath whose walk could not be followed.

With the disk watched, a directory a walk found (there, and no link) is vouched for on later
lines by the kernel (`_settle`) until it tells of any change.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from stat import S_ISDIR, S_ISLNK
from typing import NamedTuple, TypeVar

from guard.projection import is_pattern, normalise
from guard.verdict.cache import disk_changes
from guard.verdict.cache.path_questions import (
    ENTRIES,
    EXISTS,
    GONE,
    IDENTITY,
    LSTAT,
    MISSING,
    NO_STAT,
    NODE,
    OWNERS,
    PLAIN,
    RACY_NS,
    STAT,
    UNSEEN,
    Answered,
    Look,
    Question,
    by_directory,
    fails,
    no_stat,
    owners_of,
    pruned,
    stamp_of,
)
from guard.verdict.workspace import glob_matches

T = TypeVar("T")
# the questions the kernel tells of a change to (disk_changes.py): on names (what a walk found,
# a file not there, a directory's entries), and on a file's owner, mode and inode
_NAMES = frozenset({NODE, GONE, NO_STAT, ENTRIES, IDENTITY, OWNERS, EXISTS})
MAX_SETTLED = 1024  # directories vouched for across lines (`Links._settle`)


class _Vouched(NamedTuple):
    answered: Answered  # the questions, as kept by the caller
    generation: int  # the disk's generation when they were last asked
    nodes: tuple[tuple[str, object], ...]  # what a walk found at each of these
    gone: tuple[str, ...]  # these are not there
    rest: Answered  # what the kernel cannot tell: asked on every line
    plain: tuple[str, tuple[tuple[str, object], ...]] | None  # the deepest directory found
    # with no link on the way, and the walk's looks to it


def _plain_chain(
    answered: Answered,
) -> tuple[str, tuple[tuple[str, object], ...]] | None:
    """The deepest path a walk found, with every path above it, to be neither a link nor
    missing (the workspace, usually), with those looks in a walk's order."""
    plain = {path for kind, path, answer in answered if kind == NODE and answer is PLAIN}
    deepest: tuple[str, tuple[tuple[str, object], ...]] | None = None
    for path in plain:
        parts = path.split("/")[1:]
        chain = tuple("/" + "/".join(parts[: n + 1]) for n in range(len(parts)))
        if all(p in plain for p in chain) and (deepest is None or len(chain) > len(deepest[1])):
            deepest = (path, tuple((p, PLAIN) for p in chain))
    return deepest


def _asked(ask: Callable[[str], T], path: str) -> T | OSError:
    """What `ask` (lstat, stat, readlink) answers for `path`, or the error it raised, kept
    without its traceback: the frames of the walk would tie each kept error into a cycle that only
    the collector frees."""
    try:
        return ask(path)
    except OSError as exc:
        exc.__traceback__ = None
        return exc


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
        self._gone: dict[str, bool] | None = None
        self._plain: tuple[str, tuple[tuple[str, object], ...]] | None = None  # (_plain_chain)
        self._changes: disk_changes.DiskChanges | None = None  # what the kernel tells
        self._no_changes = False  # it cannot: every question is asked every line
        self._vouched: dict[int, _Vouched] = {}  # questions the kernel vouches for, by id
        self._settled: dict[str, None] = {}  # directories a walk found, vouched for (_settle)
        self._settled_at = -1  # the disk's generation when they were
        self._generation = -1  # the disk's generation when the line began
        self._log: dict[Question, None] | None = None  # the questions asked while recording
        self._unsure = False  # an answer was seen that `recorded` must not vouch for
        self.young = False  # `recorded` found a directory too young to stand for its entries
        self._since = 0  # when recording began
        self._asks = (  # by kind
            self._lstat_stamp,
            self._stat_stamp,
            self._target,
            self._fails,
            self._identity,
            self._exists,
            no_stat,
            self._lstat_stamp,  # ENTRIES: the directory's own stamp
            self._owners,
        )

    def begin(self) -> None:
        self._lstats, self._stats, self._targets, self._answers = {}, {}, {}, {}
        self._gone = {}
        self._plain = None
        changes = self._changes
        if changes is not None:
            self._generation = changes.news()  # what the kernel told, once for the line
        if self._settled and (changes is None or self._generation != self._settled_at):
            self._settled.clear()  # something the kernel watches changed: walked afresh

    def end(self) -> None:
        self._lstats = self._stats = self._targets = self._answers = self._gone = None
        self._log = None
        self._plain = None

    # -- recording ---------------------------------------------------------------------------
    def record(self) -> None:
        """Note every question from here (in a line: answers must come from one moment)."""
        assert self._lstats is not None, "record only within a line"
        self._log = {}
        self._unsure = False
        self._since = time.time_ns()
        if self._answers:
            self._answers.clear()  # an answer given before would bring no questions

    def recorded(self) -> Answered | None:
        """The questions asked since `record`, each with its answer; None when one of them
        cannot vouch for what was built from it (a recent stamp, an error, a walk not
        followed)."""
        log, self._log = self._log, None
        self.young = False
        if log is None or self._unsure:
            return None
        answered = tuple((kind, path, self._ask(kind, path)) for kind, path in log)
        # a stamp proves what was seen only when it is older by a second than the first look:
        # a change within the line, or within a tick before it, may show no change of stamp
        # (each is checked before pruning: what a pruned question saw was used too)
        since = self._since
        for kind, _, answer in answered:
            if kind == NODE and isinstance(answer, OSError):
                return None
            stamped = kind in (LSTAT, STAT) and isinstance(answer, tuple)
            if stamped and since - max(answer[1], answer[2]) < RACY_NS:  # type: ignore[index]
                return None
        return self._by_directory(pruned(answered), since)  # its stamps are settled

    def watch_disk(self) -> None:
        """From here, let the kernel tell which answers changed (disk_changes.py): `still`
        then asks only what it cannot tell."""
        if self._changes is None and not self._no_changes:
            self._changes = disk_changes.start()
            self._no_changes = self._changes is None

    @property
    def watching(self) -> bool:
        """Whether the kernel tells of changes (`watch_disk` was called and could start)."""
        return self._changes is not None

    def close(self) -> None:
        """Stop watching the disk (every question is asked again from here)."""
        if self._changes is not None:
            self._changes.close()
        self._changes = None
        self._vouched.clear()
        self._settled.clear()

    def still(self, answered: Answered) -> bool:
        """Whether each question gets the answer it got (asked again: in a line, the answers
        are this line's, shared with every later look). With the disk watched, the questions
        on names (what a walk found, a file not there, a directory's entries) and on a file's
        owner, mode and inode are vouched for while the kernel tells of no change to them
        since they were last asked; the rest (stamps: what a file holds) are asked."""
        targets, lstats = self._targets, self._lstats
        if targets is None or lstats is None:  # outside a line: each look fresh
            return all(self._asks[kind](path) == answer for kind, path, answer in answered)
        changes = self._changes
        if changes is None:
            return self._asked_again(answered)
        generation = self._generation
        vouched = self._vouched.get(id(answered))
        if vouched is not None and vouched.answered is answered:
            if vouched.generation == generation:
                targets.update(vouched.nodes)  # the line's looks start with them
                self._plain = vouched.plain
                gone = self._gone
                if gone is not None and vouched.gone:
                    gone.update(dict.fromkeys(vouched.gone, True))
                return self._asked_again(vouched.rest) if vouched.rest else True
            del self._vouched[id(answered)]
        # watched first, then asked afresh (not from looks this line took before the watch):
        # a change after these looks is told
        names = [(k, p, a) for k, p, a in answered if k in _NAMES]
        covered = changes.cover(
            (p for k, p, _ in names if k in (NODE, GONE, NO_STAT)),
            (p for k, p, _ in names if k == ENTRIES),
            (p for k, p, _ in names if k in (IDENTITY, OWNERS, EXISTS)),
        )
        if covered:
            self.begin()
            generation = self._generation
        if not self._asked_again(answered):
            return False
        if covered:
            if len(self._vouched) >= 256:
                self._vouched.clear()
            self._vouched[id(answered)] = _Vouched(
                answered,
                generation,
                tuple((p, a) for k, p, a in names if k == NODE),
                tuple(p for k, p, _ in names if k == GONE),
                tuple(q for q in answered if q[0] not in _NAMES),
                _plain_chain(tuple(names)),
            )
        return True

    def _asked_again(self, answered: Answered) -> bool:
        asks = self._asks
        targets, lstats = self._targets, self._lstats
        assert targets is not None and lstats is not None
        # the hot path of every line: a walk's node and a directory's stamp asked here first
        for kind, path, answer in answered:
            if kind == NODE:
                now = targets.get(path, UNSEEN)
                if now is UNSEEN:
                    now = self._target(path)
            elif kind == ENTRIES:
                look = lstats.get(path)
                now = stamp_of(look if look is not None else self._lstat(path))
            else:
                now = asks[kind](path)
            if now != answer:
                return False
        return True

    def _by_directory(self, answered: Answered, since: int) -> Answered:
        """Paths not there, asked again as their directory's stamp (looks.by_directory)."""
        lstats = self._lstats
        if lstats is None:
            return answered
        answered, young = by_directory(answered, since, self._lstat, lstats.__contains__)
        self.young = self.young or young  # asked one by one: worth recording again later
        return answered

    def _ask(self, kind: int, path: str) -> object:
        return self._asks[kind](path)

    def _lstat_stamp(self, path: str) -> object:
        return stamp_of(self._lstat(path))

    def _stat_stamp(self, path: str) -> object:
        return stamp_of(self._stat(path))

    def _exists(self, path: str) -> bool:
        return not isinstance(self._stat(path), OSError)

    def forget(self, path: str) -> None:
        """Look at `path` again (guard itself just made or changed it)."""
        for seen in (self._lstats, self._stats, self._targets):
            if seen is not None:
                seen.pop(path, None)
        if self._answers:
            self._answers.clear()  # an answer may have gone through it
        self._plain = None
        self._settled.clear()

    # -- looks ------------------------------------------------------------------------------
    def lstat(self, path: str) -> Look:
        if self._log is not None:
            self._log[(LSTAT, path)] = None
        return self._lstat(path)

    def stat(self, path: str) -> Look:
        """`os.stat`; in a line, an lstat first (what is not a link stats as it lstats), so a
        path both stamped and resolved is looked at once."""
        if self._log is not None:
            self._log[(STAT, path)] = None
        return self._stat(path)

    def identity(self, path: str) -> tuple[int, int] | None:
        """The device and inode of the file at `path` (links followed), or None."""
        if self._log is not None:
            self._log[(IDENTITY, path)] = None
        return self._identity(path)

    def exists(self, path: str) -> bool:
        """`os.path.exists`: whether `path` is there, links followed."""
        if self._log is not None:
            self._log[(EXISTS, path)] = None
        return self._exists(path)

    def owners(self, path: str) -> object:
        """Who may change the file at `path` (looks.owners_of), links followed."""
        if self._log is not None:
            self._log[(OWNERS, path)] = None
        return self._owners(path)

    def _owners(self, path: str) -> object:
        return owners_of(self._stat(path))

    def same_file(self, a: str, b: str) -> bool:
        """`os.path.samefile`, false when either cannot be looked at."""
        found = self._identity(a)
        return found is not None and found == self._identity(b)

    def _identity(self, path: str) -> tuple[int, int] | None:
        st = self._stat(path)
        return None if isinstance(st, OSError) else (st.st_dev, st.st_ino)

    def _fails(self, path: str) -> bool:
        gone = self._gone
        if gone is None:
            return fails(path)
        found = gone.get(path)
        if found is None:
            found = gone[path] = fails(path)
        return found

    def _lstat(self, path: str) -> Look:
        seen = self._lstats
        if seen is None:
            return _asked(os.lstat, path)
        found = seen.get(path)
        if found is not None:
            return found
        # what stat would see is what lstat saw, for what is not there or not a link (in a
        # line both are kept: begin makes both); _asked, written out (the hot path of a line)
        try:
            found = seen[path] = os.lstat(path)
        except OSError as exc:
            exc.__traceback__ = None
            seen[path] = exc
            if isinstance(exc, FileNotFoundError):
                self._stats.setdefault(path, exc)  # type: ignore[union-attr]
            return exc
        if not S_ISLNK(found.st_mode):
            self._stats.setdefault(path, found)  # type: ignore[union-attr]
        return found

    def _stat(self, path: str) -> Look:
        seen = self._stats
        if seen is None:
            return _asked(os.stat, path)
        found = seen.get(path)
        if found is not None:
            return found
        self._lstat(path)
        found = seen.get(path)
        if found is None:  # a link, or an lstat that failed otherwise
            found = seen[path] = _asked(os.stat, path)
        return found

    def _target(self, path: str) -> object:
        """What a walk finds at `path`: MISSING, PLAIN, a link's target, or an error (the
        walk stops: realpath takes an lstat it cannot make for "not a link")."""
        targets = self._targets
        if targets is not None:
            kept = targets.get(path, UNSEEN)
            if kept is not UNSEEN:
                return kept
            if path in self._settled:
                targets[path] = PLAIN
                return PLAIN
        look = self._lstat(path)
        found: object
        if isinstance(look, FileNotFoundError):
            found = MISSING
        elif isinstance(look, OSError):
            found = look
        elif not S_ISLNK(look.st_mode):
            found = PLAIN
            if targets is not None and self._changes is not None and S_ISDIR(look.st_mode):
                self._settle(path)
        else:
            found = _asked(os.readlink, path)
        if targets is not None:
            targets[path] = found
        return found

    def _settle(self, path: str) -> None:
        """Let the kernel vouch, on later lines, that the directory at `path` is there and no
        link: the directories a line's paths pass through (the workspace's `src`, `src/api` …)
        are the same on every line, and each would be looked at again on each (an lstat).
        Watched first, then looked at afresh, as `still` does: a change after that look is
        told, and `begin` lets them all go at any change the kernel tells."""
        changes = self._changes
        if changes is None or len(self._settled) >= MAX_SETTLED or not changes.cover((path,)):
            return
        generation = changes.news()
        look = _asked(os.lstat, path)
        if isinstance(look, OSError) or not S_ISDIR(look.st_mode):
            return
        if generation != self._settled_at:
            self._settled.clear()  # vouched for at another generation: not any more
            self._settled_at = generation
        self._settled[path] = None

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
            # an absolute path is walked once, as posixpath._joinrealpath walks it, each look
            # shared with the line's others; a walk that would not simply go on (a loop, a
            # look that failed otherwise than "not there") is left to realpath, errors and all
            walked = None
            if path[:1] == "/":
                looked: list[tuple[str, object]] = []
                plain = self._plain  # a directory the line knows is reached through no link
                if (
                    plain is not None
                    and path.startswith(plain[0])
                    and path[len(plain[0]) : len(plain[0]) + 1] == "/"
                    and path[len(plain[0]) + 1 : len(plain[0]) + 2] != "/"
                ):  # the walk from there, as the whole walk would be there (its looks too)
                    looked.extend(plain[1])
                    walked = self._join(plain[0], path[len(plain[0]) + 1 :], {}, looked)
                else:
                    walked = self._join("/", path, {}, looked)
            if walked is not None:
                answer = walked  # normal as walked: realpath's abspath changes nothing
                if len(self._kept) > 4096:
                    self._kept.clear()
                self._kept[path] = (answer, tuple(looked))
                log = self._log
                if log is not None:
                    for probe, _ in looked:
                        log[(NODE, probe)] = None
            else:
                answer = os.path.realpath(path)  # the answer, and its errors, are realpath's
                self._unsure = True  # what it depends on was not all seen
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

    def matches(self, pattern: str) -> tuple[str, ...]:
        """What a glob matches now, each match's links resolved (the context's `expand`): a
        word with nothing to match is there or not, looked at once in a line."""
        if is_pattern(pattern):
            return glob_matches(pattern)
        try:
            gone = self._fails(pattern)  # os.path.lexists, without raising when it is not
        except ValueError:  # a NUL in it: os.path.lexists says no
            return ()
        return () if gone else (self.real(pattern),)

    def real(self, path: str) -> str:
        """`realpath`, normalised (`//x` is `/x`): the workspace's resolver."""
        return normalise(self.realpath(path))  # a walked answer is normal: normalise's fast case

    def _unchanged(self, looked: tuple[tuple[str, object], ...]) -> bool:
        seen = self._targets.get if self._targets is not None else None
        log = self._log
        gone = ""
        for probe, found in looked:
            if gone and found is MISSING and probe.startswith(gone):
                continue  # below a path that is not there: not there either
            now = seen(probe, UNSEEN) if seen is not None else UNSEEN
            if now is UNSEEN and found is MISSING and self._fails(probe):
                now = MISSING
                if log is not None:
                    log[(GONE, probe)] = None
            else:
                if now is UNSEEN:
                    now = self._target(probe)
                if log is not None:
                    log[(NODE, probe)] = None
            if now != found:
                return False
            if found is MISSING:
                gone = probe + "/"
        return True

    def _join(
        self, path: str, rest: str, seen: dict[str, str | None], out: list[tuple[str, object]]
    ) -> str | None:
        """posixpath._joinrealpath, noting what it looks at; None where it would not simply
        walk on (a loop, a path it cannot look at): such answers are not kept. The path it
        gives is normal (no `.`, `..`, `//` or trailing `/`): it is built a name at a time."""
        if rest[:1] == "/":
            path = "/"
        targets = self._targets  # the line's looks, asked here first (the common case)
        for name in rest.split("/"):
            if not name or name == ".":
                continue
            if name == "..":
                path = path[: path.rindex("/")] or "/"  # posixpath.split's head, normal
                continue
            newpath = "/" + name if path == "/" else f"{path}/{name}"  # posixpath.join
            target = targets.get(newpath, UNSEEN) if targets is not None else UNSEEN
            if target is UNSEEN:
                target = self._target(newpath)
            out.append((newpath, target))
            if target is PLAIN or target is MISSING:
                path = newpath
                continue
            if not isinstance(target, str):
                return None
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
