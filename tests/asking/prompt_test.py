"""The approval prompt: what it shows, which keys answer it, and every way it denies.

Questions are asked by a real process (tests/prompt_driver.py) on a real pseudo-terminal. The
driver's stdin is /dev/null and its stdout a file, so the prompt can only reach the terminal
through /dev/tty, as it must when a shell hook or an agent runs it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pexpect
import pytest

from guard.asking.prompt import (
    ANSWER_GRACE,
    CONFIRM_GAP,
    Answer,
    Choice,
    Question,
    command_rows,
    describe,
    fit,
    marker,
    problem_with,
    render,
    summary,
)
from guard.asking.terminal_device import visible, width, wrap
from guard.asking.terminal_question import ask

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).parents[1] / "prompt_driver.py"
SHOWN = "Esc or ^C denies"  # the last line drawn: the whole question is on the screen

ONCE = Choice("y", "allow once", "once", ("git push --force origin main",))
SESSION = Choice("s", "allow for this session", "session", ("git push *",))
ALWAYS = Choice("a", "always", "always", ("git push *",), "user")
DENY = Choice("n", "deny", "deny", ())
CHOICES = (ONCE, SESSION, ALWAYS, DENY)
COMMAND = "git push --force origin main && echo héllo > ~/.bashrc"
REDIRECT = (COMMAND.encode().index(b">"), len(COMMAND.encode()))  # bytes, after the "é"
QUESTION = Question(
    command=COMMAND,
    marks=((0, 28), REDIRECT),
    lines=("write ~/.bashrc (redirect)", "run git push --force origin main"),
    choices=CHOICES,
    timeout=30.0,
)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def as_json(q: Question) -> str:
    return json.dumps(
        {
            "command": q.command,
            "marks": q.marks,
            "lines": q.lines,
            "choices": [
                {
                    "key": c.key,
                    "label": c.label,
                    "scope": c.scope,
                    "covers": c.covers,
                    "target": c.target,
                    "confirm": c.confirm,
                }
                for c in q.choices
            ],
            "timeout": q.timeout,
        }
    )


@dataclass
class Asking:
    """A driver process showing a question on its pseudo-terminal."""

    child: Any
    out: Path
    shown_at: float | None = None

    def shown(self) -> Asking:
        self.child.expect_exact(SHOWN)
        self.shown_at = time.monotonic()
        return self

    def press(self, keys: str) -> Asking:
        """Type ``keys`` once the question takes them (`ANSWER_GRACE` after it was seen); a
        ``|`` in them waits, as a human would, for the line that asks to confirm a permanent
        answer, and a moment more, before typing the rest."""
        if self.shown_at is not None:
            time.sleep(max(0.0, self.shown_at + ANSWER_GRACE + 0.15 - time.monotonic()))
        first, bar, rest = keys.partition("|")
        self.child.send(first)
        if bar:
            self.child.expect_exact("press Enter to confirm")
            time.sleep(CONFIRM_GAP + 0.1)
            self.press(rest)
        return self

    def result(self) -> dict[str, Any]:
        """The driver's JSON, after checking it was all the driver wrote to its stdout."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == 0, self.screen
        lines = self.out.read_text().splitlines()
        assert len(lines) == 1, lines
        result: dict[str, Any] = json.loads(lines[0])
        return result

    @property
    def screen(self) -> str:
        """Everything drawn on the terminal so far (rendering escapes included)."""
        return str(self.child.before) if self.child.before is not None else ""


def start(tmp_path: Path, question: Question = QUESTION, *flags: str, **env: str | None) -> Asking:
    environment = dict(os.environ, TERM="xterm")
    for name, value in env.items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    out = tmp_path / "answer.json"
    child = pexpect.spawn(
        sys.executable,
        [str(DRIVER), str(out), as_json(question), *flags],
        env=environment,
        encoding="utf-8",
        timeout=20,
        dimensions=(40, 160),
    )
    child.delaybeforesend = None
    return Asking(child, out)


def key_of(result: dict[str, Any]) -> str | None:
    choice = result["answer"]["choice"]
    return None if choice is None else str(choice["key"])


def screen_lines(text: str) -> list[str]:
    return [ANSI.sub("", line).rstrip() for line in re.split(r"\r*\n", text)]


# --- one key, arrows, Enter, cancel: on the full prompt and on a dumb terminal ---------------

PRESSES = [
    # keys, answer key, how, what the terminal says afterwards
    ("y", "y", "key", "guard: allowed once"),
    ("s", "s", "key", "guard: allowed for this session: git push *"),
    ("a|\r", "a", "key", "guard: allowed always (user policy): git push *"),  # a, then Enter
    ("a", None, None, None),  # a permanent answer is never one key: `a` alone waits for Enter
    ("a\r", None, None, None),  # an Enter in flight with the key does not confirm it
    ("a|x", None, None, None),  # another key takes `a` back
    ("a|y", "y", "key", "guard: allowed once"),  # or answers instead
    ("n", "n", "key", "guard: denied"),
    ("Y", "y", "key", "guard: allowed once"),  # Caps Lock does not change the answer
    ("yn", "y", "key", "guard: allowed once"),  # a burst: the first key answers, the rest is moot
    ("x", None, None, None),  # keys that are no answer are ignored (then the test presses n)
    ("\r", "n", "enter", "guard: denied"),  # Enter alone is deny
    ("\x03", None, "interrupt", "guard: denied: the question was cancelled"),  # ^C
    ("\x04", None, "interrupt", "guard: denied: the question was cancelled"),  # ^D
    ("\x1b", None, "interrupt", "guard: denied: the question was cancelled"),  # Escape
]
ARROWS = [
    ("\x1b[A\r", "a", "arrows"),
    ("\x1b[A\x1b[A\r", "s", "arrows"),
    ("\x1b[A\x1b[A\x1b[A\x1b[A\x1b[A\r", "y", "arrows"),  # up stops at the first choice
    ("\x1b[A\x1b[B\x1b[B\r", "n", "arrows"),  # down stops at the last
]


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
@pytest.mark.parametrize(("keys", "key", "how", "said"), PRESSES)
def test_a_key_answers_the_question(
    tmp_path: Path, term: str, keys: str, key: str | None, how: str | None, said: str | None
) -> None:
    asking = start(tmp_path, TERM=term).shown().press(keys)
    if how is None:
        with pytest.raises(pexpect.TIMEOUT):
            asking.child.expect("guard: (allowed|denied)", timeout=0.7)
        asking.press("n")
        key, how, said = "n", "key", "guard: denied"
    asking.child.expect_exact(f"{said}\r\n")
    result = asking.result()
    assert (key_of(result), result["answer"]["how"]) == (key, how)
    assert result["after"] == result["before"]


@pytest.mark.pty
@pytest.mark.parametrize(("keys", "key", "how"), ARROWS)
def test_arrows_move_the_highlight_and_enter_picks_it(
    tmp_path: Path, keys: str, key: str, how: str
) -> None:
    result = start(tmp_path).shown().press(keys).result()
    assert (key_of(result), result["answer"]["how"]) == (key, how)


@pytest.mark.pty
def test_pasted_text_does_not_answer(tmp_path: Path) -> None:
    asking = start(tmp_path).shown().press("\x1b[200~y\r\x1b[201~")  # bracketed paste of "y⏎"
    with pytest.raises(pexpect.TIMEOUT):
        asking.child.expect("guard: (allowed|denied)", timeout=0.7)
    result = asking.press("n").result()
    assert (key_of(result), result["answer"]["how"]) == ("n", "key")


def test_enter_without_a_deny_choice_denies(tmp_path: Path) -> None:
    question = Question("make", (), (), (ONCE, SESSION), timeout=30)
    result = start(tmp_path, question).shown().press("\r").result()
    assert result["answer"] == {"choice": None, "how": "enter", "message": "guard: denied"}


# --- what it shows ---------------------------------------------------------------------------


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_the_question_shows_command_reasons_and_choices_with_what_they_cover(
    tmp_path: Path, term: str
) -> None:
    asking = start(tmp_path, TERM=term).shown()
    lines = screen_lines(asking.screen)
    asking.press("n").result()
    expected = [
        "guard: this command needs your approval",
        "    git push --force origin main && echo héllo > ~/.bashrc",
        "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^               ^^^^^^^^^^^",  # NO_COLOR is set
        "  - write ~/.bashrc (redirect)",
        "  - run git push --force origin main",
        "    [y] allow once",
        "    [s] allow for this session: git push *",
        "    [a] always (user policy): git push *",
        "  > [n] deny",
    ]
    assert [line for line in lines if line in expected] == expected
    assert any("(denies in 30 s)" in line for line in lines)


def test_with_colour_the_marked_parts_are_highlighted_and_not_underlined(tmp_path: Path) -> None:
    asking = start(tmp_path, NO_COLOR=None).shown()
    screen = asking.screen
    asking.press("n").result()
    assert re.search(r"\x1b\[[0-9;]*31;7m> ~/\.bashrc", screen)
    assert re.search(r"\x1b\[[0-9;]*31;7mgit push --force origin main\x1b", screen)
    assert "^^^" not in screen


def test_a_dumb_terminal_gets_no_escape_sequences(tmp_path: Path) -> None:
    asking = start(tmp_path, TERM="dumb").shown()
    screen = asking.screen
    asking.press("n").result()
    assert "\x1b" not in screen


@pytest.mark.pty
def test_a_multi_line_command_is_shown_line_by_line_indented(tmp_path: Path) -> None:
    command = 'for f in *.log; do\n  rm "$f"\ndone'
    question = Question(command, ((21, 28),), ("write *.log (rm)",), CHOICES, timeout=30)
    asking = start(tmp_path, question).shown()
    lines = screen_lines(asking.screen)
    asking.press("n").result()
    assert "    for f in *.log; do" in lines
    assert '      rm "$f"' in lines
    assert "      ^^^^^^^" in lines
    assert "    done" in lines


def tall_question() -> Question:
    rows = [f"echo {i}" for i in range(200)]
    rows[150] = "rm -rf ~"
    command = "\n".join(rows)
    at = command.index("rm -rf ~")
    reasons = tuple(f"write /tmp/f{i} (rm)" for i in range(40))
    return Question(command, ((at, at + 8),), reasons, CHOICES, timeout=30)


def test_a_command_taller_than_the_screen_keeps_its_marked_rows_and_the_choices() -> None:
    lines = [
        "".join(text for _, text in line)
        for line in render(
            tall_question(), current=3, size=(24, 80), markers=True, left=30, arrows=True
        )
    ]
    assert len(lines) <= 23
    assert lines[:3] == ["guard: this command needs your approval", "    echo 0", "    echo 1"]
    assert "    rm -rf ~" in lines and "    ^^^^^^^^" in lines
    assert any(line.startswith("    ... ") and line.endswith(" more lines") for line in lines)
    assert "  - write /tmp/f0 (rm)" in lines
    assert any(line.startswith("    ... ") and line.endswith(" more reasons") for line in lines)
    assert lines[-5:-1] == [
        "    [y] allow once",
        "    [s] allow for this session: git push *",
        "    [a] always (user policy): git push *",
        "  > [n] deny",
    ]


FIT = [
    # blocks ("m" = a marked row, "-" = a plain one), budget, what is shown
    ("---", 3, ["0", "1", "2"]),
    ("-----", 3, ["0", "1", "... 3 more rows"]),
    ("--m--", 3, ["... 2 more rows", "2m", "... 2 more rows"]),
    ("--m--", 4, ["0", "1", "2m", "... 2 more rows"]),
    ("mmmmmm", 3, ["0m", "1m", "... 4 more rows, 4 of them marked"]),
]


@pytest.mark.parametrize(("kinds", "budget", "shown"), FIT)
def test_what_does_not_fit_is_cut_to_marked_rows_first_and_says_what_it_hides(
    kinds: str, budget: int, shown: list[str]
) -> None:
    blocks = [[[("mark", f"{i}m") if k == "m" else ("", str(i))]] for i, k in enumerate(kinds)]
    lines = ["".join(text for _, text in line).strip() for line in fit(blocks, budget, "rows")]
    assert lines == shown


@pytest.mark.pty
def test_a_tall_question_still_shows_its_choices_on_the_terminal(tmp_path: Path) -> None:
    asking = start(tmp_path, tall_question()).shown()
    lines = screen_lines(asking.screen)
    asking.press("n").result()
    assert "    rm -rf ~" in lines
    assert "  > [n] deny" in lines


@pytest.mark.parametrize(
    ("text", "limit", "rows"),
    [
        ("  - short", 20, ["  - short"]),
        (  # rows break between words
            "  - write /a/long/path (rm) now",
            20,
            ["  - write", "    /a/long/path", "    (rm) now"],
        ),
        (  # a word wider than a row is cut where the row is full
            "  - write /a/very/long/path (rm)",
            14,
            ["  - write", "    /a/very/lo", "    ng/path", "    (rm)"],
        ),
        ("日本日本日", 8, ["日本日本", "    日"]),
    ],
)
def test_long_lines_wrap_with_an_indent(text: str, limit: int, rows: list[str]) -> None:
    assert wrap(text, limit, "    ") == rows


def test_characters_that_could_hide_the_command_are_shown_escaped(tmp_path: Path) -> None:
    question = Question("echo ok\x1b[2K\rrm -rf ~ \u202e", (), (), CHOICES, timeout=30)
    asking = start(tmp_path, question).shown()
    lines = screen_lines(asking.screen)
    asking.press("n").result()
    assert "    echo ok\\e[2K\\rrm -rf ~ \\u202e" in lines


# --- type-ahead, timeout, signals, terminal modes --------------------------------------------


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_keys_typed_before_the_question_is_shown_do_not_answer_it(
    tmp_path: Path, term: str
) -> None:
    asking = start(tmp_path, QUESTION, "--sleep", "0.5", TERM=term)
    asking.press("y")  # the driver is still asleep: nothing has been asked yet
    asking.shown()
    with pytest.raises(pexpect.TIMEOUT):
        asking.child.expect_exact("guard: allowed", timeout=0.7)
    result = asking.press("n").result()
    assert key_of(result) == "n"


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_keys_arriving_as_the_question_appears_answer_nothing(tmp_path: Path, term: str) -> None:
    """`history⏎` typed while the question was being drawn once answered it with `s`."""
    asking = start(tmp_path, QUESTION, TERM=term)
    asking.child.expect_exact("this command needs your approval")  # being drawn now
    asking.child.send("history\r")
    asking.shown()
    asking.child.send("ys\r")  # at once: sooner than anyone could have read it
    with pytest.raises(pexpect.TIMEOUT):
        asking.child.expect("guard: (allowed|denied)", timeout=ANSWER_GRACE + 0.5)
    asking.child.expect_exact("keys typed as the question appeared were ignored")
    result = asking.press("n").result()
    assert (key_of(result), result["answer"]["how"]) == ("n", "key")


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_keys_typed_all_through_the_drawing_answer_nothing(tmp_path: Path, term: str) -> None:
    """A key every 20 ms from before the question until just inside its grace: none answers."""
    asking = start(tmp_path, QUESTION, "--sleep", "0.3", TERM=term)
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        asking.child.send("s")
        try:
            asking.child.expect_exact(SHOWN, timeout=0.02)
            break
        except pexpect.TIMEOUT:
            continue
    seen = time.monotonic()
    while time.monotonic() < seen + ANSWER_GRACE - 0.1:
        asking.child.send("y")
        time.sleep(0.02)
    with pytest.raises(pexpect.TIMEOUT):
        asking.child.expect("guard: (allowed|denied)", timeout=0.6)
    asking.shown_at = seen
    result = asking.press("n").result()
    assert key_of(result) == "n"


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_interrupt_denies_even_as_the_question_appears(tmp_path: Path, term: str) -> None:
    asking = start(tmp_path, QUESTION, TERM=term)
    asking.child.expect_exact(SHOWN)
    asking.child.send("\x03")
    asking.child.expect_exact("guard: denied: the question was cancelled")
    assert asking.result()["answer"]["how"] == "interrupt"


PROTECTED = Question(
    command="cat ~/.config/guard/policy.toml",
    marks=((0, 31),),
    lines=("read ~/.config/guard/policy.toml (cat) — a protected path",),
    choices=(
        Choice("y", "allow once", "once", (), confirm=True),
        Choice("s", "allow for this session", "session", ("read ~/.config/guard",), confirm=True),
        DENY,
    ),
    timeout=30.0,
)


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
@pytest.mark.parametrize(
    ("keys", "key"),
    [("s", None), ("y", None), ("s\r", None), ("s|x", None), ("s|\r", "s"), ("y|\r", "y"),
     ("n", "n")],
)  # fmt: skip
def test_approving_a_protected_path_takes_a_second_key(
    tmp_path: Path, term: str, keys: str, key: str | None
) -> None:
    asking = start(tmp_path, PROTECTED, TERM=term).shown().press(keys)
    if key is None:
        with pytest.raises(pexpect.TIMEOUT):
            asking.child.expect("guard: (allowed|denied)", timeout=0.7)
        asking.press("n")
        key = "n"
    assert key_of(asking.result()) == key


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_no_answer_within_the_timeout_denies(tmp_path: Path, term: str) -> None:
    question = Question("rm -rf build", ((0, 12),), ("write build (rm)",), CHOICES, timeout=1)
    asking = start(tmp_path, question, TERM=term)
    asking.child.expect_exact("(denies in 1 s)")
    asking.child.expect_exact("guard: denied: no answer within 1 s\r\n")
    result = asking.result()
    assert result["answer"] == {
        "choice": None,
        "how": "timeout",
        "message": "guard: denied: no answer within 1 s",
    }
    assert result["after"] == result["before"]


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_an_interrupt_signal_while_asking_denies(tmp_path: Path, term: str) -> None:
    asking = start(tmp_path, TERM=term).shown()
    asking.child.kill(signal.SIGINT)
    result = asking.result()
    assert (key_of(result), result["answer"]["how"]) == (None, "interrupt")
    assert result["after"] == result["before"]


@pytest.mark.pty
@pytest.mark.parametrize(
    ("term", "keys", "key"),
    [("xterm", "y", "y"), ("xterm", "\r", "n"), ("dumb", "s", "s"), ("dumb", "\r", "n")],
)
def test_a_terminal_left_raw_with_inlcr_is_asked_sanely_and_left_as_it_was(
    tmp_path: Path, term: str, keys: str, key: str
) -> None:
    """zsh's line editor leaves the terminal raw, without output processing and with INLCR."""
    asking = start(tmp_path, QUESTION, "--raw-inlcr", TERM=term).shown().press(keys)
    asking.child.expect(r"guard: (allowed|denied)[^\r\n]*\r\n")  # lines still end in CR LF
    result = asking.result()
    assert key_of(result) == key
    assert result["after"] == result["before"]


# --- when nobody can be asked ----------------------------------------------------------------


def test_without_a_controlling_terminal_it_denies_with_a_reason(tmp_path: Path) -> None:
    out = tmp_path / "answer.json"
    done = subprocess.run(
        ["setsid", "-w", sys.executable, str(DRIVER), str(out), as_json(QUESTION)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert done.stdout == done.stderr == ""
    answer = json.loads(out.read_text())["answer"]
    assert (answer["choice"], answer["how"]) == (None, "no-terminal")
    assert answer["message"].startswith("guard: denied without asking: there is no terminal")
    assert "approver" in answer["message"]


@pytest.mark.pty
def test_a_background_process_group_is_not_asked(tmp_path: Path) -> None:
    asking = start(tmp_path, QUESTION, "--background")
    result = asking.result()
    assert "needs your approval" not in asking.screen
    answer = result["answer"]
    assert (answer["choice"], answer["how"]) == (None, "not-foreground")
    assert answer["message"].startswith("guard: denied without asking: this process runs in the")


@pytest.mark.pty
@pytest.mark.parametrize(
    ("value", "how"),
    [("1", "noninteractive"), ("yes", "noninteractive"), ("0", "key"), ("", "key")],
)
def test_guard_noninteractive_denies_without_asking(tmp_path: Path, value: str, how: str) -> None:
    asking = start(tmp_path, GUARD_NONINTERACTIVE=value)
    if how == "key":
        asking.shown().press("n")
    result = asking.result()
    assert result["answer"]["how"] == how
    if how == "noninteractive":
        assert "needs your approval" not in asking.screen
        assert result["answer"]["message"].startswith("guard: denied without asking:")


@pytest.mark.parametrize(
    ("choices", "timeout", "problem"),
    [
        ((Choice("yes", "allow once", "once", ()),), 1.0, "'yes' is not one printable character"),
        ((Choice("\x1b", "allow once", "once", ()),), 1.0, "is not one printable character"),
        ((Choice(" ", "allow once", "once", ()),), 1.0, "is not one printable character"),
        ((ONCE, Choice("y", "deny", "deny", ())), 1.0, "two answers share a key"),
        (CHOICES, float("nan"), "is not a number of seconds"),
        (CHOICES, -1.0, "is not a number of seconds"),
    ],
)
def test_a_malformed_question_is_denied_before_the_terminal_is_touched(
    choices: tuple[Choice, ...], timeout: float, problem: str
) -> None:
    question = Question("make", (), (), choices, timeout=timeout)
    assert problem in problem_with(question)
    answer = ask(question, env={})
    assert (answer.choice, answer.how) == (None, "error")
    assert answer.message.startswith("guard: denied:") and problem in answer.message


def test_importing_the_prompt_does_not_import_prompt_toolkit() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import guard.asking.terminal_question, sys; print('prompt_toolkit' in sys.modules)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == "False\n"


# --- the text, without a terminal ------------------------------------------------------------

VISIBLE = [
    ("plain text", "plain text"),
    ("tab\there", "tab\\there"),
    ("bell\a", "bell\\x07"),
    ("esc\x1b[31m", "esc\\e[31m"),
    ("cr\r", "cr\\r"),
    ("del\x7f", "del\\x7f"),
    ("nel\x85", "nel\\u0085"),
    ("rlo\u202egnp.exe", "rlo\\u202egnp.exe"),
    ("zero\u200bwidth", "zero\\u200bwidth"),
    ("line\u2028sep", "line\\u2028sep"),
    ("byte\udcff", "byte\\xff"),
    ("héllo wörld 日本", "héllo wörld 日本"),
]


@pytest.mark.parametrize(("text", "shown"), VISIBLE)
def test_visible_makes_hiding_characters_visible(text: str, shown: str) -> None:
    assert visible(text) == shown


@pytest.mark.parametrize(("text", "columns"), [("abc", 3), ("日本", 4), ("e\u0301", 1), ("", 0)])
def test_width_counts_terminal_columns(text: str, columns: int) -> None:
    assert width(text) == columns


MARKERS = [
    # command, byte spans, limit, rows as shown, marker lines
    ("rm -rf /", ((6, 8),), 80, ["rm -rf /"], ["      ^^"]),
    ("echo é > /etc/x", ((8, 16),), 80, ["echo é > /etc/x"], ["       ^^^^^^^^"]),
    ("echo 日本 > x", ((5, 11),), 80, ["echo 日本 > x"], ["     ^^^^"]),
    ("a\nb c", ((4, 5),), 80, ["a", "b c"], ["", "  ^"]),
    ("ls x", ((3, 3),), 80, ["ls x"], ["   ^"]),  # an empty span marks the character it starts at
    ("ls", ((10, 20),), 80, ["ls"], [""]),  # spans past the end mark nothing
    ("abcdefghij", ((8, 10),), 4, ["abcd", "efgh", "ij"], ["", "", "^^"]),
    ("x\x1by", ((1, 2),), 80, ["x\\ey"], [" ^^"]),
]


@pytest.mark.parametrize(("command", "marks", "limit", "rows", "markers"), MARKERS)
def test_marks_are_byte_spans_shown_under_the_characters_they_cover(
    command: str,
    marks: tuple[tuple[int, int], ...],
    limit: int,
    rows: list[str],
    markers: list[str],
) -> None:
    got = command_rows(command, marks, limit)
    assert ["".join(text for _, text in row) for row in got] == rows
    assert [marker(row) for row in got] == markers


@pytest.mark.parametrize(
    ("choice", "text"),
    [
        (ONCE, "allow once"),
        (SESSION, "allow for this session: git push *"),
        (ALWAYS, "always (user policy): git push *"),
        (
            Choice("d", "always, for the folder", "always", ("/etc/**",), "project"),
            "always, for the folder (project policy): /etc/**",
        ),
        (
            Choice("f", "allow for this session", "session", ("/tmp/a\nb", "/x")),
            "allow for this session: /tmp/a\\nb, /x",
        ),
        (DENY, "deny"),
    ],
)
def test_a_choice_says_what_it_would_approve(choice: Choice, text: str) -> None:
    assert describe(choice) == text


@pytest.mark.parametrize(
    ("answer", "line"),
    [
        (Answer(ONCE, "key"), "guard: allowed once"),
        (Answer(SESSION, "arrows"), "guard: allowed for this session: git push *"),
        (Answer(ALWAYS, "key"), "guard: allowed always (user policy): git push *"),
        (Answer(DENY, "enter"), "guard: denied"),
        (
            Answer(None, "timeout", "guard: denied: no answer within 5 s"),
            "guard: denied: no answer within 5 s",
        ),
        (Answer(None, "interrupt"), "guard: denied"),
    ],
)
def test_the_line_left_after_answering_says_what_was_decided(answer: Answer, line: str) -> None:
    assert summary(answer) == line
    assert answer.allowed == line.startswith("guard: allowed")
