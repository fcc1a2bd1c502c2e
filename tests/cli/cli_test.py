"""The `guard` command line as outside checks use it: explain's JSON, check's exit codes,
approvals and the audit log, all through real processes on a real store."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

GUARD = [sys.executable, "-m", "guard"]


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def guard(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GUARD, *args], cwd=cwd, capture_output=True, text=True,
                          input=stdin, timeout=60)


def json_lines(text: str) -> list[dict[str, object]]:
    """JSON Lines: one object on each line, nothing else."""
    rows = [json.loads(line) for line in text.splitlines()]
    assert all(isinstance(r, dict) for r in rows)
    return rows


def test_explain_json_has_the_documented_fields(ws: Path) -> None:
    done = guard("explain", "--json", "--", "cat /etc/hosts > out.txt; git status", cwd=ws)
    assert done.returncode == 0
    out = json.loads(done.stdout)
    assert out["command"] == "cat /etc/hosts > out.txt; git status"
    assert out["cwd"] == str(ws)
    assert out["workspace"] == [str(ws)]
    assert out["decision"] == "ask"
    assert out["reasons"] and all(isinstance(r, str) for r in out["reasons"])
    by_surface = {r["surface"]: r for r in out["requests"]}
    ext = by_surface["external_directory"]
    assert (ext["path"], ext["access"], ext["decision"]) == ("/etc/hosts", "read", "ask")
    assert out["command"].encode()[ext["span"][0] : ext["span"][1]] == b"/etc/hosts"
    commands = [r["argv"] for r in out["requests"] if r["surface"] == "command"]
    assert commands == [["cat", "/etc/hosts"], ["git", "status"]]
    for r in out["requests"]:
        assert {"surface", "decision", "reason", "span", "by"} <= set(r)


def test_explain_json_for_unknown_and_unparsable_parts(ws: Path) -> None:
    out = json.loads(guard("explain", "--json", "--", "rm -rf $(cat t)", cwd=ws).stdout)
    dyn = [r for r in out["requests"] if r["surface"] == "dynamic"]
    assert dyn and dyn[0]["text"] == "$(cat t)"
    out = json.loads(guard("explain", "--json", "--", "echo 'unterminated", cwd=ws).stdout)
    assert out["decision"] == "ask"
    assert any(r["surface"] == "syntax" for r in out["requests"])


def test_explain_cwd_moves_where_relative_paths_resolve(ws: Path, tmp_path: Path) -> None:
    out = json.loads(guard("explain", "--json", "--cwd", str(tmp_path), "--", "cat x",
                           cwd=ws).stdout)
    assert out["cwd"] == str(tmp_path)


def test_explain_exit_status_is_zero_whatever_the_verdict_and_two_for_usage(ws: Path) -> None:
    assert guard("explain", "--", "rm -rf /", cwd=ws).returncode == 0
    assert guard("explain", cwd=ws).returncode == 2
    assert guard("explain", "--bogus", "x", cwd=ws).returncode == 2


def test_explain_human_output_marks_what_asks(ws: Path) -> None:
    out = guard("explain", "--", "cat /etc/hosts", cwd=ws).stdout
    assert "  cat /etc/hosts\n      ^^^^^^^^^^" in out
    assert "verdict: ask" in out


def test_explain_jsonl_answers_each_line(ws: Path) -> None:
    lines = "\n".join(json.dumps(c) for c in ["ls", "cat /etc/hosts", "echo 'x"]) + "\n"
    done = guard("explain", "--jsonl", cwd=ws, stdin=lines)
    rows = [json.loads(x) for x in done.stdout.splitlines()]
    assert [r["decision"] for r in rows] == ["allow", "ask", "ask"]
    assert done.returncode == 0


def test_explain_jsonl_flags_a_line_that_is_not_a_json_string(ws: Path) -> None:
    done = guard("explain", "--jsonl", cwd=ws, stdin='"ls"\n42\nnot json\n')
    rows = [json.loads(x) for x in done.stdout.splitlines()]
    assert rows[0]["decision"] == "allow"
    assert "error" in rows[1] and "error" in rows[2]
    assert done.returncode == 2


@pytest.mark.parametrize(("line", "status"), [
    ("ls", 0),
    ("cat /etc/hosts", 3),
    ("rm -rf src", 3),
])
def test_check_exit_codes_without_prompting(ws: Path, line: str, status: int) -> None:
    assert guard("check", "--no-prompt", "--session", "s1", "--", line, cwd=ws).returncode == status


def test_check_denies_by_rule_with_exit_one_and_a_guard_message(ws: Path) -> None:
    (ws / ".guard.toml").write_text('[[rules]]\nsurface = "command"\npattern = "make *"\n'
                                    'action = "deny"\n')
    done = guard("check", "--session", "s1", "--", "make all", cwd=ws)
    assert done.returncode == 1
    assert done.stderr.startswith("guard:")


def test_check_with_no_terminal_denies_an_ask_with_a_message(ws: Path) -> None:
    done = subprocess.run(["setsid", "-w", *GUARD, "check", "--session", "s1", "--",
                           "cat /etc/hosts"], cwd=ws, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 1
    assert done.stderr.startswith("guard:")


def test_check_usage_error_is_two(ws: Path) -> None:
    assert guard("check", cwd=ws).returncode == 2


def test_a_session_approval_turns_ask_into_allow_for_that_session_only(ws: Path) -> None:
    line = "cat /etc/hosts"
    assert guard("check", "--no-prompt", "--session", "s1", "--", line, cwd=ws).returncode == 3
    granted = guard("approvals", "grant", "--session", "s1", "--surface", "external_directory",
                    "--pattern", "/etc/hosts", "--access", "read", cwd=ws)
    assert granted.returncode == 0, granted.stderr
    assert guard("check", "--no-prompt", "--session", "s1", "--", line, cwd=ws).returncode == 0
    assert guard("check", "--no-prompt", "--session", "s2", "--", line, cwd=ws).returncode == 3
    assert guard("check", "--no-prompt", "--session", "s1", "--", "cat /etc/passwd",
                 cwd=ws).returncode == 3


def test_an_approval_never_overrides_a_deny(ws: Path) -> None:
    (ws / ".guard.toml").write_text('[[rules]]\nsurface = "command"\npattern = "make *"\n'
                                    'action = "deny"\n')
    guard("approvals", "grant", "--session", "s1", "--surface", "command", "--pattern",
          "make *", cwd=ws)
    assert guard("check", "--no-prompt", "--session", "s1", "--", "make all",
                 cwd=ws).returncode == 1


def test_approvals_list_revoke_and_clear(ws: Path) -> None:
    guard("approvals", "grant", "--session", "s1", "--surface", "command", "--pattern",
          "git push *", cwd=ws)
    guard("approvals", "grant", "--surface", "command", "--pattern", "npm publish *",
          "--always", cwd=ws)
    rows = json.loads(guard("approvals", "list", "--json", cwd=ws).stdout)
    assert {(r["session"], r["scope"], r["surface"], r["pattern"]) for r in rows} == {
        ("s1", "session", "command", "git push *"),
        (None, "always", "command", "npm publish *"),
    }
    first = next(r["id"] for r in rows if r["pattern"] == "git push *")
    assert guard("approvals", "revoke", str(first), cwd=ws).returncode == 0
    assert guard("approvals", "revoke", str(first), cwd=ws).returncode == 1
    assert guard("approvals", "clear", "--yes", cwd=ws).returncode == 0
    assert json.loads(guard("approvals", "list", "--json", cwd=ws).stdout) == []


def test_every_check_writes_an_audit_row_newest_first(ws: Path) -> None:
    guard("check", "--no-prompt", "--session", "s9", "--", "ls", cwd=ws)
    guard("check", "--no-prompt", "--session", "s9", "--", "cat /etc/hosts", cwd=ws)
    rows = json_lines(guard("log", "--session", "s9", "--json", cwd=ws).stdout)
    assert [(r["command"], r["decision"]) for r in rows] == [
        ("cat /etc/hosts", "ask"), ("ls", "allow")]
    assert rows[0]["reasons"]
    assert len(json_lines(guard("log", "--limit", "1", "--json", cwd=ws).stdout)) == 1
    assert all(isinstance(r["detail"], dict) for r in rows)
    assert rows[0]["detail"]["origin"] == "guard check"


def test_policy_check_reports_file_line_and_what_to_write(ws: Path, tmp_path: Path) -> None:
    bad = tmp_path / "policy.toml"
    bad.write_text('[[rules]]\nsurface = "command"\npattern = "x"\naction = "alow"\n')
    done = guard("policy", "check", str(bad), cwd=ws)
    assert done.returncode == 1
    assert done.stdout.startswith(f"{bad}:4:")
    assert "allow" in done.stdout


def test_a_broken_user_policy_makes_everything_ask(ws: Path, tmp_path: Path) -> None:
    import os

    Path(os.environ["GUARD_CONFIG"]).parent.mkdir(parents=True, exist_ok=True)
    Path(os.environ["GUARD_CONFIG"]).write_text("this is [ not toml")
    out = json.loads(guard("explain", "--json", "--", "ls", cwd=ws).stdout)
    assert out["decision"] == "ask"


def test_policy_show_names_where_rules_come_from(ws: Path) -> None:
    done = guard("policy", "show", cwd=ws)
    assert done.returncode == 0
    assert "default-policy.toml" in done.stdout


def test_without_a_store_guard_decides_by_policy_alone_and_quietly(
    ws: Path, tmp_path: Path
) -> None:
    import os

    env = dict(os.environ, GUARD_NO_STORE="1", GUARD_STATE_DIR=str(tmp_path / "unusable"))
    (tmp_path / "unusable").write_text("not a directory")
    for line, status in (("ls", 0), ("cat /etc/hosts", 3)):
        done = subprocess.run([*GUARD, "check", "--no-prompt", "--session", "s", "--", line],
                              cwd=ws, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == status
        assert done.stderr == ""


def test_a_refusal_with_nobody_to_ask_is_one_line_saying_what_why_and_what_to_do(
    ws: Path,
) -> None:
    import os

    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    done = subprocess.run(["setsid", "-w", *GUARD, "check", "--session", "s", "--",
                           "cat /etc/hosts"], cwd=ws, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("guard: denied `cat /etc/hosts`")
    assert "outside the workspace" in lines[0]
    assert "guard watch" in lines[0] and "policy" in lines[0]


@pytest.mark.parametrize("line", ["cat $'\\ud800'", "eval $'\\ud800'", "echo \udcff"])
def test_lines_with_lone_surrogates_are_explained_not_crashed(ws: Path, line: str) -> None:
    for extra in ([], ["--json"]):
        done = guard("explain", *extra, "--", line, cwd=ws)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("line", ["cat lnk/secret", "cat ln?/secret", "cat ln[k]/secret",
                                  "cat lnk/../outside/secret", "cat */secret"])
def test_links_in_the_workspace_that_lead_out_are_followed(
    ws: Path, tmp_path: Path, line: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("s")
    (ws / "lnk").symlink_to(outside)
    out = json.loads(guard("explain", "--json", "--", line, cwd=ws).stdout)
    assert out["decision"] == "ask"
    assert str(outside / "secret") in [r.get("path") for r in out["requests"]]


def documented_hows() -> set[str]:
    """The `how` values the audit log table of docs/approvals.md lists."""
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "approvals.md").read_text()
    table = text.split("## The audit log", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| `")]
    return {how for cells in rows for how in re.findall(r"`([a-z-]+)`", cells[2])}


def test_log_limit_counts_rows_and_every_how_is_in_the_docs(ws: Path) -> None:
    Path(ws / ".guard.toml").write_text('[[rules]]\nsurface = "command"\npattern = "rm *"\n'
                                        'action = "deny"\n')  # fmt: skip
    guard("policy", "trust", cwd=ws)
    for line in ("ls", "cat /etc/hosts", "rm x"):
        guard("check", "--no-prompt", "--", line, cwd=ws)
    guard("check", "--", "cat /etc/hosts", cwd=ws)  # no terminal, no approver: denied
    guard("approvals", "grant", "--always", "--surface", "command", "--pattern", "make *", cwd=ws)
    guard("approvals", "revoke", "1", cwd=ws)
    guard("approvals", "clear", "--yes", cwd=ws)
    rows = json_lines(guard("log", "--json", cwd=ws).stdout)
    assert len(rows) == 8
    assert {str(r["how"]) for r in rows} <= documented_hows()
    text = guard("log", "--limit", "3", cwd=ws).stdout
    assert len([ln for ln in text.splitlines() if ln[:2] == "20"]) == 3  # rows, not lines
    assert len(json_lines(guard("log", "--limit", "3", "--json", cwd=ws).stdout)) == 3
    assert guard("log", "--limit", "-1", cwd=ws).returncode == 2
