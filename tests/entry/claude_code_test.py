"""`guard hook claude-code`: Claude Code's PreToolUse JSON in, its permission decision out.

The table runs the adapter in this process; a few cases run `guard hook claude-code` as Claude
Code does (a process, JSON on stdin) to pin the exit status and that stdout is exactly one JSON
object, or nothing. Whatever is wrong with the input, the answer is never allow.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from shells import answer

from guard.cli.hook import claude_code
from guard.entry.agents.core import MAX_INPUT
from guard.verdict.store.store import Store

GUARD = [sys.executable, "-m", "guard"]


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    ws = tmp_path / "project"
    ws.mkdir()
    monkeypatch.setenv("GUARD_WORKSPACE", str(ws))
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text('[[rules]]\nsurface = "command"\npattern = "curl *"\naction = "deny"\n')
    return ws


def bash(command: object, **extra: object) -> dict[str, object]:
    return {
        "session_id": "abc123",
        "transcript_path": "/dev/null",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "a command"},
        **extra,
    }


def given(data: object) -> bytes:
    return data if isinstance(data, bytes) else json.dumps(data).encode()


CASES: list[tuple[str, object, str | None, str]] = [
    ("an everyday command is allowed", bash("ls -la"), "allow", "guard: allowed"),
    ("a read outside the workspace asks", bash("cat /etc/hosts"), "ask",
     "read /etc/hosts (cat) is outside the workspace"),
    ("what the policy denies is denied", bash("curl https://example.com"), "deny",
     "guard: denied: curl https://example.com"),
    ("a line that does not parse asks", bash('cat "unterminated'), "ask", "cannot"),
    ("another tool gets no opinion", {"tool_name": "Read", "tool_input": {"file_path": "/x"}},
     None, ""),
    ("another tool gets none even with a command", {"tool_name": "Task",
     "tool_input": {"command": "rm -rf /"}}, None, ""),
    ("another hook event gets no opinion", bash("rm -rf /", hook_event_name="PostToolUse"),
     None, ""),
    ("truncated JSON is denied", given(bash("ls"))[:-7], "deny", "not JSON (truncated?)"),
    ("no input at all is denied", b"", "deny", "not JSON"),
    ("bytes that are not UTF-8 are denied", b'{"tool_name": "Bash\xff"}', "deny", "not JSON"),
    ("a JSON list is denied", [bash("ls")], "deny", "not a JSON object"),
    ("input without a tool name is denied", {"tool_input": {"command": "ls"}}, "deny",
     "no tool_name"),
    ("a tool name that is not text is denied", {"tool_name": ["Bash"]}, "deny", "no tool_name"),
    ("a Bash call without tool_input is denied", {"tool_name": "Bash"}, "deny",
     "no tool_input.command"),
    ("a command that is not text is denied", bash(["rm", "-rf", "/"]), "deny",
     "no tool_input.command"),
    ("a relative cwd is denied", bash("ls", cwd="project"), "deny", "is not a path"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "data", "decision", "reason"), CASES, ids=[c[0] for c in CASES])
def test_a_pretooluse_input_gets_its_permission_decision(
    workspace: Path, case: str, data: object, decision: str | None, reason: str
) -> None:
    if isinstance(data, dict) and data.get("tool_name") == "Bash":
        data.setdefault("cwd", str(workspace))
    answer = claude_code(given(data), os.environ)
    if decision is None:
        assert answer is None
        return
    assert answer is not None
    output = answer["hookSpecificOutput"]
    assert isinstance(output, dict)
    assert set(output) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    assert (output["hookEventName"], output["permissionDecision"]) == ("PreToolUse", decision)
    assert reason in output["permissionDecisionReason"]


def test_input_larger_than_the_limit_is_denied_not_cut(workspace: Path) -> None:
    answer = claude_code(b" " * (MAX_INPUT + 1), os.environ)
    assert answer is not None
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"  # type: ignore[index]


@pytest.mark.parametrize(("session_id", "decision"), [("abc123", "allow"), ("other", "ask")])
def test_session_approvals_key_on_claudes_session_id(
    workspace: Path, session_id: str, decision: str
) -> None:
    with Store.open() as store:
        store.grant(
            session="claude-code:abc123", scope="session", surface="external_directory",
            pattern="/etc/hosts", access="read", granted_by="human", command="cat /etc/hosts",
            now=time.time(),
        )  # fmt: skip
    data = bash("cat /etc/hosts", cwd=str(workspace), session_id=session_id)
    answer = claude_code(given(data), os.environ)
    assert answer is not None
    assert answer["hookSpecificOutput"]["permissionDecision"] == decision  # type: ignore[index]


def hook(stdin: bytes, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*GUARD, "hook", "claude-code"],
        input=stdin,
        capture_output=True,
        env={**os.environ, **env},
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("stdin", "decision"),
    [
        (given(bash("cat /etc/hosts")), "ask"),
        (given(bash("ls"))[:20], "deny"),
        (given({"tool_name": "Glob", "tool_input": {"pattern": "*"}}), None),
    ],
)
def test_the_hook_process_exits_0_with_one_json_object_or_nothing(
    workspace: Path, stdin: bytes, decision: str | None
) -> None:
    done = hook(stdin)
    assert done.returncode == 0, done.stderr
    if decision is None:
        assert done.stdout == b""
        return
    (line,) = done.stdout.decode().splitlines()
    assert json.loads(line)["hookSpecificOutput"]["permissionDecision"] == decision


def test_each_verdict_goes_to_the_audit_log_under_claudes_session(workspace: Path) -> None:
    hook(given(bash("cat /etc/hosts", cwd=str(workspace))))
    with Store.open() as store:
        rows = store.log("claude-code:abc123")
    assert [(r.command, r.decision, r.how) for r in rows] == [
        ("cat /etc/hosts", "ask", "claude-code-prompt")
    ]
    assert json.loads(rows[0].detail) == {"origin": "claude-code"}


@pytest.fixture
def sockets() -> Iterator[dict[str, str]]:
    runtime = Path(tempfile.mkdtemp(prefix="gc", dir="/tmp"))  # socket paths must stay short
    yield {
        "GUARD_APPROVER_SOCKET": str(runtime / "approver.sock"),
        "GUARD_APPROVER_CONTROL": str(runtime / "control.sock"),
    }
    for child in runtime.iterdir():
        child.unlink()
    runtime.rmdir()


@pytest.mark.parametrize(("key", "decision"), [("y", "allow"), ("n", "deny")])
def test_with_guard_approver_always_an_ask_goes_to_the_human_at_guard_watch(
    workspace: Path, sockets: dict[str, str], key: str, decision: str
) -> None:
    env = {**os.environ, **sockets, "TERM": "xterm"}
    human = pexpect.spawn(GUARD[0], [*GUARD[1:], "watch"], env=env, encoding="utf-8", timeout=15)
    human.delaybeforesend = None
    human.expect("waiting for requests")
    running = subprocess.Popen(
        [*GUARD, "hook", "claude-code"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**env, "GUARD_APPROVER": "always"},
        start_new_session=True,
    )
    assert running.stdin is not None
    running.stdin.write(given(bash("cat /etc/hosts", cwd=str(workspace))))
    running.stdin.close()
    human.expect_exact("via claude-code")
    human.expect_exact("[n] deny")
    answer(human, key)
    assert running.stdout is not None
    out = running.stdout.read()
    assert running.wait(timeout=30) == 0
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == decision
    human.send("q")
    human.expect(pexpect.EOF)
