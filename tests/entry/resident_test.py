"""The per-user resident checker (`guard serve --user`) with real processes: the same verdicts as
in-process, fresh policy, failures that fall back, sockets it must not trust, one instance.

Every test here turns the checker on (the suite's conftest turns it off), gives it a short idle
time, and stops it when the test ends; XDG_RUNTIME_DIR is the test's own directory.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from agent_payloads import PAYLOADS
from checkers import checker_pids

from guard.entry.resident import protocol as wire
from guard.entry.resident.client import check_arguments, request
from guard.entry.resident.server import CodeWatch, code_folders

BIN = Path(sys.executable).parent
GUARD = str(BIN / "guard")
SHIM = str(BIN / "guarded-bash")
ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("tree_sitter", "prompt_toolkit", "argparse", "sqlite3")
OUTSIDE = "echo x > ../outside-marker"  # asks (a write outside the workspace): refused here

# lines whose verdicts must come out the same through the checker: allow, ask, deny, unknown
LINES = (
    "ls -la",
    "cat /etc/hosts",
    "cat ~/.ssh/id_rsa",
    "rm -rf /",
    "echo $(cat /etc/passwd)",
    "x=/etc; cat $x/shadow",
    'bash -c \'eval "$1"\' _ "rm -rf ~"',
    "cat \"unterminated",
    "npm publish",
    "git status && make -C ../elsewhere",
    "cd /tmp && cat notes",
    "printf '%s\\n' \"$HOME\"",
)


def status() -> dict[str, str] | None:
    answer = request([("kind", "status")])
    if answer is None or wire.first(answer, "action") != "done":
        return None
    return {key: wire.text(value) for key, value in answer}


def served() -> int:
    now = status()
    assert now is not None, "the checker is not answering"
    return int(now["served"])


def wait_for(condition: object, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def run(argv: list[str], *, cwd: Path, env: dict[str, str] | None = None,
        stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        argv, cwd=cwd, env={**os.environ, **(env or {})}, input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL, capture_output=True,
        timeout=120, check=False, start_new_session=True,
    )  # fmt: skip


def check(line: str, cwd: Path, **env: str) -> tuple[int, bytes]:
    done = run([GUARD, "check", "--no-prompt", "--session", "t", "--", line], cwd=cwd, env=env)
    return done.returncode, done.stderr


@pytest.fixture
def work(tmp_path: Path) -> Path:
    workspace = tmp_path / "work" / "proj"
    workspace.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    return workspace


@pytest.fixture
def resident(monkeypatch: pytest.MonkeyPatch, work: Path) -> Iterator[str]:
    """The checker turned on, started and answering; stopped (and gone) after the test."""
    monkeypatch.delenv("GUARD_RESIDENT")
    monkeypatch.setenv("GUARD_RESIDENT_IDLE", "60")
    path = wire.socket_path(os.environ)
    try:
        run([GUARD, "check", "--", "true"], cwd=work)
        wait_for(lambda: status() is not None)
        yield path
    finally:
        request([("kind", "stop")])
        for pid in checker_pids(path):
            os.kill(pid, signal.SIGKILL)
        wait_for(lambda: not checker_pids(path))


def public_corpus() -> list[str]:
    """The shared public corpus beside the clone (../shared), when it is there."""
    for base in (ROOT.parent, ROOT.parent.parent):
        path = base / "shared" / "corpus" / "public.py"
        if path.is_file():
            spec = importlib.util.spec_from_file_location("public_corpus", path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return [case["cmd"] for case in module.C]
    pytest.skip("no shared/corpus/public.py beside the repository")


def substituted(line: str, work: Path, home: Path) -> str:
    return line.replace("{W}", str(work)).replace("{P}", str(work.parent)).replace("{H}", str(home))


def compare(lines: list[str], work: Path, **env: str) -> None:
    """Each line checked through the checker and in-process: the same status and messages."""
    before = served()
    with ThreadPoolExecutor(4) as pool:
        through = list(pool.map(lambda line: check(line, work, **env), lines))
        alone = list(pool.map(lambda line: check(line, work, GUARD_RESIDENT="0", **env), lines))
    assert served() == before + len(lines)  # every answer above came from the checker
    differ = [(line, a, b) for line, a, b in zip(lines, through, alone, strict=True) if a != b]
    assert differ == []
    assert {status for status, _ in alone} >= {0, 3}


def audit_rows() -> int:
    path = Path(os.environ["GUARD_STATE_DIR"]) / "guard.db"
    with sqlite3.connect(path) as con:
        return int(con.execute("SELECT count(*) FROM audit").fetchone()[0])


def test_the_public_corpus_gets_the_same_verdicts_through_the_checker(
    resident: str, work: Path, tmp_path: Path
) -> None:
    home = Path(os.environ["HOME"])
    for name in ("README.md", "input.txt", "notes.txt"):
        (work / name).write_text("")
    lines = [substituted(line, work, home) for line in public_corpus()]
    rows = audit_rows()
    compare(lines, work)
    status()  # answered after the last audit row was written
    assert audit_rows() == rows + 2 * len(lines)  # one row per call: none lost, none doubled


@pytest.mark.parametrize("agent", ["1", "0"])
def test_the_in_repo_lines_get_the_same_verdicts_for_agents_and_people(
    resident: str, work: Path, agent: str
) -> None:
    compare(list(LINES), work, GUARD_AGENT=agent)


def test_guarded_bash_runs_or_refuses_as_it_does_in_process(resident: str, work: Path) -> None:
    for line, status in (("echo hi", 0), (OUTSIDE, 126)):
        before = served()
        through = run([SHIM, "-c", line], cwd=work)
        assert served() == before + 1
        alone = run([SHIM, "-c", line], cwd=work, env={"GUARD_RESIDENT": "0"})
        assert (through.returncode, through.stdout) == (alone.returncode, alone.stdout)
        assert through.returncode == status
    done = run([SHIM, "-c", 'eval "$1"', "_", "cat /etc/shadow"], cwd=work)
    assert done.returncode == 126
    assert not (work.parent / "outside-marker").exists()


def test_a_policy_edit_is_seen_by_the_very_next_call(resident: str, work: Path) -> None:
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    rule = '[[rules]]\nsurface = "command"\npattern = "{}"\naction = "deny"\n'
    assert check("true", work)[0] == 0
    assert check("echo", work)[0] == 0
    for denied, allowed in (("true", "echo"), ("echo", "true"), ("true", "echo")):
        policy.write_text(rule.format(denied))  # the same size each time, often the same mtime
        before = served()
        assert check(denied, work)[0] == 1
        assert check(allowed, work)[0] == 0
        assert served() == before + 2
    policy.unlink()
    assert check("true", work)[0] == check("echo", work)[0] == 0


def test_a_checker_killed_mid_request_gives_the_in_process_verdict(
    resident: str, work: Path
) -> None:
    (pid,) = checker_pids(resident)
    os.kill(pid, signal.SIGSTOP)  # it accepts nothing more: the next request waits on it
    client = subprocess.Popen(
        [GUARD, "check", "--no-prompt", "--", "rm -rf /srv/x"], cwd=work,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    time.sleep(0.5)
    os.kill(pid, signal.SIGKILL)
    _, err = client.communicate(timeout=120)
    assert client.returncode == 3, err  # ask, as in-process: never allow


@pytest.mark.parametrize(
    "what", ["loose directory", "directory of another uid", "socket of another uid"]
)
def test_a_socket_that_is_not_private_and_ours_is_never_used(
    resident: str, work: Path, what: str
) -> None:
    directory = os.path.dirname(resident)
    if what != "loose directory" and os.getuid() != 0:
        pytest.skip("giving a file to another uid needs root")
    if what == "loose directory":
        os.chmod(directory, 0o755)
    elif what == "directory of another uid":
        os.chown(directory, 65534, -1)
    else:
        os.chown(resident, 65534, -1)
    try:
        assert check("rm -rf /srv/x", work)[0] == 3
        assert check("ls", work)[0] == 0
        assert status() is None  # the client refuses to talk to it at all
    finally:
        os.chmod(directory, 0o700)
        os.chown(directory, os.getuid(), -1)
        os.chown(resident, os.getuid(), -1)
    assert served() == 0  # neither of those lines reached it
    assert len(checker_pids(resident)) == 1  # and none was started beside it


def test_two_clients_starting_it_at_once_end_with_one_checker(
    monkeypatch: pytest.MonkeyPatch, work: Path
) -> None:
    monkeypatch.delenv("GUARD_RESIDENT")
    monkeypatch.setenv("GUARD_RESIDENT_IDLE", "30")
    path = wire.socket_path(os.environ)
    try:
        argv = [GUARD, "check", "--no-prompt", "--", "ls"]
        clients = [
            subprocess.Popen(argv, cwd=work, stdin=subprocess.DEVNULL, start_new_session=True)
            for _ in range(4)
        ]
        assert [c.wait(timeout=120) for c in clients] == [0] * 4
        wait_for(lambda: status() is not None)
        wait_for(lambda: len(checker_pids(path)) == 1)  # the others give up at the lock
        now = status()
        assert now is not None and [int(now["pid"])] == checker_pids(path)
        time.sleep(0.5)
        assert len(checker_pids(path)) == 1
    finally:
        request([("kind", "stop")])
        wait_for(lambda: not checker_pids(path))


def test_a_stale_socket_is_replaced_and_an_idle_checker_exits(
    monkeypatch: pytest.MonkeyPatch, work: Path
) -> None:
    import socket

    monkeypatch.delenv("GUARD_RESIDENT")
    monkeypatch.setenv("GUARD_RESIDENT_IDLE", "2")
    path = wire.socket_path(os.environ)
    os.makedirs(os.path.dirname(path), mode=0o700)
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(path)  # bound and never listened on: what a killed checker leaves
    dead.close()
    try:
        assert check("ls", work)[0] == 0  # refused: checked in-process, and a checker started
        wait_for(lambda: status() is not None)
        assert served() == 0
        wait_for(lambda: not checker_pids(path), seconds=30)  # idle for 2 s: gone
        assert not os.path.exists(path)
    finally:
        for pid in checker_pids(path):
            os.kill(pid, signal.SIGKILL)


def test_sigterm_and_serve_user_stop_end_it(resident: str, work: Path) -> None:
    (pid,) = checker_pids(resident)
    os.kill(pid, signal.SIGTERM)
    wait_for(lambda: not checker_pids(resident))
    assert not os.path.exists(resident)
    run([GUARD, "check", "--", "true"], cwd=work)
    wait_for(lambda: status() is not None)
    done = run([GUARD, "serve", "--user", "--stop"], cwd=work)
    assert b"stopped the resident checker" in done.stdout
    assert not checker_pids(resident)


def test_a_second_serve_user_says_a_checker_is_already_running(resident: str, work: Path) -> None:
    (pid,) = checker_pids(resident)
    done = run([GUARD, "serve", "--user"], cwd=work)
    assert (done.returncode, done.stdout) == (0, b"")
    assert done.stderr.decode() == (
        f"guard: a resident checker is already running (pid {pid}) on {resident}; nothing was "
        "started (`guard serve --user --stop` stops it)\n")
    assert checker_pids(resident) == [pid]


def test_doctor_shows_the_checker(resident: str, work: Path) -> None:
    (pid,) = checker_pids(resident)
    out = run([GUARD, "doctor"], cwd=work).stdout.decode()
    assert f"checker running, pid {pid}, socket {resident}, up " in out.replace("  ", " ")
    off = run([GUARD, "doctor"], cwd=work, env={"GUARD_RESIDENT": "0"}).stdout.decode()
    assert "off (GUARD_RESIDENT=0)" in off


def test_turned_off_nothing_starts(work: Path) -> None:
    assert check("ls", work)[0] == 0  # conftest: GUARD_RESIDENT=0
    assert not os.path.exists(wire.socket_path(os.environ))


# what the warm paths do without: pip's console-script wrapper imported re, typing came with
# guard's annotations, signal with enum (each costs every agent's line or hook call milliseconds)
LIGHT = ("re", "json", "typing", "enum", "dataclasses", "collections", "contextlib", "shlex",
         "signal")  # fmt: skip


@pytest.mark.parametrize(
    "argv",
    [
        [GUARD, "check", "--", "true"],
        [GUARD, "explain", "--json", "--", "true"],
        [SHIM, "-c", "true"],
        [GUARD, "hook", "claude-code"],
        *([GUARD, "hook", agent, "--timeout", "150"] for agent in PAYLOADS),
    ],
)
def test_the_fast_path_imports_nothing_heavy(resident: str, work: Path, argv: list[str]) -> None:
    """guard and guarded-bash are installed as plain scripts, which import guard and nothing
    else; answered by the checker, they import only the cheap part of the standard library.
    So are agents' hooks, the ones that hold calls for a human too (for `ls`, nobody asks)."""
    before = served()
    off = {"GUARD_ENFORCE": "off"}  # an enforced line is built and held in the client
    raw = json.dumps(PAYLOADS[argv[2]]("ls", str(work))).encode() if "hook" in argv else None
    stdin = raw
    done = run([sys.executable, "-X", "importtime", *argv], cwd=work, env=off, stdin=stdin)
    assert done.returncode == 0, done.stderr[-500:]
    assert served() == before + 1
    imported = {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()}
    assert not {m for m in imported if m.split(".")[0] in (*HEAVY, *LIGHT)}
    agents = {m for m in imported if m.startswith("guard.entry.agents.")}
    assert agents <= {"guard.entry.agents.registry", "guard.entry.agents.resident_hook"}, agents


@pytest.mark.parametrize("enforce", ["landlock", "off"])
def test_the_installed_guarded_bash_answered_by_the_checker_imports_only_the_cheap_stdlib(
    resident: str, work: Path, enforce: str
) -> None:
    before = served()
    done = run([sys.executable, "-X", "importtime", SHIM, "-c", "echo ran"], cwd=work,
               env={"GUARD_ENFORCE": enforce})  # fmt: skip
    assert (done.returncode, done.stdout) == (0, b"ran\n"), done.stderr[-500:]
    assert served() == before + 1  # the checker answered it
    imported = {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()}
    assert "guard.entry.shim.guarded_bash" in imported
    assert not {m for m in imported if m.split(".")[0] in (*HEAVY, *LIGHT)}


# argv that the fast path reads, and how argparse reads the same (None: left to argparse)
ARGUMENTS = [
    (["check", "--", "ls", "-l"], ({}, ["ls", "-l"])),
    (["check", "--no-prompt", "--", "a b"], ({"--no-prompt": ""}, ["a b"])),
    (["check", "--session", "s", "--cwd=/x", "--", "ls"], ({"--session": "s", "--cwd": "/x"}, ["ls"])),  # noqa: E501
    (["check", "--session=", "--", "ls"], ({"--session": ""}, ["ls"])),
    (["check", "ls"], None),
    (["check", "--json", "--", "ls"], None),
    (["check", "--", "a", "--", "b"], None),
    (["check", "--ses", "s", "--", "ls"], None),
    (["check", "--session", "--", "ls"], None),
    (["check", "--"], None),
    (["check", "-h", "--", "ls"], None),
    (["explain", "--", "ls"], None),
]


@pytest.mark.parametrize(("argv", "expected"), ARGUMENTS)
def test_check_arguments_are_read_as_argparse_reads_them(
    argv: list[str], expected: tuple[dict[str, str], list[str]] | None
) -> None:
    assert check_arguments(argv) == expected
    if expected is None:
        return
    import argparse

    from guard.cli import check as check_cli

    parser = argparse.ArgumentParser()
    check_cli.add_parser(parser.add_subparsers())
    args = parser.parse_args(argv)
    options, words = expected
    assert (args.session, args.cwd, args.no_prompt, args.command) == (
        options.get("--session"), options.get("--cwd"), "--no-prompt" in options, words,
    )  # fmt: skip


def test_messages_of_another_version_are_refused() -> None:
    message = wire.encode([("kind", "status")])
    assert wire.decode(message[4:]) == [("kind", b"status")]
    other = message.replace(b"\0\0\0\x011", b"\0\0\0\x012")
    with pytest.raises(wire.ResidentProtocolError):
        wire.decode(other[4:])
    with pytest.raises(wire.ResidentProtocolError):
        wire.decode(message[4:-2])


def test_fields_encoded_once_are_sent_as_if_they_were_pairs() -> None:
    grants = wire.fields([("grant", "read /usr"), ("grant", "write /w")])
    message = wire.encode([("status", "0"), (wire.ENCODED, grants), ("stderr", "")])
    assert wire.decode(message[4:]) == [
        ("status", b"0"), ("grant", b"read /usr"), ("grant", b"write /w"), ("stderr", b""),
    ]  # fmt: skip


def test_the_hook_reads_as_much_input_as_the_hook_does() -> None:
    from guard.entry.agents.core import MAX_INPUT
    from guard.entry.agents.resident_hook import MAX_HOOK_INPUT

    assert MAX_HOOK_INPUT == MAX_INPUT


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler here")
def test_the_native_launcher_asks_the_checker_itself_and_runs_bash_on_allow(
    resident: str, work: Path, tmp_path: Path
) -> None:
    """The launcher speaks the protocol: an allowed `-c` line runs bash with no Python at all;
    anything else goes on to guarded-bash, which gives its own verdict and message."""
    subprocess.run([GUARD, "install-shell", "--dir", str(tmp_path / "bin")], check=True,
                   capture_output=True, timeout=120)  # fmt: skip
    launcher = str(tmp_path / "bin" / "bash")
    rows = audit_rows()
    cases = [
        (["-c", 'echo "$0|$1|$2"', "zero", "one", "two"], 0, 1),
        (["-c", 'echo "$0"'], 0, 1),
        (["-c", OUTSIDE], 126, 2),  # ask: guarded-bash asks the checker again
        (["-c", 'eval "$1"', "_", "cat /etc/shadow"], 126, 2),
    ]
    off = {"GUARD_ENFORCE": "off"}  # enforced lines go on to guarded-bash (see below)
    for args, expected, asked in cases:
        before = served()
        through = run([launcher, *args], cwd=work, env=off)
        assert served() == before + asked
        alone = run([launcher, *args], cwd=work, env={"GUARD_RESIDENT": "0", **off})
        assert (through.returncode, through.stdout, through.stderr) == (
            alone.returncode, alone.stdout, alone.stderr,
        )  # fmt: skip
        assert through.returncode == expected
    status()
    assert audit_rows() == rows + 2 * len(cases)  # one row each, whoever answered
    assert not (work.parent / "outside-marker").exists()


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler here")
def test_an_allowed_line_through_the_native_launcher_starts_no_python(
    resident: str, work: Path, tmp_path: Path
) -> None:
    from guard.entry.shim.launcher import native_source

    (tmp_path / "launcher.c").write_text(native_source(str(tmp_path / "no-guarded-bash")))
    launcher = str(tmp_path / "bash")
    subprocess.run(["cc", "-O2", "-o", launcher, str(tmp_path / "launcher.c")], check=True,
                   timeout=120)  # fmt: skip
    off = {"GUARD_ENFORCE": "off"}
    done = run([launcher, "-c", "echo ran"], cwd=work, env=off)
    assert (done.returncode, done.stdout) == (0, b"ran\n")  # guarded-bash is not even there
    # an agent's line, enforced by default: the launcher holds it to the checker's ruleset
    # itself (still no guarded-bash), and what the projection cannot see is stopped
    from guard.kernel.line_hold import probe

    if probe()[0] is not None:
        home = Path(os.environ["HOME"])
        (home / ".bashrc").write_text("# mine\n")
        (work / "helper.sh").write_text('#!/bin/sh\necho pwned >> "$HOME/.bashrc"\necho ok\n')
        (work / "helper.sh").chmod(0o755)
        held = run([launcher, "-c", "./helper.sh"], cwd=work)
        assert held.returncode == 0 and held.stdout == b"ok\n", held.stderr
        assert b"Permission denied" in held.stderr
        assert (home / ".bashrc").read_text() == "# mine\n"
    refused = run([launcher, "-c", OUTSIDE], cwd=work)
    assert refused.returncode == 126
    assert b"cannot start" in refused.stderr  # not allowed: on to guarded-bash, which is missing
    off = run([launcher, "-c", "echo ran"], cwd=work, env={"GUARD_RESIDENT": "0"})
    assert off.returncode == 126


def test_explain_json_is_the_same_through_the_checker(resident: str, work: Path) -> None:
    for line in LINES:
        argv = [GUARD, "explain", "--json", "--session", "t", "--", line]
        before = served()
        through = run(argv, cwd=work)
        assert served() == before + 1
        alone = run(argv, cwd=work, env={"GUARD_RESIDENT": "0"})
        assert (through.returncode, through.stdout, through.stderr) == (
            alone.returncode, alone.stdout, alone.stderr,
        )  # fmt: skip
        assert json.loads(through.stdout)["decision"] in ("allow", "ask", "deny")


def test_without_a_runtime_dir_the_socket_is_in_the_state_dir(
    monkeypatch: pytest.MonkeyPatch, work: Path
) -> None:
    monkeypatch.delenv("GUARD_RESIDENT")
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setenv("GUARD_RESIDENT_IDLE", "30")
    path = wire.socket_path(os.environ)
    assert path == os.path.join(os.environ["GUARD_STATE_DIR"], "run", "checker.sock")
    try:
        assert check("ls", work)[0] == 0
        wait_for(lambda: status() is not None)
        assert os.stat(os.path.dirname(path)).st_mode & 0o777 == 0o700
        assert check("cat /etc/shadow", work)[0] == 3
        assert served() == 1
    finally:
        request([("kind", "stop")])
        wait_for(lambda: not checker_pids(path))


# A checker that allows everything, speaking `version`, listening as `uid`: a client must never
# take its word (the socket file is the user's own and private, as a real checker's is).
FAKE = """
import os, socket, sys
path, uid, version = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
def field(b): return len(b).to_bytes(4, "big") + b
listener = socket.socket(socket.AF_UNIX)
listener.bind(path)
if uid != os.getuid():
    os.setuid(uid)  # the peer's credentials are those of whoever calls listen()
listener.listen(8)
print("ready", flush=True)
while True:
    conn, _ = listener.accept()
    try:  # a client that will not talk to it hangs up at once
        size = int.from_bytes(conn.recv(4), "big")
        while size > 0:
            size -= len(conn.recv(min(size, 1 << 16))) or size
        body = b"".join(field(x) for x in (b"v", version, b"action", b"done", b"status", b"0"))
        conn.sendall(len(body).to_bytes(4, "big") + body)
    except OSError:
        pass
    conn.close()
"""


@pytest.mark.parametrize("peer", ["another version", "another uid"])
def test_an_answer_from_a_checker_that_is_not_ours_is_never_taken(
    monkeypatch: pytest.MonkeyPatch, work: Path, peer: str
) -> None:
    if peer == "another uid" and os.getuid() != 0:
        pytest.skip("listening as another uid needs root")
    monkeypatch.delenv("GUARD_RESIDENT")
    path = wire.socket_path(os.environ)
    os.makedirs(os.path.dirname(path), mode=0o700)
    uid, version = (os.getuid(), "2") if peer == "another version" else (65534, wire.VERSION)
    fake = subprocess.Popen([sys.executable, "-c", FAKE, path, str(uid), version],
                            stdout=subprocess.PIPE, start_new_session=True)  # fmt: skip
    try:
        assert fake.stdout is not None and fake.stdout.readline() == b"ready\n"
        assert os.stat(path).st_uid == os.getuid()
        assert check("rm -rf /srv/x", work)[0] == 3  # what in-process says, not the fake's allow
        assert fake.poll() is None
        assert run([SHIM, "-c", OUTSIDE], cwd=work).returncode == 126
        if shutil.which("cc"):
            bin_dir = work.parent / "bin"
            subprocess.run([GUARD, "install-shell", "--dir", str(bin_dir)], check=True,
                           capture_output=True, timeout=120)  # fmt: skip
            assert run([str(bin_dir / "bash"), "-c", OUTSIDE], cwd=work).returncode == 126
        assert not (work.parent / "outside-marker").exists()
        assert fake.poll() is None  # it was there to answer every one of them
    finally:
        fake.kill()
        fake.wait()


def test_the_checker_follows_a_store_that_was_moved_away(resident: str, work: Path) -> None:
    """It keeps the store open, but a store file moved aside (or replaced) is let go: the
    next row goes to the file at the store's path, as a fresh process would write it."""
    assert check("ls", work)[0] == 0
    status()
    db = Path(os.environ["GUARD_STATE_DIR"]) / "guard.db"
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{db}{suffix}").exists():
            Path(f"{db}{suffix}").rename(f"{db}{suffix}.old")
    before = served()
    assert check("ls", work)[0] == 0
    assert served() == before + 1
    status()
    assert audit_rows() == 1


def test_a_client_of_another_guard_install_is_told_to_check_in_process(
    resident: str, work: Path
) -> None:
    env = [("env", f"{k}={v}") for k, v in os.environ.items()]
    base = [("kind", "check"), ("text", "ls"), ("getcwd", str(work)), *env]
    other = request([*base, ("package", "/elsewhere/guard")])
    assert other is not None and wire.first(other, "action") == "fallback"
    ours = request([*base, ("package", wire.package_dir())])
    assert ours is not None and wire.first(ours, "action") == "done"


def test_an_enforced_line_answered_by_the_checker_runs_held_to_its_ruleset(
    resident: str, work: Path
) -> None:
    """The checker plans the Landlock ruleset of an agent's allowed line and guarded-bash holds
    the line to it before bash starts: a helper the projection cannot see is stopped."""
    from guard.kernel.line_hold import probe

    abi, why_not = probe()
    if abi is None:
        pytest.skip(f"no Landlock here: {why_not}")
    home = Path(os.environ["HOME"])
    (home / ".bashrc").write_text("# mine\n")
    helper = work / "helper.sh"
    helper.write_text('#!/bin/sh\necho pwned >> "$HOME/.bashrc"\necho made > out.txt\n')
    helper.chmod(0o755)
    before = served()
    done = run([SHIM, "-c", "./helper.sh"], cwd=work, env={"GUARD_AGENT": "1"})
    assert served() == before + 1  # answered by the checker, not in-process
    assert b"Permission denied" in done.stderr
    assert (home / ".bashrc").read_text() == "# mine\n"
    assert (work / "out.txt").read_text() == "made\n"  # the workspace stays writable


def test_claude_codes_hook_is_answered_by_the_checker_as_in_process(
    resident: str, work: Path
) -> None:
    """An agent whose own prompt shows an ask: the checker gives the same answer the hook gives
    alone (no call is ever held for it); input that names no directory is answered alone."""
    for line in ("ls", "cat /etc/hosts", "rm -rf build", "echo x > .git/hooks/pre-commit"):
        raw = json.dumps({
            "session_id": "cc", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": line}, "cwd": str(work),
        }).encode()  # fmt: skip
        before = served()
        through = run([GUARD, "hook", "claude-code"], cwd=work, stdin=raw)
        assert served() == before + 1
        alone = run([GUARD, "hook", "claude-code"], cwd=work, stdin=raw,
                    env={"GUARD_RESIDENT": "0"})  # fmt: skip
        assert (through.returncode, through.stdout) == (alone.returncode, alone.stdout), line
    held = run([GUARD, "hook", "codex"], cwd=work, stdin=raw)  # codex's asks are held: alone
    assert held.returncode == 0


@pytest.mark.parametrize("agent", sorted(PAYLOADS))
def test_every_agents_hook_is_answered_by_the_checker_as_in_process(
    resident: str, work: Path, agent: str
) -> None:
    """As `guard setup` writes it (`--timeout 150`): what needs no human, the checker answers,
    with the answer the hook gives alone; a call held for a human (here: denied at once, no
    approver listens) comes back to the hook, which answers it in its own process."""
    argv = [GUARD, "hook", agent, "--timeout", "150"]
    for line in ("ls", "rm -rf /", "cat /etc/hosts", "echo x > .git/hooks/pre-commit"):
        raw = json.dumps(PAYLOADS[agent](line, str(work))).encode()
        before = served()
        through = run(argv, cwd=work, stdin=raw)
        assert served() == before + 1, line  # asked (a held call is then answered alone)
        alone = run(argv, cwd=work, stdin=raw, env={"GUARD_RESIDENT": "0"})
        assert (through.returncode, through.stdout) == (alone.returncode, alone.stdout), line
        assert through.stdout.decode().strip() or agent in ("codex", "copilot"), line


def test_a_change_of_guards_code_is_seen_by_the_very_next_question(tmp_path: Path) -> None:
    """The checker asks before each answer whether its code changed (then it hands the line
    back and stops): a module written in place, touched, added, removed, or a new subpackage."""
    package = tmp_path / "guard"
    (package / "cli").mkdir(parents=True)
    (package / "knowledge" / "commands").mkdir(parents=True)
    (package / "a.py").write_text("A = 1\n")
    for sub in ("cli", "knowledge", "knowledge/commands"):
        (package / sub / "__init__.py").write_text("")

    def folders() -> tuple[str, ...]:
        return code_folders(str(package))  # what the checker watches: subpackages at any depth

    assert str(package / "knowledge" / "commands") in folders()
    changes = [
        lambda: (package / "a.py").write_text("A = 2\n"),  # in place: the folder is unchanged
        lambda: os.utime(package / "a.py", ns=(0, 10**9)),
        lambda: (package / "b.py").write_text(""),
        lambda: (package / "a.py").unlink(),
        lambda: (package / "cli" / "c.py").write_text(""),
        lambda: (package / "knowledge" / "commands" / "tools.py").write_text(""),  # depth 2
        lambda: (package / "new").mkdir() or (package / "new" / "__init__.py").write_text(""),
    ]
    for change in changes:
        watch = CodeWatch(folders)
        assert not watch.changed()
        (package / "notes.txt").write_text("not code")  # reported, compared, unchanged
        assert not watch.changed()
        change()
        assert watch.changed()
        assert watch.changed()  # and it stays changed
        if not (package / "a.py").exists():
            (package / "a.py").write_text("A = 1\n")


def test_the_fast_path_knows_every_agent_and_reads_the_hooks_arguments_as_argparse_does() -> None:
    from guard.entry.agents.protocols import PROTOCOLS
    from guard.entry.agents.resident_hook import AGENTS, hook_arguments

    assert frozenset(PROTOCOLS) == AGENTS
    assert hook_arguments(["hook", "codex", "--timeout", "150"]) == ("codex", "150")
    assert hook_arguments(["hook", "cline", "--timeout=30"]) == ("cline", "30")
    assert hook_arguments(["hook", "gemini"]) == ("gemini", None)
    for other in (["hook", "codex", "--timeout"], ["hook", "codex", "--timeout", "soon"],
                  ["hook", "nobody"], ["hook", "codex", "-h"], ["hook"]):  # fmt: skip
        assert hook_arguments(other) is None, other
