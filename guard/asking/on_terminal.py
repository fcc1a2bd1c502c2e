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
from typing import TYPE_CHECKING, Any

from guard.asking import terminal
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
    from prompt_toolkit.formatted_text import StyleAndTextTuples
    from prompt_toolkit.key_binding import KeyPressEvent

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
        "since": 0.0, "shown": 0.0, "ignored": False,
    }  # fmt: skip

    def in_grace() -> bool:
        return bool(time.monotonic() - now["shown"] < ANSWER_GRACE)

    def live(handler: Callable[[KeyPressEvent], None]) -> Callable[[KeyPressEvent], None]:
        """``handler``, for keys that arrive once the question could be read."""

        def guarded(event: KeyPressEvent) -> None:
            if in_grace():
                now["ignored"] = True  # typed before the question could be read
                return
            handler(event)

        return guarded

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
        if now["ignored"] and left is not None and not in_grace():
            lines.append([("hint", IGNORED)])
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
    bindings.add(Keys.Any)(live(other))
    for key, choice in _key_map(choices).items():
        if needs_confirming(choice):
            bindings.add(key)(live(hold(choice)))
        else:
            bindings.add(key)(live(on_key(partial(Answer, choice, "key"))))
    for key in ("c-c", Keys.SIGINT):  # ^C denies at any time
        bindings.add(key)(on_key(lambda: Answer(None, "interrupt", INTERRUPTED)))
    for key in ("c-d", "escape"):
        bindings.add(key)(live(on_key(lambda: Answer(None, "interrupt", INTERRUPTED))))
    for key in ("enter", "c-j"):
        bindings.add(key)(live(enter))
    bindings.add("up")(live(move(-1)))
    bindings.add("down")(live(move(+1)))

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
            now["shown"] = time.monotonic()  # keys sooner than ANSWER_GRACE after it are ignored
            now["deadline"] = now["shown"] + question.timeout
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
