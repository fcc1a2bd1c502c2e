"""The out-of-band hold: an agent without a real prompt waits while the human at `guard watch`
answers, and the answer becomes the agent's allow or deny.

`guard watch` runs in a pseudo-terminal driven by pexpect; the agent's hook is a separate
process in a session of its own with the hook JSON on stdin, as the agents run hooks. For
OpenCode the hook is the plugin `guard setup opencode` writes, run by node.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from agent_payloads import PAYLOADS, allowed
from shells import answer

GUARD = [sys.executable, "-m", "guard"]


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    ws = tmp_path / "project"
    ws.mkdir()
    runtime = Path(tempfile.mkdtemp(prefix="gh", dir="/tmp"))  # socket paths must stay short
    yield {
        **os.environ,
        "GUARD_WORKSPACE": str(ws),
        "GUARD_APPROVER_SOCKET": str(runtime / "approver.sock"),
        "GUARD_APPROVER_CONTROL": str(runtime / "control.sock"),
        "TERM": "xterm",
        "WS": str(ws),
    }
    for child in runtime.iterdir():
        child.unlink()
    runtime.rmdir()


def watch(env: dict[str, str], *args: str) -> pexpect.spawn:
    human = pexpect.spawn(
        GUARD[0], [*GUARD[1:], "watch", *args], env=env, encoding="utf-8", timeout=20,
        dimensions=(50, 200),
    )  # fmt: skip
    human.delaybeforesend = None
    human.expect("waiting for requests")
    return human


def start_hook(agent: str, env: dict[str, str], *args: str) -> subprocess.Popen[bytes]:
    running = subprocess.Popen(
        [*GUARD, "hook", agent, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    assert running.stdin is not None
    running.stdin.write(json.dumps(PAYLOADS[agent]("cat /etc/hosts", env["WS"])).encode())
    running.stdin.close()
    running.stdin = None  # written and closed: communicate() only reads
    return running


def stop(human: pexpect.spawn) -> None:
    human.send("q")
    human.expect(pexpect.EOF)


HELD = ["codex", "cursor", "cline"]


@pytest.mark.parametrize("agent", HELD)
@pytest.mark.parametrize("key", ["y", "n"])
def test_the_human_at_guard_watch_answers_a_held_call(
    env: dict[str, str], agent: str, key: str
) -> None:
    human = watch(env)
    running = start_hook(agent, env, "--timeout", "150")
    human.expect_exact(f"via {agent}")
    human.expect_exact(f"session   {agent}:s1")
    human.expect_exact("[n] deny")
    answer(human, key)
    out, err = running.communicate(timeout=30)
    assert running.returncode == 0, err
    if key == "y":
        assert out.decode() == allowed(agent).replace(
            "allowed by the policy", "allowed by the human at `guard watch`"
        ) + ("\n" if allowed(agent) else "")
    else:
        assert "denied by the human" in out.decode()
        assert json.loads(out).get("permission", "deny") == "deny"
    stop(human)


def test_a_held_call_answered_at_guard_watch_is_one_row_of_the_audit_log(
    env: dict[str, str],
) -> None:
    human = watch(env)
    running = start_hook("codex", env, "--timeout", "150")
    human.expect_exact("[n] deny")
    answer(human, "y")
    running.communicate(timeout=30)
    stop(human)
    done = subprocess.run([*GUARD, "log", "--json"], env=env, capture_output=True, text=True)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["decision"], r["how"], r["command"]) for r in rows] == [
        ("allow", "approver", "cat /etc/hosts")]
    assert rows[0]["reasons"] == ["ask: read /etc/hosts (cat) is outside the workspace"]
    assert rows[0]["detail"]["asked_by"] == "codex"


def test_an_allow_for_the_session_covers_the_agents_next_call(env: dict[str, str]) -> None:
    human = watch(env)
    running = start_hook("codex", env, "--timeout", "150")
    human.expect_exact("[n] deny")
    answer(human, "s")
    out, _err = running.communicate(timeout=30)
    assert out == b""  # Codex's allow: no decision at all
    stop(human)  # the approver is gone; the approval is in the store
    again = start_hook("codex", env, "--timeout", "150")
    out, _err = again.communicate(timeout=30)
    assert (again.returncode, out) == (0, b"")


def test_the_hold_ends_in_deny_before_the_agents_hook_timeout(env: dict[str, str]) -> None:
    human = watch(env)
    began = time.monotonic()
    running = start_hook("cline", env, "--timeout", "20")
    human.expect_exact("[n] deny")
    out, _err = running.communicate(timeout=30)
    took = time.monotonic() - began
    assert json.loads(out)["cancel"] is True
    assert "no answer" in json.loads(out)["errorMessage"]
    assert took < 20 - 4, f"the hold took {took:.1f} s, too close to the hook's 20 s"
    stop(human)


def test_gemini_headless_with_guard_approver_always_asks_at_guard_watch(
    env: dict[str, str],
) -> None:
    human = watch(env)
    running = start_hook("gemini", {**env, "GUARD_APPROVER": "always"}, "--timeout", "150")
    human.expect_exact("via gemini")
    human.expect_exact("[n] deny")
    answer(human, "n")
    out, _err = running.communicate(timeout=30)
    assert json.loads(out)["decision"] == "deny"
    stop(human)


DRIVER = """
const [plugin, dir, command] = process.argv.slice(1)
const mod = await import(plugin)
const hooks = await mod.GuardPlugin({ directory: dir, worktree: dir })
try {
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s1", callID: "c1" },
                                      { args: { command } })
  console.log("RAN")
} catch (err) {
  console.log("THROWN " + err.message)
}
"""


@pytest.fixture
def plugin(env: dict[str, str], tmp_path: Path) -> Path:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the OpenCode plugin cannot be run")
    done = subprocess.run([*GUARD, "setup", "opencode"], env=env, capture_output=True, check=True)
    written = Path(env["XDG_CONFIG_HOME"]) / "opencode" / "plugins" / "guard.js"
    assert str(written) in done.stdout.decode()
    module = tmp_path / "guard-plugin.mjs"  # node 20 reads `import` only from .mjs
    module.write_text(written.read_text())
    return module


def run_plugin(plugin: Path, env: dict[str, str], command: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        ["node", "--input-type=module", "-e", DRIVER, "--", plugin.as_uri(), env["WS"], command],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip


@pytest.mark.parametrize(("key", "said"), [("y", "RAN"), ("n", "THROWN guard: denied")])
def test_the_opencode_plugin_holds_the_call_for_guard_watch(
    env: dict[str, str], plugin: Path, key: str, said: str
) -> None:
    human = watch(env)
    running = run_plugin(plugin, env, "cat /etc/hosts")
    human.expect_exact("via opencode")
    human.expect_exact("[n] deny")
    answer(human, key)
    out, err = running.communicate(timeout=30)
    assert out.startswith(said), err
    stop(human)


def test_the_opencode_plugin_without_an_approver_throws_how_to_approve(
    env: dict[str, str], plugin: Path
) -> None:
    out, err = run_plugin(plugin, env, "cat /etc/hosts").communicate(timeout=30)
    assert out.startswith("THROWN guard: denied `cat /etc/hosts`"), err
    assert "start `guard watch`" in out
    assert "guard approvals grant --session opencode:s1" in out


def test_the_opencode_plugin_runs_an_everyday_command(env: dict[str, str], plugin: Path) -> None:
    out, err = run_plugin(plugin, env, "ls").communicate(timeout=30)
    assert out == "RAN\n", err


def test_the_opencode_plugin_throws_when_guard_cannot_start(
    env: dict[str, str], plugin: Path
) -> None:
    broken = plugin.read_text().replace(json.dumps(_program(plugin)), '"/nonexistent/guard"')
    plugin.write_text(broken)
    out, _err = run_plugin(plugin, env, "ls").communicate(timeout=30)
    assert out.startswith("THROWN guard: could not start /nonexistent/guard")


def _program(plugin: Path) -> str:
    line = next(x for x in plugin.read_text().splitlines() if x.startswith("const GUARD = "))
    program: str = json.loads(line.removeprefix("const GUARD = "))
    return program


def test_guards_own_deadline_denies_when_the_approver_never_answers(env: dict[str, str]) -> None:
    """An approver that takes the request and then says nothing (hung, or far slower than it
    promised): guard's own deadline ends the hold before the agent's hook timeout."""
    import socket
    import threading

    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(env["GUARD_APPROVER_SOCKET"])
    server.listen(1)
    held: list[socket.socket] = []

    def serve() -> None:
        conn, _ = server.accept()
        held.append(conn)
        conn.recv(65536)
        conn.sendall(b'{"type": "queued", "id": 1, "timeout": 1000}\n')  # and then nothing

    threading.Thread(target=serve, daemon=True).start()
    began = time.monotonic()
    running = start_hook("cursor", env, "--timeout", "16")
    out, _err = running.communicate(timeout=30)
    took = time.monotonic() - began
    reason = json.loads(out)["user_message"]
    assert json.loads(out)["permission"] == "deny"
    assert reason.startswith("guard: no answer within 11 s, and cursor runs a call")
    assert took < 16 - 2, f"the hold took {took:.1f} s, past the hook's 16 s"
    for conn in held:
        conn.close()
    server.close()


def test_a_protected_path_is_never_a_silent_allow_even_when_approved(env: dict[str, str]) -> None:
    home = Path(env["HOME"])
    (home / ".ssh").mkdir()
    (home / ".ssh" / "config").write_text("Host x\n")
    for surface in ("protected", "external_directory"):
        subprocess.run(
            [*GUARD, "approvals", "grant", "--session", "codex:s1", "--surface", surface,
             "--pattern", str(home / ".ssh" / "config"), "--access", "read"],
            env=env, check=True, capture_output=True,
        )  # fmt: skip
    payload = PAYLOADS["codex"](f"cat {home}/.ssh/config", env["WS"])
    done = subprocess.run(
        [*GUARD, "hook", "codex"], input=json.dumps(payload).encode(), env=env,
        capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.startswith(f"guard: denied `cat {home}/.ssh/config` (")
    assert "(read ~/.ssh/config (cat) is a protected path)." in reason
    assert "guard approvals grant" not in reason  # approving it again would not help
