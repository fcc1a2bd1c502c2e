"""The controlling terminal, borrowed for one question: found, checked, made sane, restored.

Only ``/dev/tty`` is used. Standard input may be a pipe or /dev/null and standard output may be
captured, so neither is ever read or written here.
"""

from __future__ import annotations

import errno
import os
import re
import select
import termios
import time
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

from guard.printable import escaped

TTY = "/dev/tty"

# termios attribute list indexes: iflag, oflag, cflag, lflag, ispeed, ospeed, cc
IFLAG, OFLAG, LFLAG, CC = 0, 1, 3, 6

Mode = list[Any]  # as termios.tcgetattr returns it


@dataclass(frozen=True, slots=True)
class Unavailable:
    """Why no question can be shown on this process's terminal."""

    how: Literal["no-terminal", "not-foreground"]
    message: str


def open_tty(path: str = TTY) -> int | Unavailable:
    """The controlling terminal opened for reading and writing, if this process may ask on it.

    It may not when it has none (a detached agent, a ``setsid`` child) or when it runs in a
    background process group: a job there must not take the keyboard from the foreground.
    """
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as e:
        return Unavailable("no-terminal", no_terminal_message(f"{path}: {e.strerror}"))
    try:
        if not os.isatty(fd):
            raise OSError(errno.ENOTTY, os.strerror(errno.ENOTTY))
        foreground = os.tcgetpgrp(fd) == os.getpgrp()
    except OSError as e:
        os.close(fd)
        return Unavailable("no-terminal", no_terminal_message(f"{path}: {e.strerror}"))
    if not foreground:
        os.close(fd)
        return Unavailable(
            "not-foreground",
            "guard: denied without asking: this process runs in the background of its terminal;"
            " run the command in the foreground (or bring the job back with `fg`) and try again",
        )
    return fd


def no_terminal_message(detail: str) -> str:
    return (
        f"guard: denied without asking: there is no terminal to ask on ({detail});"
        " run the command from an interactive terminal, or start a guard approver in another"
        " terminal to answer for it"
    )


def sane(mode: Mode) -> Mode:
    """``mode`` made fit for a question: lines end in CR LF on output, Enter reads as a newline,
    ^C is a signal, input is line-edited and echoed. Line editors (zsh's ZLE) leave the terminal
    raw with INLCR set; a question must not start from that."""
    new = list(mode)
    new[IFLAG] = (mode[IFLAG] | termios.ICRNL) & ~(termios.INLCR | termios.IGNCR)
    new[OFLAG] = mode[OFLAG] | termios.OPOST | termios.ONLCR
    new[LFLAG] = mode[LFLAG] | termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN
    new[CC] = list(mode[CC])
    return new


def keys_only(mode: Mode) -> Mode:
    """``mode`` made to deliver each key at once and unechoed, ^C included, for the plain prompt."""
    new = list(mode)
    new[IFLAG] = mode[IFLAG] & ~(
        termios.ICRNL | termios.INLCR | termios.IGNCR | termios.IXON | termios.IXOFF
    )
    new[LFLAG] = mode[LFLAG] & ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
    cc = list(mode[CC])
    cc[termios.VMIN] = 1
    cc[termios.VTIME] = 0
    new[CC] = cc
    return new


@contextmanager
def borrowed(fd: int) -> Iterator[Mode]:
    """The terminal in a sane mode for the duration, its mode restored afterwards whatever happens.

    Yields the sane mode. Keys typed before the question is shown are discarded by the caller
    with :func:`discard_typeahead`, as close to the first drawing as it can.
    """
    saved: Mode = termios.tcgetattr(fd)
    try:
        mode = sane(saved)
        termios.tcsetattr(fd, termios.TCSANOW, mode)
        yield mode
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def discard_typeahead(fd: int) -> None:
    """Throw away keys typed but not yet read: they were not typed in answer to anything."""
    termios.tcflush(fd, termios.TCIFLUSH)


@contextmanager
def in_mode(fd: int, mode: Mode) -> Iterator[None]:
    before: Mode = termios.tcgetattr(fd)
    termios.tcsetattr(fd, termios.TCSANOW, mode)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, before)


def read_byte(fd: int, deadline: float) -> bytes | None:
    """The next byte typed, or None once ``deadline`` (a ``time.monotonic`` value) has passed."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            data = os.read(fd, 1)
            if not data:
                raise EOFError("the terminal was closed")
            return data


def write(fd: int, text: str) -> None:
    data = text.encode("utf-8", "replace")
    while data:
        data = data[os.write(fd, data) :]


def size(fd: int) -> tuple[int, int]:
    """Rows and columns of the terminal, 24 by 80 when it does not say."""
    try:
        now = os.get_terminal_size(fd)
    except OSError:
        return 24, 80
    return now.lines or 24, now.columns or 80


def visible(text: str) -> str:
    """``text`` made safe to show: :func:`guard.printable.escaped`, the one escaping function."""
    return escaped(text)


def width(text: str) -> int:
    """Columns ``text`` takes on a terminal: wide East Asian characters 2, combining marks 0."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def wrap(text: str, limit: int, indent: str) -> list[str]:
    """``text`` cut into rows of at most ``limit`` columns, rows after the first indented. Rows
    break between words; a word wider than a whole row is cut where the row is full."""
    rows = [""]
    for word in _WORDS.findall(text):
        bare = word.rstrip(" ")
        if rows[-1].strip() and width(rows[-1]) + width(bare) > limit:
            rows[-1] = rows[-1].rstrip(" ") or rows[-1]
            rows.append(indent)
        for ch in word:
            if rows[-1].strip() and width(rows[-1]) + width(ch) > limit:
                if ch == " ":
                    continue  # a space at the end of a row is not carried to the next
                rows.append(indent)
            rows[-1] += ch
    return rows


_WORDS = re.compile(r" *[^ ]+ *| +")
