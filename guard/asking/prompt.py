"""The question a human answers before a line runs: what it shows, the keys, the answer.

All of it pure text layout; `ask` (guard/asking/terminal_question.py) is the edge that shows it on
the controlling terminal and returns what was picked.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from guard.asking.terminal_device import visible, width, wrap

Scope = Literal["once", "session", "always", "deny"]
How = Literal[
    "key", "arrows", "enter", "interrupt", "timeout",
    "no-terminal", "not-foreground", "noninteractive", "error",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer the human can pick, and exactly what it would approve."""

    key: str  # one printable character: "y", "s", "a", "n", "d" …
    label: str  # "allow once", "allow for this session", "always", "deny"
    scope: Scope
    covers: tuple[str, ...]  # ("git push *",), ("/etc/hosts",), ("/etc/**",)
    target: Literal["user", "project", ""] = ""  # for always: which policy file
    confirm: bool = False  # takes a confirming Enter, as "always" does (a protected path)


@dataclass(frozen=True, slots=True)
class Question:
    command: str  # the full line
    marks: tuple[tuple[int, int], ...]  # UTF-8 byte spans in command that caused the ask
    lines: tuple[str, ...]  # one per asking request: "write ~/.bashrc (redirect)"
    choices: tuple[Choice, ...]
    timeout: float = 120.0
    title: str = "guard: this command needs your approval"


@dataclass(frozen=True, slots=True)
class Answer:
    choice: Choice | None  # None = deny
    how: How
    message: str = ""  # when no choice was picked: the one-line `guard:` reason

    @property
    def allowed(self) -> bool:
        return self.choice is not None and self.choice.scope != "deny"


# A permanent answer is two keys: its own, then Enter. An Enter sooner than this after the key
# was in flight with it (a stray key, then the Enter of a line typed ahead) and confirms nothing.
DEFAULT_TIMEOUT = 120.0  # seconds a question waits for its answer, on the terminal or the approver
CONFIRM_GAP = 0.3
# Keys that arrive sooner than this after the question is drawn answer nothing: they were typed
# before the human could read it (`history⏎` typed ahead while the question was being drawn).
# Keys already waiting when it appears are thrown away too. ^C still denies.
ANSWER_GRACE = 0.3
IGNORED = "  (keys typed as the question appeared were ignored)"
INDENT = "    "
Line = list[tuple[str, str]]  # (style name, text) fragments of one screen line


def broken_denial(what: str) -> str:
    return f"guard: denied: {what}; run the command again, and report a bug if this repeats"


def problem_with(question: Question) -> str:
    """Why ``question`` cannot be asked as it stands, or "" when it can."""
    keys = [c.key for c in question.choices]
    for key in keys:
        if len(key) != 1 or not key.isascii() or not key.isprintable() or key.isspace():
            return broken_denial(f"the answer key {key!r} is not one printable character")
    if len(set(keys)) != len(keys):
        return broken_denial(f"two answers share a key in {keys!r}")
    if not math.isfinite(question.timeout) or question.timeout < 0:
        return broken_denial(f"the timeout {question.timeout!r} is not a number of seconds")
    return ""


def summary(answer: Answer) -> str:
    """The line left in the scrollback once the question is answered."""
    c = answer.choice
    if c is None or c.scope == "deny":
        return answer.message or "guard: denied"
    if c.scope == "once":
        return "guard: allowed once"
    return f"guard: allowed {describe(c).removeprefix('allow ')}"


def describe(choice: Choice) -> str:
    """What a choice says next to its key: its label, the policy file, and what it covers."""
    text = choice.label
    if choice.target:
        text += f" ({choice.target} policy)"
    if choice.scope in ("session", "always") and choice.covers:
        text += ": " + ", ".join(visible(c) for c in choice.covers)
    return text


@lru_cache(maxsize=4)  # redrawn every half second while the countdown runs
def command_rows(command: str, marks: tuple[tuple[int, int], ...], limit: int) -> list[Line]:
    """The command as screen rows of ("mark" | "", text) fragments, at most ``limit`` columns
    wide. Marks are UTF-8 byte spans; a character is marked when any of its bytes is."""
    marked = bytearray(len(command) * 4 + 1)  # one flag per byte; UTF-8 takes at most 4 a char
    for s, e in marks:
        s, e = max(0, s), min(len(marked), max(e, s + 1))
        marked[s:e] = b"\x01" * max(0, e - s)
    rows: list[Line] = [[]]
    col = pos = 0
    for ch in command:
        size = 1 if 0xDC80 <= ord(ch) <= 0xDCFF else len(ch.encode("utf-8", "surrogatepass"))
        style = "mark" if any(marked[pos : pos + size]) else ""
        pos += size
        if ch == "\n":
            rows.append([])
            col = 0
            continue
        text = visible(ch)
        if col and col + width(text) > limit:
            rows.append([])
            col = 0
        row = rows[-1]
        if row and row[-1][0] == style:
            row[-1] = (style, row[-1][1] + text)
        else:
            row.append((style, text))
        col += width(text)
    return rows


def marker(row: Line) -> str:
    """``^`` under the marked characters of a command row, for terminals without highlighting."""
    return "".join(("^" if style else " ") * width(text) for style, text in row).rstrip()


def render(
    question: Question,
    *,
    current: int | None,
    size: tuple[int, int],
    markers: bool,
    left: float | None,
    arrows: bool,
) -> list[Line]:
    """The question as screen lines for a terminal of ``size`` (rows, columns); ``left`` is the
    seconds until it denies, None once done. A command or list of reasons too long for the
    screen is cut down to its marked rows and its top, so the choices always stay in sight."""
    rows, columns = size
    limit = max(20, columns - len(INDENT) - 1)
    command: list[list[Line]] = []
    for row in command_rows(question.command, question.marks, limit):
        block = [[("", INDENT), *row]]
        if markers and any(style for style, _ in row):
            block.append([("marker", INDENT + marker(row))])
        command.append(block)
    reasons = [[[("", text)] for text in wrap(f"  - {visible(why)}", limit, "    ")]
               for why in question.lines]  # fmt: skip
    choices: list[Line] = []
    for i, c in enumerate(question.choices):
        style, lead = ("current", "  > ") if i == current else ("", "    ")
        choices.extend([(style, t)] for t in wrap(f"{lead}[{c.key}] {describe(c)}", limit, " " * 8))
    room = max(4, rows - len(choices) - 3)  # the title, the hint, and the line the cursor is on
    shown = fit(command, max(3, room - min(len(reasons), max(1, room // 3))), "lines")
    lines: list[Line] = [[("title", visible(question.title))], *shown]
    lines += fit(reasons, max(1, room - len(shown)), "reasons") + choices
    if left is not None:
        how = "press a key, or up/down and Enter" if arrows else "press a key"
        hint = f"  (denies in {math.ceil(left)} s) {how}; Esc or ^C denies"
        lines.extend([("hint", row)] for row in wrap(hint, limit, "   "))
    return lines


def fit(blocks: list[list[Line]], budget: int, noun: str) -> list[Line]:
    """As many blocks (a command row with its marker line, a reason) as fit in ``budget`` lines:
    the marked ones first, then from the top. Each run left out becomes one "..." line that says
    how many it hides, and how many of those are marked."""
    if sum(len(b) for b in blocks) <= budget:
        return [line for block in blocks for line in block]
    marked = [i for i, b in enumerate(blocks) if any(s == "mark" for ln in b for s, _ in ln)]

    def laid(chosen: list[int]) -> list[Line]:
        out: list[Line] = []
        last = -1
        for i in [*sorted(chosen), len(blocks)]:
            if i - last > 1:
                hidden = bisect_left(marked, i) - bisect_right(marked, last)
                also = f", {hidden} of them marked" if hidden else ""
                out.append([("hint", f"{INDENT}... {i - last - 1} more {noun}{also}")])
            out.extend(blocks[i] if i < len(blocks) else [])
            last = i
        return out

    chosen: list[int] = []
    for i in dict.fromkeys([*marked, *range(len(blocks))]):
        if len(laid([*chosen, i])) > budget:
            break
        chosen.append(i)
    return laid(chosen)


def needs_confirming(choice: Choice) -> bool:
    """Whether picking ``choice`` takes a confirming Enter: answers that outlive the session,
    and any approval of a protected path (guard's own files, keys, credentials)."""
    return choice.scope == "always" or (choice.confirm and choice.scope != "deny")


def confirming(choice: Choice) -> str:
    """The line shown while a permanent answer waits for its Enter."""
    return (f"  press Enter to confirm [{choice.key}] {describe(choice)}; "
            "another key chooses again")  # fmt: skip
