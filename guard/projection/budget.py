"""One budget per line: everything a line causes is paid for from it.

A line is walked, and so is every `eval`, `bash -c` and `source` inside it, every function body
at each call, every word's values, every path resolved and every glob matched. All of them
spend from the one `Budget` the line starts with, so no combination of them can cost more than
the line is given: past the budget the walk stops and the line gets a `syntax` request, "too
complex to analyse", which asks. Values are capped on their own (`MAX_VALUE_BYTES`,
`MAX_FIELDS`): past a cap a word is unknown, "too large to follow", and only that word asks.

The budget is a small object the line's `Scope` carries (every copy of a scope shares it); it is
never global, so two lines, or two threads, never share one.
"""

from __future__ import annotations

import time
from collections.abc import Callable

LINE_STEPS = 50_000  # about 0.1 s of walking on an idle machine
LINE_SECONDS = 0.5  # CPU time, whatever the steps say
CHECK_EVERY = 512
MAX_VALUE_BYTES = 16 * 1024  # one word's value, all its fields together
MAX_FIELDS = 1024  # fields one word expands to ("$@", an array)
TOO_LARGE = "the word is too large to follow (over {limit})"

# What things cost, in steps (a step is about 2 µs of walking).
PARSE_BYTES_PER_STEP = 4
WORD_STEPS = 4  # evaluating a word that is more than its own text
RESOLVE_STEP_PER_PART = 2  # one lstat per path component
EXPAND_STEPS = 250  # listing directories for a glob
EXPAND_STEP_PER_MATCH = 4  # each match's symlinks resolved


class OverBudget(Exception):
    """The line spent its budget; `project` turns it into a `syntax` request."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class Budget:
    """Steps left for one line. `spend` raises `OverBudget` once they run out, or once the line
    has used `seconds` of CPU time: the steps are counted, the clock is the backstop for costs
    the counts misjudge (it is read every `CHECK_EVERY` steps, first after as many)."""

    __slots__ = ("check_at", "deadline", "left", "seconds", "steps")

    def __init__(self, steps: int = LINE_STEPS, seconds: float = LINE_SECONDS) -> None:
        self.steps = steps
        self.left = steps
        self.seconds = seconds
        self.deadline = 0.0  # the clock starts at the first check: most lines never get there
        self.check_at = steps - CHECK_EVERY

    def spend(self, steps: int, what: str) -> None:
        self.left -= steps
        if self.left < self.check_at:
            self._check(what)

    def _check(self, what: str) -> None:
        if self.left < 0:
            raise OverBudget(what)
        now = time.process_time()
        if not self.deadline:
            self.deadline = now + self.seconds
        elif now > self.deadline:
            raise OverBudget(f"{what}, past {self.seconds:g} s")
        self.check_at = self.left - CHECK_EVERY

    def reason(self, what: str) -> str:
        spent = f" (a line may take {self.steps} steps)" if self.left < 0 else ""
        return f"too complex to analyse: {what}{spent}"


def too_large(size: int, fields: int) -> str:
    """Why a value is not followed, or "" when it is small enough."""
    if size > MAX_VALUE_BYTES:
        return TOO_LARGE.format(limit=f"{MAX_VALUE_BYTES // 1024} KiB")
    if fields > MAX_FIELDS:
        return TOO_LARGE.format(limit=f"{MAX_FIELDS} words")
    return ""


def metered_resolve(resolve: Callable[[str], str], budget: Budget) -> Callable[[str], str]:
    """`resolve` (symlinks of a path) paid for per component, each path once per line."""
    seen: dict[str, str] = {}

    def resolved(path: str) -> str:
        found = seen.get(path)
        if found is None:
            budget.spend(1 + RESOLVE_STEP_PER_PART * path.count("/"), "resolving paths")
            found = seen[path] = resolve(path)
        return found

    return resolved


def metered_expand(
    expand: Callable[[str], tuple[str, ...]], budget: Budget
) -> Callable[[str], tuple[str, ...]]:
    """`expand` (a glob's matches) paid for per pattern and per match, each pattern once."""
    seen: dict[str, tuple[str, ...]] = {}

    def expanded(pattern: str) -> tuple[str, ...]:
        found = seen.get(pattern)
        if found is None:
            budget.spend(EXPAND_STEPS, "matching globs")
            found = seen[pattern] = expand(pattern)
            budget.spend(EXPAND_STEP_PER_MATCH * len(found), "matching globs")
        return found

    return expanded
