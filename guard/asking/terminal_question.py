"""Asking on the controlling terminal: the one edge of the question (guard/asking/prompt.py).

``ask`` opens the terminal, shows the question there inline — as a prompt_toolkit application, or
printed once where the terminal cannot move the cursor — and returns what was picked; every way
of not answering is a denial with a reason. prompt_toolkit is imported only when a question is
actually shown, so importing this module costs nothing on the per-line path.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING

from guard.asking import terminal_device as terminal
from guard.asking.prompt import (
    ANSWER_GRACE,
    CONFIRM_GAP,
    IGNORED,
    Answer,
    Choice,
    How,
    Question,
    broken_denial,
    confirming,
    needs_confirming,
    problem_with,
    render,
    summary,
)

if TYPE_CHECKING:
    from prompt_toolkit.application import Application
    from prompt_toolkit.formatted_text import StyleAndTextTuples
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

NONINTERACTIVE = (
    "guard: denied without asking: GUARD_NONINTERACTIVE is set; unset it to be asked on the"
    " terminal, or change the policy to allow this command"
)
INTERRUPTED = "guard: denied: the question was cancelled"
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
                answer = Answer(
                    None, "error", broken_denial(f"the question could not be shown ({e!r})")
                )
            terminal.write(fd, summary(answer) + "\n")
        return answer
    except KeyboardInterrupt:
        return Answer(None, "interrupt", INTERRUPTED)
    except Exception as e:
        return Answer(None, "error", broken_denial(f"the terminal could not be used ({e!r})"))


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
        grace: float | None = time.monotonic() + ANSWER_GRACE  # None once it is over
        ignored = False
        while True:
            byte = terminal.read_byte(fd, deadline if grace is None else min(grace, deadline))
            if byte is None and grace is not None and time.monotonic() < deadline:
                grace = None
                if ignored:
                    terminal.write(fd, IGNORED + "\n")
                continue
            if byte is None:
                return _timed_out(question)
            key = byte.decode("latin-1")
            if grace is not None and key != "\x03":
                ignored = True  # typed before the question could be read: answers nothing
                continue
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


class _InApp:
    """A question being asked in a prompt_toolkit application: the choice under the cursor, a
    permanent answer waiting for its confirmation, when the question was shown, and the app."""

    def __init__(self, fd: int, question: Question, *, no_color: bool) -> None:
        self.fd, self.question, self.no_color = fd, question, no_color
        self.choices = question.choices
        self.current: int | None = _first_deny(self.choices)
        self.moved = False  # the arrows moved the cursor: Enter picks by arrows
        self.pending: Choice | None = None  # a permanent answer waiting for its confirmation
        self.since = 0.0  # when `pending` was pressed
        self.shown = 0.0  # when the question was first drawn
        self.deadline = 0.0
        self.ignored = False  # a key came before the question could be read
        self.app: Application[Answer] | None = None

    def in_grace(self) -> bool:
        return time.monotonic() - self.shown < ANSWER_GRACE

    def live(self, handler: Callable[[KeyPressEvent], None]) -> Callable[[KeyPressEvent], None]:
        """``handler``, for keys that arrive once the question could be read."""

        def guarded(event: KeyPressEvent) -> None:
            if self.in_grace():
                self.ignored = True  # typed before the question could be read
                return
            handler(event)

        return guarded

    def text(self) -> StyleAndTextTuples:
        done = self.app is None or self.app.is_done
        left = None if done else max(0.0, self.deadline - time.monotonic())
        size = terminal.size(self.fd)
        lines = render(
            self.question, current=self.current, size=size, markers=self.no_color, left=left,
            arrows=True,
        )  # fmt: skip
        if self.ignored and left is not None and not self.in_grace():
            lines.append([("hint", IGNORED)])
        if self.pending is not None and left is not None:
            lines.append([("title", confirming(self.pending))])
        out: StyleAndTextTuples = []
        for i, line in enumerate(lines):
            out.extend([("", "\n")] if i else [])
            out.extend((f"class:{style}" if style else "", t) for style, t in line)
        return out

    def finish(self, answer: Answer) -> None:
        if self.app is not None and not self.app.is_done:
            # the first answer stands: a late key or the timeout changes nothing
            self.current = self.choices.index(answer.choice) if answer.choice else None
            self.app.exit(result=answer)

    def on_key(self, make: Callable[[], Answer]) -> Callable[[KeyPressEvent], None]:
        return lambda _: self.finish(make())

    def move(self, step: int) -> Callable[[KeyPressEvent], None]:
        def handler(_: KeyPressEvent) -> None:
            self.pending = None
            start = len(self.choices) if self.current is None else self.current
            last = len(self.choices) - 1
            self.current = min(last, max(0, start + step)) if self.choices else None
            self.moved = True

        return handler

    def hold(self, choice: Choice) -> Callable[[KeyPressEvent], None]:
        def handler(_: KeyPressEvent) -> None:
            self.pending, self.since = choice, time.monotonic()
            self.current = self.choices.index(choice)

        return handler

    def enter(self, _: KeyPressEvent) -> None:
        pending = self.pending
        if pending is None:
            self.finish(_enter(self.choices, self.current, "arrows" if self.moved else "enter"))
        elif time.monotonic() - self.since >= CONFIRM_GAP:
            self.finish(Answer(pending, "key"))

    def other(self, _: KeyPressEvent) -> None:
        self.pending = None  # any other key: the permanent answer is not confirmed


def _bindings(asking: _InApp) -> KeyBindings:
    """One key each; a permanent answer held for its confirmation; ^C denies at any time."""
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.keys import Keys

    def cancelled() -> Answer:
        return Answer(None, "interrupt", INTERRUPTED)

    bindings = KeyBindings()
    bindings.add(Keys.Any)(asking.live(asking.other))
    for key, choice in _key_map(asking.choices).items():
        if needs_confirming(choice):
            bindings.add(key)(asking.live(asking.hold(choice)))
        else:
            bindings.add(key)(asking.live(asking.on_key(partial(Answer, choice, "key"))))
    for key in ("c-c", Keys.SIGINT):  # ^C denies at any time
        bindings.add(key)(asking.on_key(cancelled))
    for key in ("c-d", "escape"):
        bindings.add(key)(asking.live(asking.on_key(cancelled)))
    for key in ("enter", "c-j"):
        bindings.add(key)(asking.live(asking.enter))
    bindings.add("up")(asking.live(asking.move(-1)))
    bindings.add("down")(asking.live(asking.move(+1)))
    return bindings


def _ask_in_app(fd: int, question: Question, env: Mapping[str, str]) -> Answer:
    """The question as an inline prompt_toolkit application bound to the terminal ``fd``."""
    import asyncio

    from prompt_toolkit.application import Application
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input.typeahead import clear_typeahead
    from prompt_toolkit.input.vt100 import Vt100Input
    from prompt_toolkit.layout import FormattedTextControl, Layout, Window
    from prompt_toolkit.output.color_depth import ColorDepth
    from prompt_toolkit.output.vt100 import Vt100_Output
    from prompt_toolkit.styles import Style

    no_color = bool(env.get("NO_COLOR"))
    asking = _InApp(fd, question, no_color=no_color)

    def size() -> Size:
        rows, columns = terminal.size(fd)
        return Size(rows=rows, columns=columns)

    with (
        open(fd, encoding="utf-8", errors="replace", closefd=False) as tty_in,
        open(fd, "w", encoding="utf-8", errors="replace", closefd=False) as tty_out,
    ):
        keyboard = Vt100Input(tty_in)
        app: Application[Answer] = Application(
            layout=Layout(
                Window(
                    FormattedTextControl(asking.text, focusable=True, show_cursor=False),
                    dont_extend_height=True,
                    wrap_lines=True,
                    always_hide_cursor=True,
                )
            ),
            key_bindings=_bindings(asking),
            style=Style.from_dict(STYLE),
            full_screen=False,
            input=keyboard,
            output=Vt100_Output(tty_out, size, term=env.get("TERM"), enable_cpr=False),
            color_depth=ColorDepth.DEPTH_1_BIT if no_color else ColorDepth.DEPTH_4_BIT,
            refresh_interval=0.5,
        )
        asking.app = app

        async def expire() -> None:
            await asyncio.sleep(question.timeout)
            asking.finish(_timed_out(question))

        def pre_run() -> None:
            # Right before the first drawing: keys typed before the question was visible are not
            # answers to it, neither in the terminal's queue nor in prompt_toolkit's own.
            terminal.discard_typeahead(fd)
            clear_typeahead(keyboard)
            asking.shown = time.monotonic()  # keys sooner than ANSWER_GRACE after it are ignored
            asking.deadline = asking.shown + question.timeout
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
