"""Projections kept between lines: a line seen again in the same context is not walked again.

A projection is a function of the line, the context's values and what the context's four
windows on the world answered during the walk: where a path leads (`resolve`), what a glob
matches (`expand`), a user's home directory (`user_home`) and the files below a directory a
tool reads through (`below`). Nothing else of the system
reaches it (guard/projection/ is pure). So a projection is kept with every question it asked
and the answer it got, and it is used again only for the same line in an equal context, after
asking each question again and getting the same answer: the stamp that says the world it saw
is the world now. A walk that raised, ran out of budget on the clock, or hit a bug in guard is
not kept.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple

from guard.projection import INTERNAL_ERROR, Context, Projection, project, with_windows

KEPT_LINES = 2048
KEPT_CHARS = 4096  # longer lines are walked every time
# A walk this far from the budget's clock (0.5 s of CPU) never met it. Measured by the wall's
# clock (no system call; a thread's CPU time is never more): keeping a walk that met it would
# only keep its ask, never an allow.
KEEP_SECONDS = 0.05

_Look = tuple[int, str, object]  # which window (0 resolve, 1 expand, 2 user_home, 3 below),
# what was asked, the answer


class _Kept(NamedTuple):
    ctx: Context  # its values (the environment, the protected list …) must equal the next's
    looks: tuple[_Look, ...]
    projection: Projection


class KeptProjections:
    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[str, str], _Kept] = OrderedDict()

    def project(self, command: str, ctx: Context) -> Projection:
        """`project(command, ctx)`, or the kept projection when nothing it saw has changed."""
        if len(command) > KEPT_CHARS:
            return project(command, ctx)
        key = (command, ctx.cwd)
        kept = self._kept.get(key)
        if kept is not None and _same(kept.ctx, ctx) and _unchanged(kept.looks, ctx):
            return kept.projection
        looks = _Looks(ctx)
        start = time.perf_counter()
        projection = project(
            command, with_windows(ctx, looks.resolve, looks.expand, looks.user_home, looks.below)
        )
        if (
            looks.keep
            and time.perf_counter() - start < KEEP_SECONDS
            and not any(r.reason.startswith(INTERNAL_ERROR) for r in projection.requests)
        ):
            if len(self._kept) >= KEPT_LINES:
                self._kept.popitem(last=False)  # the oldest
            self._kept[key] = _Kept(ctx, tuple(looks.looks), projection)
        return projection


def _same(kept: Context, ctx: Context) -> bool:
    """Whether two contexts give a walk the same values: every field equal, the protected
    list the same object (it is built once per policy and home: judgement.protected_paths)."""
    return (
        kept.cwd == ctx.cwd
        and kept.workspace == ctx.workspace
        and kept.home == ctx.home
        and kept.positional == ctx.positional
        and kept.arg0 == ctx.arg0
        and kept.stdin_code == ctx.stdin_code
        and kept.agent == ctx.agent
        and kept.protected is ctx.protected
        and kept.resolve == ctx.resolve
        and kept.expand == ctx.expand
        and kept.user_home == ctx.user_home
        and kept.below == ctx.below
        and kept.env == ctx.env
    )


def _unchanged(looks: tuple[_Look, ...], ctx: Context) -> bool:
    windows: tuple[Callable[[str], object], ...] = (
        ctx.resolve,
        ctx.expand,
        ctx.user_home,
        ctx.below,
    )
    for window, what, answer in looks:
        try:
            if windows[window](what) != answer:
                return False
        except Exception:  # asked again, it fails: walk the line again
            return False
    return True


class _Looks:
    """The context's windows, each question and answer noted; one that raises is not kept."""

    __slots__ = ("ctx", "keep", "looks")

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.looks: list[_Look] = []
        self.keep = True

    def _ask(self, window: int, what: str) -> object:
        ask: Callable[[str], object] = (
            self.ctx.resolve,
            self.ctx.expand,
            self.ctx.user_home,
            self.ctx.below,
        )[window]
        try:
            answer = ask(what)
        except BaseException:
            self.keep = False
            raise
        self.looks.append((window, what, answer))
        return answer

    def resolve(self, path: str) -> str:
        """`_ask(0, path)`, written out: a path's window is the one every line looks through."""
        try:
            answer = self.ctx.resolve(path)
        except BaseException:
            self.keep = False
            raise
        self.looks.append((0, path, answer))
        return answer

    def expand(self, pattern: str) -> tuple[str, ...]:
        return self._ask(1, pattern)  # type: ignore[return-value]

    def user_home(self, name: str) -> str | None:
        return self._ask(2, name)  # type: ignore[return-value]

    def below(self, directory: str) -> tuple[str, ...]:
        return self._ask(3, directory)  # type: ignore[return-value]
