"""`guard init fish`: a real interactive fish in a pty, with guard's hook loaded from the text
`guard init fish` prints. Every line typed is checked before fish runs any of it; a line fish
would read otherwise than bash asks; a line that reaches fish past the hook never runs.

Markers written by the lines prove what ran. Keys at a question are pressed after a pause, past
any grace in which a question ignores keys.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from guard.asking.prompt import CONFIRM_GAP

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed (CI installs "
                       "it: apt-get install fish)"),
]  # fmt: skip
GUARD = str(Path(sys.executable).parent / "guard")
PROMPT = "@@ "
DENY_RULE = '[[rules]]\nsurface = "command"\npattern = "touch *denied*"\naction = "deny"\n'


class Fish:
    def __init__(self, workspace: Path, *, extra: str = "") -> None:
        home = Path(os.environ["HOME"])
        hook = home / "hook.fish"
        hook.write_text(subprocess.run([GUARD, "init", "fish"], capture_output=True, text=True,
                                       check=True, cwd=workspace).stdout)  # fmt: skip
        init = (f"set -g fish_greeting ''; function fish_prompt; echo -n '<'$status'>{PROMPT}';"
                f" end; source {hook}; {extra}")  # fmt: skip
        env = {**os.environ, "TERM": "xterm", "GUARD_WORKSPACE": str(workspace)}
        self.child = pexpect.spawn("fish", ["--no-config", "-i", "-C", init], env=env,
                                   cwd=str(workspace), encoding="utf-8", timeout=30,
                                   dimensions=(40, 200))  # fmt: skip
        self.child.delaybeforesend = None
        self.child.expect_exact(PROMPT)

    def type(self, line: str) -> None:
        self.child.send(line + "\r")

    def ready(self) -> None:
        self.child.expect_exact(PROMPT)

    def question(self) -> None:
        self.child.expect_exact("[n] deny")
        time.sleep(CONFIRM_GAP + 0.3)

    def close(self) -> None:
        if self.child.isalive():
            self.child.sendline("exit")
            self.child.expect(pexpect.EOF)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    config = Path(os.environ["GUARD_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(DENY_RULE)
    return work


@pytest.fixture
def fish(workspace: Path) -> Iterator[Fish]:
    shell = Fish(workspace)
    yield shell
    shell.close()


def test_an_allowed_line_runs(fish: Fish, workspace: Path) -> None:
    fish.type("touch ran-1; and touch ran-2 2>/dev/null; touch ran-3")
    fish.question()  # `and` runs what follows it: fish's own meaning, so guard asks
    fish.child.send("y")
    fish.ready()
    fish.type("touch plain")
    fish.ready()
    assert sorted(p.name for p in workspace.iterdir()) == ["plain", "ran-1", "ran-2", "ran-3"]


def test_a_denied_line_runs_none_of_its_parts(fish: Fish, workspace: Path) -> None:
    fish.type("touch first; touch denied-marker")
    fish.child.expect_exact("guard: denied")
    fish.ready()
    fish.type("begin")
    fish.type("touch inside")
    fish.type("touch denied-too")
    fish.type("end")
    fish.child.expect_exact("guard: denied")
    fish.ready()
    assert list(workspace.iterdir()) == []


@pytest.mark.parametrize(("key", "ran"), [("n", False), ("y", True)])
def test_a_line_that_asks_runs_only_when_the_human_allows(
    fish: Fish, workspace: Path, key: str, ran: bool
) -> None:
    outside = workspace.parent / "outside-marker"
    fish.type(f"touch {outside}")
    fish.question()
    fish.child.send(key)
    fish.ready()
    assert outside.exists() is ran


@pytest.mark.parametrize(
    ("line", "why"),
    [("(echo touch) subst-marker", "command substitution in fish"),
     ("touch \\x2e\\x2e/escaped-marker", "is an escape in fish"),
     ("set -x GUARD_WORKSPACE /; touch env-marker", "changes the environment"),
     ("alias ls 'touch alias-marker'", "defines code that runs later"),
     ("function f; touch fn-marker; end", "needs your approval")],  # not bash: unparsable
)  # fmt: skip
def test_a_line_fish_reads_otherwise_than_bash_asks(
    fish: Fish, workspace: Path, line: str, why: str
) -> None:
    fish.type(line)
    fish.child.expect_exact(why)
    fish.question()
    fish.child.send("n")
    fish.ready()
    assert list(workspace.iterdir()) == [] and list(workspace.parent.glob("*marker")) == []


def test_enter_is_checked_after_the_key_bindings_change(fish: Fish, workspace: Path) -> None:
    fish.type("fish_default_key_bindings")  # erases user bindings, guard's among them
    fish.ready()
    fish.type("touch denied-vi")
    fish.child.expect_exact("guard: denied")
    fish.ready()
    assert list(workspace.iterdir()) == []


def test_a_line_run_by_a_key_guard_does_not_hook_never_runs(workspace: Path) -> None:
    shell = Fish(workspace, extra="bind \\co execute")
    shell.child.send("touch unhooked-marker\x0f")
    shell.child.expect_exact("fish exits rather than run it")
    shell.child.expect(pexpect.EOF)
    assert list(workspace.iterdir()) == []
