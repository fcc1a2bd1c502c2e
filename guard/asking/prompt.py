"""The question a human answers before a line runs: what it shows, the keys, the answer.

``ask`` is the only edge: it opens the controlling terminal, shows the question there inline and
returns what was picked. Everything else here is pure text layout. prompt_toolkit is imported only
when a question is actually shown, so importing this module costs nothing on the per-line path.
"""

from __future__ import annotations

import math
import os
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, Literal

from guard.asking import terminal
from guard.asking.terminal import visible, width, wrap

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import StyleAndTextTuples
    from prompt_toolkit.key_binding import KeyPressEvent

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


NONINTERACTIVE = (
    "guard: denied without asking: GUARD_NONINTERACTIVE is set; unset it to be asked on the"
    " terminal, or change the policy to allow this command"
)
INTERRUPTED = "guard: denied: the question was cancelled"
# A permanent answer is two keys: its own, then Enter. An Enter sooner than this after the key
# was in flight with it (a stray key, then the Enter of a line typed ahead) and confirms nothing.
CONFIRM_GAP = 0.3
INDENT = "    "
Line = list[tuple[str, str]]  # (style name, text) fragments of one screen line
STYLE = {
    "title": "bold",
    "mark": "fg:ansired reverse",
    "marker": "fg:ansired",
    "current": "bold reverse",
    "hint": "italic",
}


def ask(question: Question, *, env: Mapping[str, str]) -> Answer:
    """Ask on the controlling terminal; every way of not answering is a denial with a reason."""
    if env.get("GUARD_NONINTERACTIVE", "").lower() not in ("", "0", "false", "no"):
        return Answer(None, "noninteractive", NONINTERACTIVE)
    problem = problem_with(question)
    if problem:
        return Answer(None, "error", problem)
    opened = terminal.open_tty()
    if isinstance(opened, terminal.Unavailable):
        return Answer(None, opened.how, opened.message)
    try:
        return _ask_on(opened, question, env)
    finally:
        os.close(opened)


def _ask_on(fd: int, question: Question, env: Mapping[str, str]) -> Answer:
    try:
        with terminal.borrowed(fd) as mode:
            try:
                if env.get("TERM", "") in ("", "dumb") or not _have_prompt_toolkit():
                    answer = _ask_plain(fd, mode, question)
                else:
                    answer = _ask_in_app(fd, question, env)
            except KeyboardInterrupt:
                answer = Answer(None, "interrupt", INTERRUPTED)
            except Exception as e:
                answer = Answer(None, "error", _broken(f"the question could not be shown ({e!r})"))
            terminal.write(fd, summary(answer) + "\n")
        return answer
    except KeyboardInterrupt:
        return Answer(None, "interrupt", INTERRUPTED)
    except Exception as e:
        return Answer(None, "error", _broken(f"the terminal could not be used ({e!r})"))


def _broken(what: str) -> str:
    return f"guard: denied: {what}; run the command again, and report a bug if this repeats"


def problem_with(question: Question) -> str:
    """Why ``question`` cannot be asked as it stands, or "" when it can."""
    keys = [c.key for c in question.choices]
    for key in keys:
        if len(key) != 1 or not key.isascii() or not key.isprintable() or key.isspace():
            return _broken(f"the answer key {key!r} is not one printable character")
    if len(set(keys)) != len(keys):
        return _broken(f"two answers share a key in {keys!r}")
    if not math.isfinite(question.timeout) or question.timeout < 0:
        return _broken(f"the timeout {question.timeout!r} is not a number of seconds")
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
    """Whether picking ``choice`` takes a confirming Enter: answers that outlive the session."""
    return choice.scope == "always"


def confirming(choice: Choice) -> str:
    """The line shown while a permanent answer waits for its Enter."""
    return (f"  press Enter to confirm [{choice.key}] {describe(choice)}; "
            "another key chooses again")  # fmt: skip


def _first_deny(choices: tuple[Choice, ...]) -> int | None:
    return next((i for i, c in enumerate(choices) if c.scope == "deny"), None)


def _key_map(choices: tuple[Choice, ...]) -> dict[str, Choice]:
    keys = {c.key: c for c in choices}
    for c in choices:
        keys.setdefault(c.key.swapcase(), c)  # Caps Lock must not change the answer
    return keys


def _enter(choices: tuple[Choice, ...], current: int | None, how: How) -> Answer:
    if current is None:
        return Answer(None, how, "guard: denied")
    return Answer(choices[current], how)


def _timed_out(question: Question) -> Answer:
    return Answer(None, "timeout", f"guard: denied: no answer within {question.timeout:g} s")


def _ask_plain(fd: int, mode: terminal.Mode, question: Question) -> Answer:
    """The question for terminals that cannot move the cursor: printed once, one key answers."""
    keys = _key_map(question.choices)
    current = _first_deny(question.choices)
    lines = render(
        question,
        current=current,
        size=terminal.size(fd),
        markers=True,
        left=question.timeout,
        arrows=False,
    )
    deadline = time.monotonic() + question.timeout
    pending: Choice | None = None  # a permanent answer waiting for its Enter
    since = 0.0
    with terminal.in_mode(fd, terminal.keys_only(mode)):
        terminal.discard_typeahead(fd)
        terminal.write(fd, "".join("".join(t for _, t in line) + "\n" for line in lines))
        while True:
            byte = terminal.read_byte(fd, deadline)
            if byte is None:
                return _timed_out(question)
            key = byte.decode("latin-1")
            if key in "\r\n" and pending is not None:
                if time.monotonic() - since >= CONFIRM_GAP:
                    return Answer(pending, "key")
                continue  # in flight with the key: not a confirmation
            if key in keys and needs_confirming(keys[key]):
                pending, since = keys[key], time.monotonic()
                terminal.write(fd, confirming(pending) + "\n")
                continue
            if key in keys:
                return Answer(keys[key], "key")
            if key in "\r\n":
                return _enter(question.choices, current, "enter")
            if key in "\x03\x04\x1b":
                return Answer(None, "interrupt", INTERRUPTED)
            if pending is not None:
                pending = None
                terminal.write(fd, "  not confirmed; press a key\n")


def _have_prompt_toolkit() -> bool:
    try:
        import prompt_toolkit  # noqa: F401
    except ImportError:
        return False
    return True


def _ask_in_app(fd: int, question: Question, env: Mapping[str, str]) -> Answer:
    """The question as an inline prompt_toolkit application bound to the terminal ``fd``."""
    import asyncio

    from prompt_toolkit.application import Application
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input.typeahead import clear_typeahead
    from prompt_toolkit.input.vt100 import Vt100Input
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys
    from prompt_toolkit.layout import FormattedTextControl, Layout, Window
    from prompt_toolkit.output.color_depth import ColorDepth
    from prompt_toolkit.output.vt100 import Vt100_Output
    from prompt_toolkit.styles import Style

    choices = question.choices
    no_color = bool(env.get("NO_COLOR"))
    now: dict[str, Any] = {
        "current": _first_deny(choices), "moved": False, "deadline": 0.0, "pending": None,
        "since": 0.0,
    }  # fmt: skip

    def size() -> Size:
        rows, columns = terminal.size(fd)
        return Size(rows=rows, columns=columns)

    def text() -> StyleAndTextTuples:
        left = None if app.is_done else max(0.0, now["deadline"] - time.monotonic())
        lines = render(
            question,
            current=now["current"],
            size=terminal.size(fd),
            markers=no_color,
            left=left,
            arrows=True,
        )
        if now["pending"] is not None and left is not None:
            lines.append([("title", confirming(now["pending"]))])
        out: StyleAndTextTuples = []
        for i, line in enumerate(lines):
            out.extend([("", "\n")] if i else [])
            out.extend((f"class:{style}" if style else "", t) for style, t in line)
        return out

    def finish(answer: Answer) -> None:
        if not app.is_done:  # the first answer stands: a late key or the timeout changes nothing
            now["current"] = choices.index(answer.choice) if answer.choice else None
            app.exit(result=answer)

    def on_key(make: Callable[[], Answer]) -> Callable[[KeyPressEvent], None]:
        return lambda _: finish(make())

    def move(step: int) -> Callable[[KeyPressEvent], None]:
        def handler(_: KeyPressEvent) -> None:
            now["pending"] = None
            start = len(choices) if now["current"] is None else now["current"]
            now["current"] = min(len(choices) - 1, max(0, start + step)) if choices else None
            now["moved"] = True

        return handler

    def hold(choice: Choice) -> Callable[[KeyPressEvent], None]:
        def handler(_: KeyPressEvent) -> None:
            now["pending"], now["since"] = choice, time.monotonic()
            now["current"] = choices.index(choice)

        return handler

    def enter(_: KeyPressEvent) -> None:
        pending = now["pending"]
        if pending is None:
            finish(_enter(choices, now["current"], "arrows" if now["moved"] else "enter"))
        elif time.monotonic() - now["since"] >= CONFIRM_GAP:
            finish(Answer(pending, "key"))

    def other(_: KeyPressEvent) -> None:
        now["pending"] = None  # any other key: the permanent answer is not confirmed

    bindings = KeyBindings()
    bindings.add(Keys.Any)(other)
    for key, choice in _key_map(choices).items():
        if needs_confirming(choice):
            bindings.add(key)(hold(choice))
        else:
            bindings.add(key)(on_key(partial(Answer, choice, "key")))
    for key in ("c-c", Keys.SIGINT, "c-d", "escape"):
        bindings.add(key)(on_key(lambda: Answer(None, "interrupt", INTERRUPTED)))
    for key in ("enter", "c-j"):
        bindings.add(key)(enter)
    bindings.add("up")(move(-1))
    bindings.add("down")(move(+1))

    with (
        open(fd, encoding="utf-8", errors="replace", closefd=False) as tty_in,
        open(fd, "w", encoding="utf-8", errors="replace", closefd=False) as tty_out,
    ):
        keyboard = Vt100Input(tty_in)
        app: Application[Answer] = Application(
            layout=Layout(
                Window(
                    FormattedTextControl(text, focusable=True, show_cursor=False),
                    dont_extend_height=True,
                    wrap_lines=True,
                    always_hide_cursor=True,
                )
            ),
            key_bindings=bindings,
            style=Style.from_dict(STYLE),
            full_screen=False,
            input=keyboard,
            output=Vt100_Output(tty_out, size, term=env.get("TERM"), enable_cpr=False),
            color_depth=ColorDepth.DEPTH_1_BIT if no_color else ColorDepth.DEPTH_4_BIT,
            refresh_interval=0.5,
        )

        async def expire() -> None:
            await asyncio.sleep(question.timeout)
            finish(_timed_out(question))

        def pre_run() -> None:
            # Right before the first drawing: keys typed before the question was visible are not
            # answers to it, neither in the terminal's queue nor in prompt_toolkit's own.
            terminal.discard_typeahead(fd)
            clear_typeahead(keyboard)
            now["deadline"] = time.monotonic() + question.timeout
            app.create_background_task(expire())

        main = threading.current_thread() is threading.main_thread()
        return app.run(pre_run=pre_run, handle_sigint=main, in_thread=_loop_running())


def _loop_running() -> bool:
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True
