"""`guard watch`: the approver. A human answers agents' requests from a terminal of their own.

The screen is a plain line interface, so it works on any terminal and in a log: each request is
shown as the prompt shows it (the command with its marked parts, why it asks, what each key
would approve) plus where it comes from; a status line says how long each waiting request has
waited. One key answers the request on screen (the oldest, or the one Tab moved to). Everything
a requester sent is made visible before it reaches the terminal.
"""

from __future__ import annotations

import argparse
import os
import signal
import termios
import time
from collections.abc import Mapping
from contextlib import suppress
from types import FrameType
from typing import TYPE_CHECKING

from guard.asking import (
    ANSWER_GRACE,
    CONFIRM_GAP,
    DEFAULT_TIMEOUT,
    confirming,
    needs_confirming,
    paths,
    visible,
)
from guard.asking import terminal_device as terminal
from guard.cli import summary
from guard.errors import GuardError

if TYPE_CHECKING:
    from guard.asking import Approver, Event, Waiting, WebApprover

QUIT = ("q", "Q", "\x03", "\x04")
NEXT = "\t"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("watch", help=summary("watch"))
    p.add_argument(
        "--timeout",
        type=float,
        help="seconds before an unanswered request is denied "
        f"(default: GUARD_APPROVER_TIMEOUT, else {DEFAULT_TIMEOUT:g})",
    )
    from guard.cli.watch_web import add_arguments

    add_arguments(p)
    p.set_defaults(run=run, error_status=1)
    from guard.cli.decide_remote import add_parser as add_answer_parsers

    add_answer_parsers(sub)  # guard approve ID / guard deny ID


def run(args: argparse.Namespace) -> int:
    from guard.asking import Approver
    from guard.cli import watch_web

    env = dict(os.environ)
    timeout = _timeout(args.timeout, env)
    watch_web.check_arguments(args)
    notice = watch_web.notifier(env)
    opened = terminal.open_tty()
    if isinstance(opened, terminal.Unavailable):
        raise GuardError(
            "guard: watch shows requests on a terminal and reads your answers there; run it in "
            "a terminal window of its own (not in the agent's)"
        )
    screen = Screen(opened, env)
    web: list[WebApprover] = []  # the page, once it serves
    on_event = watch_web.fan_out(
        lambda: screen.approver, screen.event, lambda: web[0] if web else None, notice
    )
    try:
        approver = Approver.start(paths(env), timeout=timeout, on_event=on_event, env=env)
    except BaseException:
        os.close(opened)
        raise
    screen.approver = approver
    stop = _stop_on_signals()
    try:
        with terminal.borrowed(opened) as mode, terminal.in_mode(opened, terminal.keys_only(mode)):
            screen.welcome()
            if args.web:
                web.append(watch_web.start_web(approver, args, screen.say, env))
            approver.add_reader(opened, screen.key)
            while not screen.done and not stop:
                approver.step(1.0)
                for problem in notice.problems() if notice else ():
                    screen.say(problem)
                if web:
                    web[0].tick()
                screen.status()
            approver.close()  # deny what still waits while the screen can still say so
            screen.bye()
    except termios.error:
        pass  # the terminal went away (it was closed: SIGHUP); what waited has been denied
    finally:
        if not screen.closed:
            approver.close()
        if web:
            web[0].close()
        os.close(opened)
    return 0


def _timeout(given: float | None, env: Mapping[str, str]) -> float:
    raw = given if given is not None else env.get("GUARD_APPROVER_TIMEOUT", "") or DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise GuardError(
            f"guard: the approver's timeout must be a positive number of seconds, not {raw!r}; "
            "fix --timeout or GUARD_APPROVER_TIMEOUT"
        )
    return value


def _stop_on_signals() -> list[int]:
    """SIGTERM and SIGHUP end the loop (waiting requests are denied) instead of killing it."""
    stop: list[int] = []

    def handler(signum: int, _frame: FrameType | None) -> None:
        stop.append(signum)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, handler)
    return stop


class Screen:
    """What the human sees and types: one request in full, a status line, one key per answer."""

    def __init__(self, fd: int, env: Mapping[str, str]) -> None:
        self.fd = fd
        self.approver: Approver | None = None
        self.selected = 0  # the request on screen
        self.pending: tuple[int, str, float] | None = None  # (request, always key, when) to confirm
        self.shown_at = 0.0  # when the request on screen was drawn: ANSWER_GRACE runs from it
        self.done = False
        self.closed = False
        self.live = env.get("TERM", "") not in ("", "dumb")  # may redraw the status line
        self._status = ""

    def welcome(self) -> None:
        assert self.approver is not None
        where = self.approver.paths
        self._print(
            f"guard watch: answering agents' requests on {where.request}",
            f"  guard approve ID / guard deny ID reach it on {where.control}",
            "  the answer's key answers the request shown; Tab shows the next; q quits (what "
            "still waits is denied)",
            f"  a request nobody answers is denied after {self.approver.timeout:g} s",
            "waiting for requests…",
        )

    def say(self, *lines: str) -> None:
        """Lines from the page or the webhook, between the requests' own."""
        self._print(*lines)

    def bye(self) -> None:
        self.closed = True
        self._print("guard watch: stopped")

    def event(self, e: Event) -> None:
        prefix = f"guard: #{e.id} " if e.id else "guard: "
        if e.kind == "arrived" and self._current() is not None:
            total = len(self.approver.queue) if self.approver else 0
            self._print(f"{prefix}waits too ({total} waiting; Tab shows the next): "
                        + visible(e.text))  # fmt: skip
            return
        if e.kind != "arrived":
            self._print(prefix + visible(e.text))  # an event names the line: one escaped line
        if self._current() is None:
            self._show(self._oldest())

    def key(self) -> None:
        try:
            data = os.read(self.fd, 256)
        except OSError:
            data = b""
        if not data:
            self.done = True
            return
        for ch in data.decode("latin-1"):
            if ch in QUIT:
                self.done = True
                return
            if ch == "\x1b":
                return  # an arrow or function key: its letters are not answers
            if ch == NEXT:
                self._next()
                return
            current = self._current()
            if current is None:
                continue
            if time.monotonic() - self.shown_at < ANSWER_GRACE:
                continue  # typed before the request could be read: answers nothing
            keys = {c.key: c for c in current.ask.question.choices}
            for c in current.ask.question.choices:
                keys.setdefault(c.key.swapcase(), c)  # Caps Lock must not change the answer
            pending, self.pending = self.pending, None
            if ch in "\r\n" and pending is not None and pending[0] == current.id:
                if time.monotonic() - pending[2] < CONFIRM_GAP:
                    self.pending = pending  # in flight with the key: not a confirmation
                    continue
                self._answer(current.id, pending[1])
                return
            if ch in keys and needs_confirming(keys[ch]):
                self.pending = (current.id, keys[ch].key, time.monotonic())
                self._print(confirming(keys[ch]))
                continue
            if ch in keys:
                self._answer(current.id, keys[ch].key)
                return  # keys typed after an answer were not meant for the next request

    def _answer(self, request: int, key: str) -> None:
        if self.approver is not None:
            problem = self.approver.answer(request, key, by="watch")
            if problem:
                self._print(problem)

    def status(self) -> None:
        if self.approver is None or not self.approver.queue:
            line = ""
        else:
            now = time.monotonic()
            parts = [
                f"{'>' if w.id == self.selected else ''}#{w.id} {w.waited(now):.0f}s"
                for w in self.approver.queue
            ]
            line = f"  {len(parts)} waiting: " + "  ".join(parts)
        if self.live:
            self._write("\r\x1b[K" + line)
        elif line.split(":")[0] != self._status.split(":")[0]:
            self._write(line + "\n")
        self._status = line

    # -- drawing -------------------------------------------------------------------------------

    def _current(self) -> Waiting | None:
        if self.approver is None:
            return None
        return next((w for w in self.approver.queue if w.id == self.selected), None)

    def _oldest(self) -> Waiting | None:
        return self.approver.queue[0] if self.approver and self.approver.queue else None

    def _next(self) -> None:
        if self.approver is None or not self.approver.queue:
            return
        ids = [w.id for w in self.approver.queue]
        i = ids.index(self.selected) + 1 if self.selected in ids else 0
        self._show(self.approver.queue[i % len(ids)])

    def _show(self, w: Waiting | None) -> None:
        self.selected = w.id if w is not None else 0
        if w is None:
            self._print("waiting for requests…")
            return
        assert self.approver is not None
        position = [x.id for x in self.approver.queue].index(w.id) + 1
        total = len(self.approver.queue)
        lines = request_lines(w, time.monotonic(), terminal.size(self.fd), position, total)
        with suppress(OSError, termios.error):  # keys typed before it was shown do not answer it
            terminal.discard_typeahead(self.fd)
        self._print(*lines)
        self.shown_at = time.monotonic()

    def _print(self, *lines: str) -> None:
        clear = "\r\x1b[K" if self.live else ""
        self._write(clear + "".join(line + "\n" for line in lines))
        self._status = ""

    def _write(self, text: str) -> None:
        with suppress(OSError):  # a terminal that went away must not stop the denials
            terminal.write(self.fd, text)


def request_lines(
    w: Waiting, now: float, size: tuple[int, int], position: int, total: int
) -> list[str]:
    """One waiting request as the human sees it: where it comes from, then the prompt's own
    rendering (command with ``^`` under the marked parts, why it asks, the keys)."""
    from guard.asking import render

    ask = w.ask
    left = max(0.0, w.deadline - now)
    head = (
        f"guard: request #{w.id} ({position} of {total}) via {visible(ask.origin or 'an agent')}"
        f", waiting {w.waited(now):.0f} s, denied in {left:.0f} s unless answered"
    )
    where = [
        f"  session   {visible(ask.session)}",
        f"  workspace {visible(', '.join(ask.workspace) or '(none)')}",
        f"  cwd       {visible(ask.cwd)}",
    ]
    drawn = render(ask.question, current=None, size=size, markers=True, left=None, arrows=False)
    body = ["".join(text for _style, text in line) for line in drawn[1:]]
    return [head, *where, *body]
