"""Effects at the question, through a real interactive bash in a pseudo-terminal: the question
names the effect, and a session approval of it covers that kind:target for later lines."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from shells import Shell, answer, deny_touch_workspace

pytestmark = pytest.mark.pty


@pytest.fixture
def bash(tmp_path: Path) -> Iterator[Shell]:
    shell = Shell("bash", deny_touch_workspace(tmp_path))
    yield shell
    shell.close()


def test_a_session_approval_of_an_effect_covers_its_kind_and_target(
    bash: Shell, tmp_path: Path
) -> None:
    ws = tmp_path / "ws"
    assert bash.run("mkdir -p build/a other/b")[1] == 0
    bash.send("rm -rf build")
    shown = bash.expect("denies in")
    assert "destroy files: recursive delete (rm -rf build)" in shown
    answer(bash.child, "s")
    bash.prompt()
    assert not (ws / "build").exists()
    out, status = bash.run("rm -r other")  # the same effect: no second question
    assert (out, status) == ("", 0)
    assert not (ws / "other").exists()


def test_a_line_that_only_mentions_effects_runs_without_a_question(bash: Shell) -> None:
    out, status = bash.run('echo "git push --force and rm -rf /" > notes.txt; cat notes.txt')
    assert (out, status) == ("git push --force and rm -rf /", 0)
