"""The approver's protocol and server: what a request may say, what the sockets accept, what an
answer grants, and the requesting side's view of every way an answer can fail to come.

A real approver runs in a thread of the test process on real Unix sockets in a temp directory;
requests are real `judge` verdicts of command lines that ask; answers come through the control
socket, as `guard approve` sends them.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from guard.asking.approver import Invalid, Lines, ask_message, encode, paths, read_ask
from guard.asking.approver_client import request_approval
from guard.asking.approver_queue import Event
from guard.asking.approver_server import Approver
from guard.asking.ask_result import Outcome
from guard.asking.confirmation import question_for
from guard.cli.decide_remote import control
from guard.verdict.judgement import Judgement, judge
from guard.verdict.store.store import Store


@dataclass
class Serving:
    approver: Approver
    env: dict[str, str]
    workspace: Path
    events: list[Event]
    changed: threading.Condition

    def wait_for(self, kind: str, count: int = 1) -> list[Event]:
        """Block until ``count`` events of ``kind`` happened (the server runs in a thread)."""
        with self.changed:
            self.changed.wait_for(
                lambda: len([e for e in self.events if e.kind == kind]) >= count, timeout=20
            )
            return [e for e in self.events if e.kind == kind]


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    runtime = Path(tempfile.mkdtemp(prefix="ga", dir="/tmp"))  # socket paths must stay short
    workspace = tmp_path / "ws"
    workspace.mkdir()
    yield {
        **os.environ,
        "GUARD_WORKSPACE": str(workspace),
        "GUARD_APPROVER_SOCKET": str(runtime / "approver.sock"),
        "GUARD_APPROVER_CONTROL": str(runtime / "control.sock"),
    }
    for child in runtime.iterdir():
        child.unlink()
    runtime.rmdir()


@contextmanager
def serving(env: dict[str, str], timeout: float = 30) -> Iterator[Serving]:
    """A real approver, started and run in a thread of its own (SQLite wants one thread)."""
    events: list[Event] = []
    changed = threading.Condition()
    started: list[Approver] = []
    ready, stop = threading.Event(), threading.Event()

    def seen(event: Event) -> None:
        with changed:
            events.append(event)
            changed.notify_all()

    def run() -> None:
        try:
            started.append(Approver.start(paths(env), timeout=timeout, on_event=seen, env=env))
        finally:
            ready.set()
        while not stop.is_set():
            started[0].step(0.02)
        started[0].close()

    thread = threading.Thread(target=run)
    thread.start()
    ready.wait()
    assert started, "the approver did not start"
    try:
        yield Serving(started[0], env, Path(env["GUARD_WORKSPACE"]), events, changed)
    finally:
        stop.set()
        thread.join()


def judged(env: dict[str, str], command: str, session: str = "s1") -> Judgement:
    result = judge(command, cwd=env["GUARD_WORKSPACE"], env=env, session=session)
    assert result.verdict.decision == "ask", result.verdict
    return result


def message_for(j: Judgement, env: dict[str, str], session: str = "s1") -> dict[str, object]:
    question, grants = question_for(j, env)
    return ask_message(
        session=session,
        command=j.projection.command,
        cwd=j.context.cwd,
        workspace=j.context.workspace,
        home=j.context.home,
        origin="test",
        question=question,
        grants=grants,
        asking=[d.request for d in j.verdict.decided if d.decision == "ask"],
        approvable=True,
    )


def exchange(path: str, *messages: object, raw: bytes = b"") -> list[object]:
    """Send messages (or raw bytes) on a socket; every reply until the server hangs up."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(20)
        sock.connect(path)
        if raw or messages:
            sock.sendall(raw + b"".join(encode(m) for m in messages))  # type: ignore[arg-type]
        lines, replies = Lines(), []
        while data := sock.recv(65536):
            replies += lines.feed(data)
        return replies


def ask_in_thread(
    j: Judgement, env: dict[str, str], session: str = "s1"
) -> tuple[threading.Thread, dict[str, Outcome]]:
    question, grants = question_for(j, env)
    result: dict[str, Outcome] = {}

    def go() -> None:
        result["outcome"] = request_approval(j, question, grants, session=session, env=env)

    thread = threading.Thread(target=go)
    thread.start()
    return thread, result


# ---- what a request may say ---------------------------------------------------------------------


def test_the_human_is_shown_what_the_grants_cover_not_the_requesters_labels(
    env: dict[str, str],
) -> None:
    j = judged(env, "cat /etc/hosts")
    message = message_for(j, env)
    for choice in message["choices"]:  # type: ignore[attr-defined]
        choice["label"] = "allow once"  # a lying requester: ignored
        choice["covers"] = ["nothing"]
    ask = read_ask(json.loads(encode(message)))
    shown = {c.key: (c.label, c.covers) for c in ask.question.choices}
    assert shown["y"] == ("allow once", ())
    assert shown["s"] == ("allow for this session", ("read /etc/hosts",))
    assert shown["a"] == ("always", ("read /etc/hosts",))
    assert shown["n"] == ("deny", ())


def test_a_command_survives_the_trip_byte_for_byte(env: dict[str, str]) -> None:
    command = "cat /etc/hosts # \udcff é \x1b[2K"
    ask = read_ask(json.loads(encode(message_for(judged(env, command), env))))
    assert ask.command == command


def broken(change: str) -> object:
    """A valid ask with one thing changed."""
    base: dict[str, object] = {
        "type": "ask", "protocol": 1, "session": "s", "command": "x", "cwd": "/w",
        "workspace": ["/w"], "home": "/h", "origin": "t", "timeout": 5, "marks": [[0, 1]],
        "lines": ["l"], "asking": [], "approvable": True,
        "choices": [
            {"key": "y", "scope": "once", "target": "", "grants": []},
            {"key": "s", "scope": "session", "target": "",
             "grants": [{"surface": "command", "pattern": "x", "access": None}]},
            {"key": "n", "scope": "deny", "target": "", "grants": []},
        ],
    }  # fmt: skip
    choices = base["choices"]
    assert isinstance(choices, list)
    changes = {
        "valid": lambda: None,
        "not an object": lambda: ["ask"],
        "another type": lambda: base.update(type="answer"),
        "another protocol": lambda: base.update(protocol=2),
        "no session": lambda: base.update(session=""),
        "no deny choice": lambda: choices.pop(),
        "two deny choices": lambda: choices.append({**choices[2], "key": "m"}),
        "a session answer that grants nothing": lambda: choices[1].update(grants=[]),
        "a once answer that grants something": lambda: choices[0].update(
            grants=choices[1]["grants"]
        ),
        "an always answer without a policy file": lambda: choices[1].update(scope="always"),
        "an unknown scope": lambda: choices[0].update(scope="forever"),
        "an unknown surface": lambda: choices[1]["grants"][0].update(surface="network"),
        "an unknown access": lambda: choices[1]["grants"][0].update(access="delete"),
        "an empty pattern": lambda: choices[1]["grants"][0].update(pattern=""),
        "a two-letter key": lambda: choices[0].update(key="yy"),
        "a shared key": lambda: choices[1].update(key="y"),
        "a timeout of zero": lambda: base.update(timeout=0),
        "a timeout of infinity": lambda: base.update(timeout=float("inf")),
        "a relative workspace": lambda: base.update(workspace=["w"]),
        "a mark that is not a span": lambda: base.update(marks=[[0, "1"]]),
        "a command that is not text": lambda: base.update(command=["rm", "-rf"]),
        "a request of an unknown surface": lambda: base.update(asking=[{"surface": "x"}]),
    }
    changes[change]()
    return base if change != "not an object" else ["ask"]


@pytest.mark.parametrize(
    "change",
    [
        "not an object", "another type", "another protocol", "no session",
        "an unknown scope", "an unknown surface", "an unknown access", "an empty pattern",
        "a timeout of zero", "a timeout of infinity",
        "a relative workspace", "a mark that is not a span", "a command that is not text",
        "a request of an unknown surface",
    ],
)  # fmt: skip
def test_a_request_that_does_not_follow_the_protocol_is_rejected(change: str) -> None:
    read_ask(broken("valid"))  # the base is valid: only the change can make it fail
    with pytest.raises(Invalid):
        read_ask(broken(change))


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"{not json}\n", "not JSON"),
        (b"\xff\xfe\n", "not JSON"),
        (b"x" * (4 << 20) + b"x", "longer than"),
    ],
)
def test_garbage_on_a_socket_is_a_protocol_error(data: bytes, problem: str) -> None:
    with pytest.raises(Invalid, match=problem):
        Lines().feed(data)


def test_messages_split_across_reads_are_put_back_together() -> None:
    lines = Lines()
    assert lines.feed(b'{"a": 1}\n{"b"') == [{"a": 1}]
    assert lines.feed(b": 2}\n") == [{"b": 2}]


# ---- the sockets --------------------------------------------------------------------------------


def test_both_sockets_are_readable_and_writable_by_their_owner_only(env: dict[str, str]) -> None:
    with serving(env):
        for name in ("GUARD_APPROVER_SOCKET", "GUARD_APPROVER_CONTROL"):
            mode = os.stat(env[name]).st_mode
            assert stat.S_ISSOCK(mode)
            assert stat.S_IMODE(mode) == 0o600
    assert not any(
        os.path.exists(env[n]) for n in ("GUARD_APPROVER_SOCKET", "GUARD_APPROVER_CONTROL")
    )


@pytest.mark.parametrize(
    "message",
    [
        {"type": "answer", "id": 1, "key": "y"},
        {"type": "deny", "id": 1},
        {"type": "list"},
        {"type": "approve", "id": 1},
        {"hello": "there"},
    ],
)
def test_the_request_socket_refuses_anything_but_a_question_and_logs_it(
    env: dict[str, str], message: dict[str, object]
) -> None:
    with serving(env) as s:
        replies = exchange(env["GUARD_APPROVER_SOCKET"], message)
        s.wait_for("refused")
    assert [r["type"] for r in replies] == ["refused"]  # type: ignore[index]
    assert "can only ask" in replies[0]["message"]  # type: ignore[index]
    with Store.open() as store:
        assert [(r.decision, r.how) for r in store.log()] == [("deny", "refused")]


def test_a_requester_that_tries_to_answer_its_own_question_is_denied(env: dict[str, str]) -> None:
    message = message_for(judged(env, "cat /etc/hosts"), env)
    with serving(env) as s:
        replies = exchange(
            env["GUARD_APPROVER_SOCKET"], message, {"type": "answer", "id": 1, "key": "y"}
        )
        s.wait_for("denied")
        assert s.approver.queue == []
    kinds = [r["type"] for r in replies]  # type: ignore[index]
    assert kinds == ["queued", "refused", "answer"]
    assert replies[2]["allowed"] is False  # type: ignore[index]


def test_another_users_process_is_refused_even_when_the_file_mode_lets_it_in(
    env: dict[str, str],
) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to connect as another user")
    with serving(env) as s:
        path = env["GUARD_APPROVER_SOCKET"]
        os.chmod(path, 0o666)
        os.chmod(os.path.dirname(path), 0o755)
        read, write = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover - the child reports through the pipe
            try:
                os.setuid(65534)
                replies: object = exchange(path)  # sends nothing: only reads the reply
            except Exception as exc:
                replies = repr(exc)
            os.write(write, json.dumps(replies).encode())
            os._exit(0)
        os.close(write)
        os.waitpid(child, 0)
        replies = json.loads(os.read(read, 65536))
        s.wait_for("refused")
    assert [r["type"] for r in replies] == ["refused"]
    assert "only its own user's" in replies[0]["message"]


# ---- answers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "allowed", "stored"),
    [
        ("y", True, []),
        ("s", True, [("session", "external_directory", "/etc/hosts")]),
        ("n", False, []),
    ],
)
def test_the_requester_gets_the_humans_answer_and_the_approver_stores_what_it_grants(
    env: dict[str, str], key: str, allowed: bool, stored: list[tuple[str, str, str]]
) -> None:
    j = judged(env, "cat /etc/hosts")
    with serving(env) as s:
        thread, result = ask_in_thread(j, env)
        (arrived,) = s.wait_for("arrived")
        assert control({"type": "answer", "id": arrived.id, "key": key}, env) == {"type": "done"}
        thread.join()
    outcome = result["outcome"]
    assert (outcome.allowed, outcome.choice, outcome.how) == (
        allowed, key if allowed else "", "approver-control"
    )  # fmt: skip
    with Store.open() as store:
        grants = [(a.scope, a.surface, a.pattern) for a in store.list_approvals("s1")]
    assert grants == stored


def test_a_request_the_sessions_approvals_cover_is_allowed_without_asking(
    env: dict[str, str],
) -> None:
    with Store.open() as store:
        store.grant(
            session="s1", scope="session", surface="external_directory", pattern="/etc/hosts",
            access="read", granted_by="human", command="cat /etc/hosts", now=time.time(),
        )  # fmt: skip
    j = judge("cat /etc/hosts", cwd=env["GUARD_WORKSPACE"], env=env, session="other")
    with serving(env) as s:
        replies = exchange(env["GUARD_APPROVER_SOCKET"], message_for(j, env, session="s1"))
        assert [e.kind for e in s.events] == ["allowed"]
    assert replies == [{"type": "answer", "id": 0, "allowed": True, "key": "", "how": "approval"}]


def test_another_sessions_approvals_do_not_count(env: dict[str, str]) -> None:
    with Store.open() as store:
        store.grant(
            session="s2", scope="session", surface="external_directory", pattern="/etc/hosts",
            access="read", granted_by="human", command="cat /etc/hosts", now=time.time(),
        )  # fmt: skip
    with serving(env, timeout=0.2) as s:
        replies = exchange(
            env["GUARD_APPROVER_SOCKET"], message_for(judged(env, "cat /etc/hosts"), env)
        )
        s.wait_for("denied")
    assert [r["type"] for r in replies] == ["queued", "answer"]  # type: ignore[index]


def test_always_for_the_project_is_not_offered_when_the_humans_side_does_not_trust_that_file(
    env: dict[str, str],
) -> None:
    project = Path(env["GUARD_WORKSPACE"]) / ".guard.toml"
    message = message_for(judged(env, "cat /etc/hosts"), env)  # no project file yet: p offered
    assert "p" in [c["key"] for c in message["choices"]]  # type: ignore[attr-defined]
    project.write_text('[[rules]]\nsurface = "command"\npattern = "*"\naction = "allow"\n')
    with serving(env) as s, socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(env["GUARD_APPROVER_SOCKET"])
        sock.sendall(encode(message))
        s.wait_for("arrived")
        listed = control({"type": "list"}, env)
        keys = [c["key"] for c in listed["requests"][0]["choices"]]  # type: ignore[index]
        refused = control({"type": "answer", "id": 1, "key": "p"}, env)
    assert "p" not in keys and "a" in keys
    assert "has no answer 'p'" in str(refused["message"])


def test_control_answers_name_what_is_wrong(env: dict[str, str]) -> None:
    with serving(env):
        assert control({"type": "list"}, env) == {"type": "list", "requests": []}
        assert "no request #4 is waiting" in str(control({"type": "deny", "id": 4}, env))
        assert "unknown request 'shutdown'" in str(control({"type": "shutdown"}, env))


# ---- the requesting side ----------------------------------------------------------------------


def test_with_no_approver_the_requester_is_denied_at_once_with_how_to_start_one(
    env: dict[str, str],
) -> None:
    j = judged(env, "cat /etc/hosts")
    question, grants = question_for(j, env)
    outcome = request_approval(j, question, grants, session="s1", env=env)
    assert (outcome.allowed, outcome.how) == (False, "no-approver")
    assert "no approver is listening on" in outcome.message
    assert "start `guard watch`" in outcome.message


def test_an_approver_that_hangs_up_without_answering_is_a_denial(env: dict[str, str]) -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(env["GUARD_APPROVER_SOCKET"])
    listener.listen(1)
    j = judged(env, "cat /etc/hosts")
    thread, result = ask_in_thread(j, env)
    conn, _ = listener.accept()
    conn.recv(65536)
    conn.close()
    listener.close()
    thread.join()
    outcome = result["outcome"]
    assert (outcome.allowed, outcome.how) == (False, "approver-gone")
    assert "went away before answering" in outcome.message


def test_an_approver_that_stops_denies_what_waits(env: dict[str, str]) -> None:
    j = judged(env, "cat /etc/hosts")
    with serving(env) as s:
        thread, result = ask_in_thread(j, env)
        s.wait_for("arrived")
    thread.join()
    outcome = result["outcome"]
    assert (outcome.allowed, outcome.how) == (False, "approver-stopped")
    assert "the approver stopped before anyone answered" in outcome.message


@pytest.mark.parametrize(
    ("setting", "mode"),
    [("", "auto"), ("auto", "auto"), ("always", "always"), ("ALWAYS", "always"),
     ("never", "never"), ("off", "never"), ("0", "never"), ("sometimes", "always")],
)  # fmt: skip
def test_guard_approver_chooses_where_a_question_goes(setting: str, mode: str) -> None:
    from guard.asking.confirmation import approver_mode

    assert approver_mode({"GUARD_APPROVER": setting}) == mode


def test_the_requester_cannot_choose_what_a_key_means_or_grants() -> None:
    """Red-team finding: a requester renamed `n` to an "always: write /**" answer. The approver
    now builds the answers itself from the requests that ask."""
    forged = broken("valid")
    assert isinstance(forged, dict)
    forged["choices"] = [
        {"key": "n", "scope": "always", "target": "user",
         "grants": [{"surface": "external_directory", "pattern": "/**", "access": "write"}]},
        {"key": "x", "scope": "deny", "target": "", "grants": []},
    ]  # fmt: skip
    ask = read_ask(forged)
    by_key = {c.key: c for c in ask.question.choices}
    assert by_key["n"].scope == "deny"
    assert "x" not in by_key and "p" not in by_key
    for granted in ask.grants.values():
        assert all(g.pattern not in ("/**", "/") for g in granted)


# ---- the machine's managed policy holds at the approver too ------------------------------------


def managed(env: dict[str, str], tmp_path: Path, text: str) -> dict[str, str]:
    """`env` with a managed policy file that the tests' user may own (GUARD_MANAGED_OWNER)."""
    etc = tmp_path / "etc" / "guard"
    etc.mkdir(parents=True)
    for d in (tmp_path, tmp_path / "etc", etc):
        d.chmod(0o755)
    path = etc / "policy.toml"
    path.write_text(text)
    path.chmod(0o644)
    return {**env, "GUARD_MANAGED_POLICY": str(path), "GUARD_MANAGED_OWNER": str(os.getuid())}


def offered(env: dict[str, str], command: str) -> list[str]:
    """The keys the approver offers for `command`'s question; it must queue it (no stored
    approval answers it), and it is denied when its short timeout runs out."""
    message = message_for(judged(env, command), env)
    with serving(env, timeout=0.5) as s, socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(env["GUARD_APPROVER_SOCKET"])
        sock.sendall(encode(message))
        assert s.wait_for("arrived"), "the approver answered without asking"
        listed = control({"type": "list"}, env)
        s.wait_for("denied")
    return [c["key"] for c in listed["requests"][0]["choices"]]  # type: ignore[index]


def test_a_request_the_managed_policy_asks_is_not_allowed_by_a_stored_approval(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rule = '[[rules]]\nsurface = "external_directory"\npattern = "/etc/hosts"\naction = "ask"\n'
    env = managed(env, tmp_path, rule)
    for name in ("GUARD_MANAGED_POLICY", "GUARD_MANAGED_OWNER"):
        monkeypatch.setenv(name, env[name])  # the approver's own side reads the machine's file
    with Store.open() as store:
        store.grant(
            session="s1", scope="session", surface="external_directory", pattern="/etc/hosts",
            access="read", granted_by="human", command="cat /etc/hosts", now=time.time(),
        )  # fmt: skip
    keys = offered(env, "cat /etc/hosts")  # asked, not allowed by the stored approval
    assert keys == ["y", "n"]  # only this once: an approval cannot answer the machine's ask


def test_lasting_answers_are_not_offered_when_the_managed_policy_turns_them_off(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = managed(env, tmp_path, "[approvals]\nalways = false\n")
    for name in ("GUARD_MANAGED_POLICY", "GUARD_MANAGED_OWNER"):
        monkeypatch.setenv(name, env[name])
    with Store.open() as store:
        store.grant(
            session=None, scope="always", surface="external_directory", pattern="/etc/hosts",
            access="read", granted_by="human", command="cat /etc/hosts", now=time.time(),
        )  # fmt: skip
    keys = offered(env, "cat /etc/hosts")  # the stored always approval is not used
    assert "a" not in keys and "p" not in keys and "s" in keys
