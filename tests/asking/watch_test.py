"""`guard watch`: a human answers agents' requests from a terminal the agents do not share.

The human is `guard watch` in a pseudo-terminal driven by pexpect. Each agent is a separate
process in a session of its own (no controlling terminal) with stdin from /dev/null, as Claude
Code and Codex start commands: `bash -c "guard check -- CMD && CMD"`, where CMD writes a marker
file outside the workspace, which the default policy asks about. The marker proves what ran.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pexpect
import pytest
from shells import answer

from guard.verdict.store.store import Store

GUARD = [sys.executable, "-m", "guard"]
SHOWN = r"\[n\] deny"  # the last key listed: the whole request is on the screen


@dataclass
class World:
    env: dict[str, str]
    workspace: Path
    outside: Path  # where markers go: outside the workspace, so writing there asks
    request: Path
    control: Path

    def marker(self, name: str) -> Path:
        return self.outside / name


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    workspace = tmp_path / "ws"
    outside = tmp_path / "outside"
    workspace.mkdir()
    outside.mkdir()
    runtime = Path(tempfile.mkdtemp(prefix="gw", dir="/tmp"))  # socket paths must stay short
    env = dict(os.environ)
    env.update(
        GUARD_WORKSPACE=str(workspace),
        GUARD_APPROVER_SOCKET=str(runtime / "approver.sock"),
        GUARD_APPROVER_CONTROL=str(runtime / "control.sock"),
        TERM="xterm",
        NO_COLOR="1",
    )
    yield World(env, workspace, outside, runtime / "approver.sock", runtime / "control.sock")
    for child in runtime.iterdir():
        child.unlink()
    runtime.rmdir()


def watch(w: World, *args: str, timeout: float = 15) -> pexpect.spawn:
    human = pexpect.spawn(
        GUARD[0],
        [*GUARD[1:], "watch", *args],
        env=w.env,
        cwd=str(w.workspace),
        encoding="utf-8",
        dimensions=(50, 160),
        timeout=timeout,
    )
    human.delaybeforesend = None
    human.expect("waiting for requests")
    return human


def agent(w: World, command: str, **env: str) -> subprocess.Popen[str]:
    """An agent's shell call: no terminal, stdin /dev/null, guard decides before bash runs it."""
    check = shlex.join([*GUARD, "check", "--", command])
    return subprocess.Popen(
        ["bash", "-c", f"{check} && {command}"],
        env={**w.env, **env},
        cwd=str(w.workspace),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # setsid: no controlling terminal, as agents run commands
    )


def touch(w: World, name: str) -> str:
    return f"touch {w.marker(name)}"


def finish(p: subprocess.Popen[str]) -> tuple[int, str]:
    _out, err = p.communicate(timeout=30)
    return p.returncode, err


def quit_watch(human: pexpect.spawn) -> None:
    human.send("q")
    human.expect("guard watch: stopped")
    human.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("key", "ran", "status", "said"),
    [
        ("y", True, 0, "allowed once"),
        ("Y", True, 0, "allowed once"),  # Caps Lock does not change the answer
        ("n", False, 1, "denied by the human"),
    ],
)
def test_the_human_answers_an_agent_that_has_no_terminal(
    world: World, key: str, ran: bool, status: int, said: str
) -> None:
    human = watch(world)
    waiting = agent(world, touch(world, "m"))
    human.expect("request #1 ")
    human.expect(SHOWN)
    answer(human, key)
    human.expect(said)
    code, err = finish(waiting)
    assert (code, world.marker("m").exists()) == (status, ran), err
    quit_watch(human)


def test_the_screen_shows_what_the_request_touches_and_where_it_comes_from(world: World) -> None:
    human = watch(world)
    waiting = agent(world, touch(world, "m"))
    for shown in (
        "request #1 (1 of 1) via guard check",
        "session   ppid-",
        f"workspace {world.workspace}",
        f"cwd       {world.workspace}",
        f"touch {world.marker('m')}",
        f"write {world.marker('m')} (touch)",
        "[y] allow once",
        f"[s] allow for this session: write {world.marker('m')}",
        f"[a] always (user policy): write {world.marker('m')}",
        "[n] deny",
    ):
        human.expect_exact(shown)
    answer(human, "n")
    finish(waiting)
    quit_watch(human)


def test_an_unanswered_request_is_denied_when_its_time_runs_out(world: World) -> None:
    human = watch(world, "--timeout", "1")
    code, err = finish(agent(world, touch(world, "m")))
    human.expect("denied: no answer within 1 s")
    assert code == 1
    assert "no answer within 1 s" in err
    assert not world.marker("m").exists()
    quit_watch(human)


def test_three_agents_wait_at_once_and_are_answered_oldest_first(world: World) -> None:
    human = watch(world)
    agents = []
    for n in (1, 2, 3):
        agents.append(agent(world, touch(world, f"m{n}")))
        human.expect(f"#{n} " if n == 1 else f"#{n} waits too \\({n} waiting")
    human.expect(r"3 waiting: >#1 \d+s  #2 \d+s  #3 \d+s")  # how long each has waited
    answer(human, "y")  # request #1 is on the screen
    for n, key in ((2, "n"), (3, "y")):
        human.expect(f"request #{n} ")
        human.expect(SHOWN)
        answer(human, key)
    results = [finish(a)[0] for a in agents]
    ran = [world.marker(f"m{n}").exists() for n in (1, 2, 3)]
    assert (results, ran) == ([0, 1, 0], [True, False, True])
    quit_watch(human)


def test_tab_moves_the_answer_to_the_next_request(world: World) -> None:
    human = watch(world)
    first = agent(world, touch(world, "first"))
    human.expect("request #1 ")
    second = agent(world, touch(world, "second"))
    human.expect("#2 waits too")
    human.send("\t")
    human.expect("request #2 ")
    human.expect(SHOWN)
    answer(human, "y")
    assert finish(second)[0] == 0
    human.expect("request #1 ")
    human.expect(SHOWN)
    answer(human, "n")
    assert finish(first)[0] == 1
    assert (world.marker("first").exists(), world.marker("second").exists()) == (False, True)
    quit_watch(human)


def test_agents_waiting_when_the_approver_is_killed_deny_and_never_run(world: World) -> None:
    human = watch(world)
    agents = [agent(world, touch(world, f"m{n}")) for n in (1, 2)]
    human.expect("#2 waits too")
    os.kill(human.pid, signal.SIGKILL)
    for a in agents:
        code, err = finish(a)
        assert code == 1
        assert "the approver went away before answering" in err
    assert not any(world.marker(f"m{n}").exists() for n in (1, 2))


def test_quitting_the_approver_denies_what_still_waits(world: World) -> None:
    human = watch(world)
    waiting = agent(world, touch(world, "m"))
    human.expect(SHOWN)
    quit_watch(human)
    code, err = finish(waiting)
    assert (code, world.marker("m").exists()) == (1, False)
    assert "the approver stopped before anyone answered" in err


def test_a_request_with_no_approver_is_denied_at_once_and_says_how_to_start_one(
    world: World,
) -> None:
    code, err = finish(agent(world, touch(world, "m")))
    assert code == 1
    assert "no approver is listening" in err
    assert "start `guard watch`" in err
    assert not world.marker("m").exists()


def test_a_stale_socket_file_is_replaced(world: World) -> None:
    for path in (world.request, world.control):
        stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        stale.bind(str(path))
        stale.close()  # the file stays, nobody listens: what a killed approver leaves
    human = watch(world)
    waiting = agent(world, touch(world, "m"))
    human.expect(SHOWN)
    answer(human, "y")
    assert finish(waiting)[0] == 0
    quit_watch(human)


def test_a_second_approver_refuses_to_start_while_one_runs(world: World) -> None:
    human = watch(world)
    second = pexpect.spawn(
        GUARD[0], [*GUARD[1:], "watch"], env=world.env, encoding="utf-8", timeout=30
    )
    second.expect("another `guard watch` \\(pid \\d+\\) is already answering")
    second.expect(pexpect.EOF)
    assert second.wait() == 1
    waiting = agent(world, touch(world, "m"))  # the first one still answers
    human.expect(SHOWN)
    answer(human, "y")
    assert finish(waiting)[0] == 0
    quit_watch(human)


def test_a_session_answer_covers_the_same_command_again_without_asking(world: World) -> None:
    human = watch(world)
    command = touch(world, "m")
    session = {"GUARD_SESSION": "agent-7"}
    first = agent(world, command, **session)
    human.expect(SHOWN)
    answer(human, "s")
    human.expect("allowed for this session")
    assert finish(first)[0] == 0
    world.marker("m").unlink()
    assert finish(agent(world, command, **session))[0] == 0  # nobody was asked this time
    assert world.marker("m").exists()
    human.expect(pexpect.TIMEOUT, timeout=0.5)
    assert "request #2" not in (human.before or "")
    quit_watch(human)


def test_an_agent_with_a_terminal_is_answered_by_the_approver_with_guard_approver_always(
    world: World,
) -> None:
    human = watch(world)
    command = touch(world, "m")
    check = shlex.join([*GUARD, "check", "--", command])
    env = {**world.env, "GUARD_APPROVER": "always"}
    pty_agent = pexpect.spawn(
        "bash", ["-c", f"{check} && {command}"], env=env, cwd=str(world.workspace),
        encoding="utf-8", timeout=30,
    )  # fmt: skip
    human.expect(SHOWN)
    pty_agent.send("y")  # typed into the agent's own terminal: answers nothing
    human.expect(pexpect.TIMEOUT, timeout=0.5)
    assert not world.marker("m").exists()
    answer(human, "y")
    pty_agent.expect(pexpect.EOF)
    assert (pty_agent.wait(), world.marker("m").exists()) == (0, True)
    quit_watch(human)


def test_guard_approve_and_deny_answer_through_the_control_socket(world: World) -> None:
    human = watch(world)
    allowed = agent(world, touch(world, "yes"))
    human.expect("request #1 ")
    denied = agent(world, touch(world, "no"))
    human.expect("#2 waits too")
    listed = subprocess.run(
        [*GUARD, "approve", "--list"], env=world.env, capture_output=True, text=True, check=True
    )
    assert "#1  waited" in listed.stdout and f"touch {world.marker('no')}" in listed.stdout
    for argv in (["approve", "1"], ["deny", "2"]):
        subprocess.run([*GUARD, *argv], env=world.env, capture_output=True, check=True)
    assert (finish(allowed)[0], finish(denied)[0]) == (0, 1)
    assert (world.marker("yes").exists(), world.marker("no").exists()) == (True, False)
    missing = subprocess.run(
        [*GUARD, "approve", "9"], env=world.env, capture_output=True, text=True
    )
    assert missing.returncode == 1
    assert "no request #9 is waiting" in missing.stderr
    quit_watch(human)


def test_an_answer_at_the_approver_is_one_row_of_the_audit_log(world: World) -> None:
    human = watch(world)
    waiting = agent(world, touch(world, "m"), GUARD_SESSION="audited")
    human.expect(SHOWN)
    answer(human, "y")
    finish(waiting)
    quit_watch(human)
    with Store.open() as store:
        (row,) = store.log("audited")
    assert (row.decision, row.how, row.command) == ("allow", "approver", touch(world, "m"))
    assert row.reasons == (f"ask: write {world.marker('m')} (touch) is outside the workspace",)
    detail = json.loads(row.detail)
    assert (detail["asked_by"], detail["key"], detail["request"]) == ("guard check", "y", 1)


def test_guard_log_keeps_its_columns_for_every_kind_of_row(world: World) -> None:
    human = watch(world)
    waiting = agent(world, touch(world, "m"), GUARD_SESSION="cols")
    human.expect(SHOWN)
    answer(human, "s")  # a session grant (a trust row) and the answer (an approver row)
    finish(waiting)
    waiting = agent(world, touch(world, "n"), GUARD_SESSION="a-much-longer-session-name")
    human.expect(SHOWN)
    subprocess.run([*GUARD, "deny", "2"], env=world.env, capture_output=True, check=True)
    finish(waiting)
    quit_watch(human)
    shown = subprocess.run([*GUARD, "log"], env=world.env, capture_output=True, text=True,
                           check=True).stdout.splitlines()  # fmt: skip
    rows = [line for line in shown if not line.startswith(" ")]
    assert [line.split()[2:4] for line in rows] == [
        ["deny", "approver-control"], ["allow", "approver"], ["trust", "grant"]]
    words = zip(rows, ("touch", "touch", "grant session"), strict=True)
    commands = [line.index(word) for line, word in words]
    assert len(set(commands)) == 1, shown
    sessions = [line.index(w) for line, w in zip(rows, ("a-much", "cols", "cols"), strict=True)]
    assert len(set(sessions)) == 1, shown
    as_json = subprocess.run([*GUARD, "log", "--json"], env=world.env, capture_output=True,
                             text=True, check=True).stdout.splitlines()  # fmt: skip
    fields = ["id", "time", "session", "cwd", "command", "decision", "reasons", "how", "detail"]
    assert [list(json.loads(line)) for line in as_json] == [fields] * 3


def test_guard_log_follow_streams_new_rows(world: World) -> None:
    follower = subprocess.Popen(
        [*GUARD, "log", "--follow"], env=world.env, stdout=subprocess.PIPE, text=True
    )
    try:
        human = watch(world)
        waiting = agent(world, touch(world, "m"), GUARD_SESSION="followed")
        human.expect(SHOWN)
        answer(human, "n")
        finish(waiting)
        quit_watch(human)
        seen = []
        assert follower.stdout is not None
        while not seen:
            line = follower.stdout.readline()
            if "followed" in line:
                seen.append(line.split()[2:4])
        assert seen == [["deny", "approver"]]
    finally:
        follower.send_signal(signal.SIGINT)
        follower.wait(timeout=10)


def test_a_sandboxed_agent_without_a_store_gets_its_session_approvals_from_the_approver(
    world: World,
) -> None:
    human = watch(world)
    command = touch(world, "m")
    sandboxed = {"GUARD_SESSION": "boxed", "GUARD_STATE_DIR": "/dev/null/guard"}  # unusable
    first = agent(world, command, **sandboxed)
    human.expect(SHOWN)
    answer(human, "s")
    code, err = finish(first)
    assert code == 0
    assert "approvals are not used for this line" in err  # it cannot read any store
    world.marker("m").unlink()
    assert finish(agent(world, command, **sandboxed))[0] == 0
    assert world.marker("m").exists()
    human.expect("allowed by session approval #1")  # answered without asking
    quit_watch(human)


def test_closing_the_approvers_terminal_denies_what_waits(world: World) -> None:
    human = watch(world)
    waiting = agent(world, touch(world, "m"))
    human.expect(SHOWN)
    human.close(force=False)  # the terminal window closes: SIGHUP
    code, err = finish(waiting)
    assert (code, world.marker("m").exists()) == (1, False)
    assert "the approver stopped before anyone answered" in err
    assert not world.request.exists()  # it cleaned up after itself


def test_on_a_dumb_terminal_nothing_is_redrawn_and_keys_still_answer(world: World) -> None:
    dumb = replace(world, env={**world.env, "TERM": "dumb"})
    human = watch(dumb)
    seen = io.StringIO()
    human.logfile_read = seen
    waiting = agent(world, touch(world, "m"))
    human.expect(SHOWN)
    answer(human, "y")
    human.expect("allowed once")
    assert finish(waiting)[0] == 0
    quit_watch(human)
    assert "request #1" in seen.getvalue()
    assert "\x1b" not in seen.getvalue()


def test_a_requested_line_cannot_redraw_the_approvers_screen(world: World) -> None:
    """A line holding escapes that clear the screen, retitle the window and move the cursor
    back is shown to the human escaped, as $'…' would write it, never sent raw."""
    dumb = replace(world, env={**world.env, "TERM": "dumb"})
    human = watch(dumb)
    seen = io.StringIO()
    human.logfile_read = seen
    line = touch(world, "m") + " # \x1b[2J\x1b]0;fine\a\rtouch harmless"
    waiting = agent(world, line)
    human.expect(SHOWN)
    answer(human, "n")
    human.expect("denied")
    assert finish(waiting)[0] == 1
    quit_watch(human)
    screen = seen.getvalue()
    assert "# \\e[2J\\e]0;fine\\x07\\rtouch harmless" in screen
    assert [raw for raw in ("\x1b", "\a", "\rtouch") if raw in screen] == [], screen


@pytest.mark.parametrize(("then", "ran", "said"), [
    ("\r", True, "allowed always"),  # `a`, the confirmation shows, Enter: the rule is written
    ("n", False, "denied by the human"),  # another answer instead
])  # fmt: skip
def test_always_at_the_approver_takes_a_confirming_enter(
    world: World, then: str, ran: bool, said: str
) -> None:
    human = watch(world)
    waiting = agent(world, touch(world, "m"))
    human.expect(SHOWN)
    answer(human, "a\r")  # a stray `a` and an Enter in flight with it: nothing is answered
    human.expect_exact("press Enter to confirm [a] always (user policy)")
    with pytest.raises(pexpect.TIMEOUT):
        human.expect("allowed|denied", timeout=1)
    assert waiting.poll() is None
    answer(human, then)
    human.expect(said)
    code, _ = finish(waiting)
    assert (code == 0, world.marker("m").exists()) == (ran, ran)
    policy = Path(world.env["GUARD_CONFIG"])
    assert (policy.exists() and 'action = "allow"' in policy.read_text()) is ran
    quit_watch(human)
