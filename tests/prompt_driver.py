"""Asks one question on the controlling terminal, for tests/asking/prompt_test.py.

    python prompt_driver.py OUT QUESTION_JSON [--sleep S] [--background] [--raw-inlcr]

Standard input becomes /dev/null and standard output the file OUT before anything else happens,
so the prompt can only reach the terminal through /dev/tty. OUT receives one JSON object: the
answer, and the terminal's mode before and after asking (as repr strings, or null without one).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import termios
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from guard.asking.prompt import Choice, Question
from guard.asking.terminal_question import ask


def question_from(data: dict[str, Any]) -> Question:
    return Question(
        command=data["command"],
        marks=tuple((s, e) for s, e in data.get("marks", ())),
        lines=tuple(data.get("lines", ())),
        choices=tuple(
            Choice(
                c["key"],
                c["label"],
                c["scope"],
                tuple(c.get("covers", ())),
                c.get("target", ""),
                confirm=bool(c.get("confirm", False)),
            )
            for c in data["choices"]
        ),
        timeout=float(data.get("timeout", 120.0)),
    )


def mode() -> str | None:
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return None
    try:
        return repr(termios.tcgetattr(fd))
    finally:
        os.close(fd)


def raw_with_inlcr() -> None:
    """Leave the terminal as zsh's line editor does: raw, no output processing, INLCR set."""
    fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    attrs = termios.tcgetattr(fd)
    attrs[0] = (attrs[0] | termios.INLCR) & ~termios.ICRNL
    attrs[1] &= ~termios.OPOST
    attrs[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG)
    termios.tcsetattr(fd, termios.TCSANOW, attrs)
    os.close(fd)


def main(argv: list[str]) -> int:
    out, data, *flags = argv
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
    if "--background" in flags:
        child = os.fork()
        if child:
            return os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
        os.setpgid(0, 0)  # a process group of its own: not the terminal's foreground group
    if "--raw-inlcr" in flags:
        raw_with_inlcr()
    if "--sleep" in flags:
        time.sleep(float(flags[flags.index("--sleep") + 1]))
    before = mode()
    answer = ask(question_from(json.loads(data)), env=os.environ)
    result = {"answer": dataclasses.asdict(answer), "before": before, "after": mode()}
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
