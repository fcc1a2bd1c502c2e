"""A command line's control characters never reach the terminal raw: every program that prints
a line, a path or a reason escapes them as bash's $'…' would (guard/printable.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from guard.printable import denied, escaped

GUARD = [sys.executable, "-m", "guard"]
SHIM = str(Path(sys.executable).parent / "guarded-bash")
RAW = ("\x1b", "\r", "\x07", "\x9b", "\u202e")  # what must never be printed as it is

ESCAPED = [
    ("plain text", "plain text"),
    ("clear\x1b[2J", "clear\\e[2J"),
    ("title\x1b]0;pwned\a", "title\\e]0;pwned\\x07"),
    ("back\rover", "back\\rover"),
    ("two\nlines", "two\\nlines"),
    ("tab\there", "tab\\there"),
    ("nul\x00del\x7f", "nul\\x00del\\x7f"),
    ("csi\x9b2J", "csi\\u009b2J"),  # C1 controls too
    ("rlo\u202egnp.exe", "rlo\\u202egnp.exe"),
    ("zero\u200bwidth", "zero\\u200bwidth"),
    ("byte\udcff", "byte\\xff"),
    ("héllo 日本 $HOME \\x41", "héllo 日本 $HOME \\x41"),  # printable text is left alone
]


@pytest.mark.parametrize(("text", "shown"), ESCAPED)
def test_escaped_writes_what_could_rewrite_the_screen_as_dollar_quotes_would(
    text: str, shown: str
) -> None:
    assert escaped(text) == shown


DENIED = [
    (("deny: rm x (rule a:1)",), "guard: denied: rm x (rule a:1)"),
    (("ask: read /etc/x (cat)", "deny: rm x"), "guard: denied: rm x; read /etc/x (cat)"),
    (("ask: a", "ask: b", "ask: c", "ask: d", "ask: e"), "guard: denied: a; b; c (and 2 more)"),
    ((), "guard: denied"),
]  # fmt: skip


@pytest.mark.parametrize(("reasons", "line"), DENIED)
def test_one_deny_line_says_denied_once(reasons: tuple[str, ...], line: str) -> None:
    assert denied(reasons) == line


EVIL = "cat /etc/hosts\x1b[2J\x1b]0;owned\a\rrm -rf ~ # \u202e"


def deny_evil() -> None:
    path = Path(os.environ["GUARD_CONFIG"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[[rules]]\nsurface = "command"\npattern = "cat *"\naction = "deny"\n')


def run(argv: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL,
                          timeout=60, start_new_session=True)  # fmt: skip


def assert_safe(text: str) -> None:
    for raw in RAW:
        assert raw not in text, (raw, text)


def test_explain_shows_the_line_escaped_with_its_marks_under_it(tmp_path: Path) -> None:
    done = run([*GUARD, "explain", "--", "echo \x1b[2J > /etc/x"], tmp_path)
    assert_safe(done.stdout + done.stderr)
    lines = done.stdout.splitlines()
    assert lines[0] == "  echo \\e[2J > /etc/x"
    assert lines[1] == "  " + " " * len("echo \\e[2J > ") + "^^^^^^"


def test_check_and_guarded_bash_deny_lines_are_escaped(tmp_path: Path) -> None:
    deny_evil()
    check = run([*GUARD, "check", "--no-prompt", "--", EVIL], tmp_path)
    shim = run([SHIM, "-c", EVIL], tmp_path)
    for done, status in ((check, 1), (shim, 126)):
        assert done.returncode == status
        assert_safe(done.stderr)
        assert done.stderr.startswith("guard: denied: cat /etc/hosts\\e[2J\\e]0 (rule ")
        assert "owned\\x07" in done.stderr  # the BEL of the title sequence, escaped
        assert "denied: deny:" not in done.stderr and "denied: ask:" not in done.stderr


def test_an_asked_line_denied_without_a_terminal_is_escaped(tmp_path: Path) -> None:
    done = run([*GUARD, "check", "--", "cat /etc/hosts\x1b[2J"], tmp_path)
    assert done.returncode == 1
    assert_safe(done.stderr)
    assert "`cat /etc/hosts\\e[2J`" in done.stderr


def test_log_and_approvals_list_print_what_they_hold_escaped(tmp_path: Path) -> None:
    deny_evil()
    run([*GUARD, "check", "--no-prompt", "--session", "s\x1b[1m", "--", EVIL], tmp_path)
    run([*GUARD, "approvals", "grant", "--session", "s\x1b[1m", "--surface", "command",
         "--pattern", "make \x1b[2J*"], tmp_path)  # fmt: skip
    log = run([*GUARD, "log"], tmp_path)
    listed = run([*GUARD, "approvals", "list"], tmp_path)
    assert_safe(log.stdout + listed.stdout)
    assert "cat /etc/hosts\\e[2J" in log.stdout and "s\\e[1m" in log.stdout
    assert "make \\e[2J*" in listed.stdout
    lines = run([*GUARD, "log", "--json"], tmp_path).stdout.splitlines()
    rows = [json.loads(line) for line in lines]
    assert EVIL in [r["command"] for r in rows]  # the JSON keeps the line exactly


def test_a_policy_file_is_shown_escaped_before_it_is_trusted(tmp_path: Path) -> None:
    """An agent can write .guard.toml: an escape in it must not hide a rule from the human who
    reads it in `guard policy check`, `guard policy trust` or `guard policy show`."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    project = tmp_path / ".guard.toml"
    project.write_text('# nothing to see \x1b[8m\n[[rules]]\nsurface = "command"\n')
    refused = run([*GUARD, "policy", "trust"], tmp_path)  # TOML allows no raw ESC, even here
    assert refused.returncode == 1
    assert_safe(refused.stdout + refused.stderr)
    project.write_text('[[rules]]\nsurface = "command"\npattern = "curl *"\naction = "ask"\n'
                       'reason = "fine\\u001b[2K\\r"\n')  # TOML's own escapes: ESC, CR
    trusted = run([*GUARD, "policy", "trust"], tmp_path)
    shown = run([*GUARD, "policy", "show"], tmp_path)
    explained = run([*GUARD, "explain", "--", "curl -s x"], tmp_path)
    assert trusted.returncode == 0
    assert_safe(trusted.stdout + shown.stdout + explained.stdout)
    assert "fine\\e[2K\\r" in shown.stdout and "fine\\e[2K\\r" in explained.stdout
