"""What `a` and `p` wrote is visible and undoable where approvals are: `guard approvals list`
shows the rules an answer appended to a policy file, and `guard approvals revoke ID` takes one
out again, keeping the file as it was next to it. Real prompts in a pty, real files."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from guard.asking.prompt import CONFIRM_GAP

GUARD = [sys.executable, "-m", "guard"]


def guard(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GUARD, *args], cwd=cwd, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip


def answer_always(line: str, key: str, cwd: Path) -> None:
    """`guard check -- LINE` at a terminal, answered `key` and a confirming Enter."""
    child = pexpect.spawn(GUARD[0], [*GUARD[1:], "check", "--", line], cwd=str(cwd),
                          env={**os.environ, "TERM": "dumb"}, encoding="utf-8",
                          timeout=30)  # fmt: skip
    child.expect_exact("[n] deny")
    time.sleep(CONFIRM_GAP + 0.3)  # past any grace for keys pressed as the question appears
    child.send(key)
    child.expect_exact("press Enter to confirm")
    time.sleep(CONFIRM_GAP + 0.1)
    child.send("\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = tmp_path / "app"
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    monkeypatch.delenv("GUARD_WORKSPACE", raising=False)
    return work


def listed_rules(cwd: Path) -> list[str]:
    shown = guard("approvals", "list", cwd=cwd).stdout.splitlines()
    return [line for line in shown if re.match(r"r[0-9a-f]{6} ", line)]


@pytest.mark.pty
def test_an_always_rule_is_listed_and_revoked_with_a_backup(project: Path) -> None:
    user_file = Path(os.environ["GUARD_CONFIG"])
    answer_always("cat /etc/hosts", "a", project)
    assert guard("check", "--no-prompt", "--", "cat /etc/hosts", cwd=project).returncode == 0
    (row,) = listed_rules(project)
    rule_id = row.split()[0]
    assert "always (a rule)" in row and "external_directory" in row and "/etc/hosts" in row
    assert "asked by: cat /etc/hosts" in row and f"{user_file}:" in row
    assert guard("approvals", "list", "--ids", cwd=project).stdout == f"{rule_id}\n"
    written = user_file.read_text()
    done = guard("approvals", "revoke", f"#{rule_id}", cwd=project)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (f"revoked {rule_id}: took the rule out of {user_file} (as it was: "
                           f"{user_file}.bak)\n")  # fmt: skip
    assert "/etc/hosts" not in user_file.read_text()
    assert Path(f"{user_file}.bak").read_text() == written
    assert listed_rules(project) == []
    assert guard("check", "--no-prompt", "--", "cat /etc/hosts", cwd=project).returncode == 3
    again = guard("approvals", "revoke", rule_id, cwd=project)
    assert (again.returncode, again.stderr) == (
        1, f"guard: no approval or rule {rule_id}; see guard approvals list\n")


@pytest.mark.pty
def test_a_project_rule_revoked_leaves_the_project_file_trusted(project: Path) -> None:
    answer_always("cat /etc/hosts", "p", project)
    answer_always("cat /etc/passwd", "p", project)
    rows = listed_rules(project)
    assert len(rows) == 2 and all(".guard.toml:" in row for row in rows)
    hosts = next(row.split()[0] for row in rows if "/etc/hosts" in row)
    assert guard("approvals", "revoke", hosts, cwd=project).returncode == 0
    assert guard("check", "--no-prompt", "--", "cat /etc/hosts", cwd=project).returncode == 3
    kept = guard("check", "--no-prompt", "--", "cat /etc/passwd", cwd=project)
    assert kept.returncode == 0, kept.stderr  # its other allow rule still counts
    log = guard("log", cwd=project).stdout
    assert "trust revoke" in log and "revoke rule in" in log
