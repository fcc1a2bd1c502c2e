"""Every change of trust is an audit row `guard log` shows, and an audit log that cannot be
written never changes a verdict: guard says so once, on stderr. Real processes, a real store."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest
from shells import answer

GUARD = [sys.executable, "-m", "guard"]


def guard(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GUARD, *args], cwd=cwd, capture_output=True, text=True, input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL, timeout=60,
                          start_new_session=True)  # fmt: skip


def log_rows(cwd: Path) -> list[dict[str, object]]:
    done = guard("log", "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_grant_revoke_and_clear_are_audited_and_shown_by_guard_log(tmp_path: Path) -> None:
    assert guard("approvals", "grant", "--session", "s1", "--surface", "command", "--pattern",
                 "git push *", cwd=tmp_path).stdout == "granted #1\n"  # fmt: skip
    guard("approvals", "grant", "--always", "--surface", "external_directory", "--pattern",
          "/srv/data/**", "--access", "read", cwd=tmp_path)  # fmt: skip
    assert guard("approvals", "revoke", "1", cwd=tmp_path).returncode == 0
    assert guard("approvals", "clear", "--yes", cwd=tmp_path).stdout == "revoked 1 approval\n"
    rows = log_rows(tmp_path)
    assert [(r["decision"], r["how"], r["command"]) for r in rows] == [
        ("trust", "clear", "clear 1 approval"),
        ("trust", "revoke", "revoke session command git push *"),
        ("trust", "grant", "grant always external_directory /srv/data/** [read]"),
        ("trust", "grant", "grant session command git push *"),
    ]
    assert rows[3]["session"] == "s1"
    assert rows[3]["detail"] == {"by": "cli", "id": 1, "scope": "session", "surface": "command",
                                 "pattern": "git push *", "access": None}  # fmt: skip
    text = guard("log", cwd=tmp_path).stdout
    assert "trust grant" in text and "grant session command git push *" in text


def test_policy_trust_is_audited_with_the_file_and_its_hash(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / ".guard.toml").write_text('[[rules]]\nsurface = "command"\npattern = "make *"\n'
                                         'action = "allow"\n')  # fmt: skip
    assert guard("policy", "trust", cwd=project).returncode == 0
    (row,) = log_rows(project)
    assert (row["decision"], row["how"]) == ("trust", "policy-trust")
    detail = row["detail"]
    assert isinstance(detail, dict) and detail["path"] == str(project / ".guard.toml")
    assert len(str(detail["sha256"])) == 64


def test_policy_trust_on_a_missing_file_says_there_is_nothing_to_trust(tmp_path: Path) -> None:
    done = guard("policy", "trust", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == (f"guard: there is no {tmp_path / '.guard.toml'} to trust; nothing was "
                           "changed (without a project file your own policy applies alone)\n")
    assert "problems" not in done.stdout + done.stderr
    assert log_rows(tmp_path) == []


def break_the_audit_log() -> None:
    """A store that reads fine but refuses every audit row, as a full disk would."""
    guard("approvals", "list", cwd=Path("/"))  # creates the store
    con = sqlite3.connect(Path(os.environ["GUARD_STATE_DIR"]) / "guard.db")
    con.execute("CREATE TRIGGER full BEFORE INSERT ON audit BEGIN "
                "SELECT RAISE(ABORT, 'database or disk is full'); END")  # fmt: skip
    con.commit()
    con.close()


def test_a_verdict_stands_when_its_audit_row_cannot_be_written(tmp_path: Path) -> None:
    break_the_audit_log()
    allowed = guard("check", "--session", "s", "--", "ls", cwd=tmp_path)
    assert allowed.returncode == 0
    assert allowed.stderr.count("guard: the audit log is not being written") == 1
    assert allowed.stderr.count("\n") == 1
    denied = guard("check", "--session", "s", "--", "cat /etc/hosts", cwd=tmp_path)
    assert denied.returncode == 1  # no terminal, no approver: the same deny as ever
    assert denied.stderr.startswith("guard: denied `cat /etc/hosts`")
    assert "the audit log is not being written" not in denied.stderr  # said once per session
    other = guard("check", "--session", "s2", "--", "cat /etc/hosts", cwd=tmp_path)
    assert other.returncode == 1
    assert other.stderr.count("the audit log is not being written") == 1


def test_a_grant_stands_when_its_audit_row_cannot_be_written(tmp_path: Path) -> None:
    break_the_audit_log()
    done = guard("approvals", "grant", "--session", "s", "--surface", "command", "--pattern",
                 "make *", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0 and done.stdout == "granted #1\n"
    assert done.stderr.startswith("guard: the audit log is not being written (")
    assert done.stderr.count("\n") == 1
    listed = json.loads(guard("approvals", "list", "--json", cwd=tmp_path).stdout)
    assert [a["pattern"] for a in listed] == ["make *"]


@pytest.mark.pty
@pytest.mark.parametrize(
    ("keys", "how", "what"),
    [("s", "grant", "grant session external_directory /etc/hostname [read]"),
     ("a|\r", "always-rule", "allow rule in {policy}: /etc/hostname")],
)  # fmt: skip
def test_an_answer_at_the_question_that_grants_is_audited_as_a_change_of_trust(
    tmp_path: Path, keys: str, how: str, what: str
) -> None:
    from guard.asking.prompt import CONFIRM_GAP

    child = pexpect.spawn(GUARD[0], [*GUARD[1:], "check", "--session", "s7", "--",
                                     "cat /etc/hostname"], cwd=str(tmp_path), encoding="utf-8",
                          env={**os.environ, "TERM": "dumb"}, timeout=30)  # fmt: skip
    child.expect("denies in")
    first, _, rest = keys.partition("|")
    answer(child, first)
    if rest:
        child.expect("press Enter to confirm")
        time.sleep(CONFIRM_GAP + 0.1)
        child.send(rest)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    rows = log_rows(tmp_path)
    assert [(r["decision"], r["how"]) for r in rows] == [("allow", "human"), ("trust", how)]
    assert rows[1]["command"] == what.format(policy=os.environ["GUARD_CONFIG"])
    assert rows[1]["session"] == "s7"
    detail = rows[1]["detail"]
    assert isinstance(detail, dict) and detail["by"] == "human"
    assert detail["command"] == "cat /etc/hostname"
