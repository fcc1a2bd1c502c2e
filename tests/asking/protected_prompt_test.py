"""Approving a protected path takes a second key, and keys typed as the question appears
answer nothing: `guard check` on guard's own policy file, in a real pty."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pexpect
import pytest
from shells import past_grace

from guard.asking.prompt import CONFIRM_GAP

GUARD = [sys.executable, "-m", "guard"]


def asking(tmp_path: Path, term: str) -> pexpect.spawn:
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text("# mine\n", encoding="utf-8")
    child = pexpect.spawn(GUARD[0], [*GUARD[1:], "check", "--session", "p1", "--",
                                     f"cat {policy}"], cwd=str(tmp_path), encoding="utf-8",
                          env={**os.environ, "TERM": term}, timeout=30)  # fmt: skip
    child.delaybeforesend = None
    return child


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_history_typed_as_the_question_appears_reads_no_protected_file(
    tmp_path: Path, term: str
) -> None:
    child = asking(tmp_path, term)
    child.expect("needs your approval")
    child.send("history\r")  # what the human meant for the shell, as the question is drawn
    child.expect("denies in")
    child.send("s\r")
    with pytest.raises(pexpect.TIMEOUT):
        child.expect("guard: allowed", timeout=1.0)
    past_grace()
    child.send("n")
    child.expect("guard: denied")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


@pytest.mark.pty
@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_a_session_read_of_guards_own_policy_takes_a_confirming_enter(
    tmp_path: Path, term: str
) -> None:
    child = asking(tmp_path, term)
    child.expect("denies in")
    past_grace()
    child.send("s")
    child.expect_exact("press Enter to confirm [s] allow for this session")
    with pytest.raises(pexpect.TIMEOUT):
        child.expect("guard: allowed", timeout=0.7)
    time.sleep(CONFIRM_GAP + 0.1)
    child.send("\r")
    child.expect("guard: allowed for this session")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
