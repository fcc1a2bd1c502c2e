"""A store guard cannot use, met by every entry point: the line is judged by the policy alone,
the session is told once why its lines are not in the audit log, and where the managed policy
keeps an audit log no allowed line runs without its row.

Every store here is a real SQLite file broken the way disks and people break them — garbage
bytes, a truncated file, damage inside a file that still opens, a file nobody may open, a
directory where the file should be, a file where the state directory should be — and every
entry point is the installed program: guarded-bash -c, guard check, guard hook claude-code with
its JSON on stdin, the resident checker (`guard serve --user`) and the shell hooks' checker.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from guard.verdict.store.store import Store

BIN = Path(sys.executable).parent
GUARD = str(BIN / "guard")
SHIM = str(BIN / "guarded-bash")
WARNING = "guard: the audit log is not being written ("
REFUSED = "guard: refused: the managed policy keeps an audit log of every line"
ROOT_POWERS = "-dac_override,-dac_read_search,-fowner,-chown"  # as store_faults_test.py


def state_dir() -> Path:
    return Path(os.environ["GUARD_STATE_DIR"])


def filled(path: Path, rows: int = 300) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with Store.open(path) as store:
        for n in range(rows):
            store.grant(session=None, scope="always", surface="command", pattern=f"tool{n} *",
                        access=None, granted_by="human", command="x" * 200, now=1.0)  # fmt: skip
    return path


def garbage(db: Path) -> None:
    db.parent.mkdir(parents=True, exist_ok=True)
    db.write_bytes(random.Random(1).randbytes(20_000))
    db.chmod(0o600)


def truncated(db: Path) -> None:
    os.truncate(filled(db), 3 * 4096)


def damaged_inside(db: Path) -> None:
    """The first page is sound (the store opens), the pages after it are not."""
    data = bytearray(filled(db).read_bytes())
    data[4096:] = random.Random(2).randbytes(len(data) - 4096)
    db.write_bytes(bytes(data))


def no_permission(db: Path) -> None:
    filled(db, rows=1).chmod(0o000)


def directory(db: Path) -> None:
    db.mkdir(parents=True)


def state_is_a_file(db: Path) -> None:
    db.parent.parent.mkdir(parents=True, exist_ok=True)
    db.parent.write_text("not a directory\n")


FORMS: dict[str, tuple[Callable[[Path], None], str]] = {
    # how it is broken, and what the warning says of it
    "garbage": (garbage, "is damaged (file is not a database)"),
    "truncated": (truncated, "is damaged"),
    "damaged-inside": (damaged_inside, "is damaged (database disk image is malformed)"),
    "no-permission": (no_permission, "cannot open the approvals store"),
    "directory": (directory, "is a directory, not a file; move it aside"),
    "state-is-a-file": (state_is_a_file, "is a file, not a directory"),
}


def unprivileged() -> list[str]:
    """What runs a program that permission bits apply to (as root: without the capabilities
    that pass every check)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv is needed to drop root's file capabilities")
    return ["setpriv", "--bounding-set", ROOT_POWERS, "--"]


@pytest.fixture(params=sorted(FORMS))
def broken(request: pytest.FixtureRequest) -> tuple[str, list[str]]:
    """The store broken one way; what it says, and the prefix that runs an entry point."""
    breaker, says = FORMS[request.param]
    prefix = unprivileged() if request.param == "no-permission" else []
    breaker(state_dir() / "guard.db")
    return says, prefix


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    workspace = tmp_path / "work"
    workspace.mkdir()
    monkeypatch.setenv("GUARD_WORKSPACE", str(workspace))
    monkeypatch.delenv("BASH_ENV", raising=False)
    return workspace


def journal_socket() -> Path:
    """Where the managed policy's journald listens (a short path: sockets' must be)."""
    return Path(os.environ["XDG_RUNTIME_DIR"]) / "journal.sock"


def managed_audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A managed policy that sends every row to a journald socket too (`journal_socket`)."""
    etc = tmp_path / "etc"
    etc.mkdir(mode=0o755)
    managed = etc / "policy.toml"
    managed.write_text(f'[audit]\njournald = "{journal_socket()}"\n')
    managed.chmod(0o644)
    tmp_path.chmod(0o755)
    monkeypatch.setenv("GUARD_MANAGED_POLICY", str(managed))
    monkeypatch.setenv("GUARD_MANAGED_OWNER", str(os.getuid()))


def run(argv: list[str], work: Path, prefix: list[str], *, stdin: bytes | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*prefix, *argv], cwd=work, env={**os.environ, **(env or {})}, input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL, capture_output=True,
        timeout=120, check=False, start_new_session=True,
    )  # fmt: skip
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(),
                                       done.stderr.decode())  # fmt: skip


# Each entry point runs `ls`-like lines the shipped policy allows, in a session named by the test:
# (allowed, what it printed on stderr and in its answer, whether the line ran).
Entry = Callable[[str, Path, list[str]], tuple[bool, str, bool]]


def guarded_bash(session: str, work: Path, prefix: list[str]) -> tuple[bool, str, bool]:
    done = run([SHIM, "-c", "echo ran"], work, prefix, env={"GUARD_SESSION": session})
    return done.returncode == 0, done.stderr, done.stdout == "ran\n"


def guard_check(session: str, work: Path, prefix: list[str]) -> tuple[bool, str, bool]:
    done = run([GUARD, "check", "--session", session, "--", "ls"], work, prefix)
    return done.returncode == 0, done.stderr, done.returncode == 0


def claude_hook(session: str, work: Path, prefix: list[str]) -> tuple[bool, str, bool]:
    call = {"session_id": session, "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "ls"}, "cwd": str(work)}  # fmt: skip
    done = run([GUARD, "hook", "claude-code"], work, prefix, stdin=json.dumps(call).encode())
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    allowed, reason = answer["permissionDecision"] == "allow", answer["permissionDecisionReason"]
    for said in (WARNING, REFUSED):  # in the answer Claude Code shows, and on stderr
        assert (said in reason) == (said in done.stderr), done.stderr
    return allowed, reason, allowed


ENTRIES: dict[str, Entry] = {
    "guarded-bash": guarded_bash,
    "guard check": guard_check,
    "guard hook claude-code": claude_hook,
}


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_each_entry_point_tells_a_session_once_that_its_lines_are_not_audited(
    broken: tuple[str, list[str]], entry: str, work: Path
) -> None:
    says, prefix = broken
    line = ENTRIES[entry]
    allowed, said, ran = line("one", work, prefix)
    assert allowed and ran  # the policy allows it, and a store adds nothing to an allow
    assert said.count(WARNING) == 1, said
    assert says in said
    assert str(state_dir()) in said
    allowed, said, ran = line("one", work, prefix)
    assert allowed and ran
    assert WARNING not in said  # once per session, across its processes
    allowed, said, ran = line("two", work, prefix)
    assert allowed and ran
    assert said.count(WARNING) == 1  # another session is told too


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_under_a_managed_audit_log_no_allowed_line_runs_without_its_row(
    broken: tuple[str, list[str]], entry: str, work: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import socket

    managed_audit(tmp_path, monkeypatch)
    says, prefix = broken
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as journal:
        journal.bind(str(journal_socket()))
        journal.settimeout(10)
        for _ in range(2):  # and not only the session's first line
            allowed, said, ran = ENTRIES[entry]("one", work, prefix)
            assert not allowed and not ran
            assert said.count(REFUSED) == 1, said
            assert says in said and f"[audit] at {tmp_path / 'etc' / 'policy.toml'}:2" in said
            # the refusal's record: the system log the managed policy names (after the
            # allowed row, where a store that opened failed to take it: GUARD_AUDIT_ID=0)
            sent = journal.recv(1 << 16)
            if b"GUARD_HOW=unaudited\n" not in sent:
                assert b"GUARD_DECISION=allow\n" in sent and b"GUARD_AUDIT_ID=0\n" in sent
                sent = journal.recv(1 << 16)
            assert b"GUARD_DECISION=deny\n" in sent and b"GUARD_HOW=unaudited\n" in sent
            assert REFUSED.encode() in sent


def test_a_line_that_needs_an_approval_asks_and_says_none_can_be_kept(work: Path) -> None:
    garbage(state_dir() / "guard.db")
    done = run([GUARD, "check", "--session", "one", "--", "cat /etc/hostname"], work, [])
    assert done.returncode == 1  # nobody can be asked here: the ask ends in deny
    assert "approvals are not used for this line, and one given now cannot be kept" in done.stderr
    assert "guard: denied `cat /etc/hostname`" in done.stderr


def test_a_zero_length_store_is_a_new_store(work: Path) -> None:
    db = state_dir() / "guard.db"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"")
    db.chmod(0o600)
    done = run([SHIM, "-c", "echo ran"], work, [], env={"GUARD_SESSION": "one"})
    assert (done.returncode, done.stdout, done.stderr) == (0, "ran\n", "")
    with Store.open(db) as store:
        assert [row.command for row in store.log()] == ["echo ran"]


def test_a_store_that_breaks_later_in_a_session_is_told_on_its_next_line(work: Path) -> None:
    """guarded-bash writes a session's later rows from a forked child, after the line started:
    a row lost there is said by the session's next line."""
    db = state_dir() / "guard.db"
    for _ in range(2):
        assert guarded_bash("one", work, []) == (True, "", True)
    deadline = time.monotonic() + 10
    while len(_rows(db)) < 2:  # the second row comes from a forked child
        assert time.monotonic() < deadline, "the forked child wrote no row"
        time.sleep(0.05)
    garbage(db)
    # The line that meets the damage may see it itself (when it opens the store before it runs)
    # or lose its row in the forked child; either way the session is told once, by this line or
    # by the next one at the latest.
    allowed, first, ran = guarded_bash("one", work, [])
    assert allowed and ran
    deadline = time.monotonic() + 10
    while not any(word in "".join(p.read_text() for p in _state_files()) for word in KNOWN):
        assert time.monotonic() < deadline, "the forked child did not record the failure"
        time.sleep(0.05)
    allowed, second, ran = guarded_bash("one", work, [])
    assert allowed and ran and (first + second).count(WARNING) == 1
    db.unlink()  # moved aside: guard makes a new store, and the rows are written again
    assert guarded_bash("one", work, []) == (True, "", True)
    assert _rows(db) == ["echo ran"]


def _rows(db: Path) -> list[str]:
    with Store.open(db) as store:
        return [row.command for row in store.log()]


KNOWN = ("failed\n", "told\n")  # the damage is known: to be said, or said


def _state_files() -> list[Path]:
    folder = Path(os.environ["XDG_RUNTIME_DIR"]) / "guard" / "store-state"
    return list(folder.iterdir()) if folder.is_dir() else []


# -- the resident checker -----------------------------------------------------------------------


@pytest.fixture
def resident(monkeypatch: pytest.MonkeyPatch, work: Path) -> Iterator[Callable[[], int]]:
    """The per-user checker turned on and answering; `served()` counts its answers."""
    from guard.entry.resident import protocol as wire
    from guard.entry.resident.client import request

    monkeypatch.delenv("GUARD_RESIDENT")
    monkeypatch.setenv("GUARD_RESIDENT_IDLE", "60")

    def served() -> int:
        answer = request([("kind", "status")])
        return -1 if answer is None else int(wire.first(answer, "served") or "-1")

    try:
        run([GUARD, "check", "--", "true"], work, [])
        deadline = time.monotonic() + 30
        while served() < 0:
            assert time.monotonic() < deadline, "the checker did not start"
            time.sleep(0.05)
        yield served
    finally:
        answer = request([("kind", "stop")])
        pid = wire.first(answer, "pid") if answer else ""
        if pid.isdigit():
            deadline = time.monotonic() + 10
            while _alive(int(pid)) and time.monotonic() < deadline:
                time.sleep(0.05)
            if _alive(int(pid)):
                os.kill(int(pid), signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except OSError:
        return False


@pytest.mark.parametrize("form", ["garbage", "damaged-inside", "state-is-a-file"])
def test_the_resident_checker_tells_each_session_once_and_refuses_under_a_managed_log(
    resident: Callable[[], int], work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    form: str,
) -> None:
    breaker, says = FORMS[form]
    shutil.rmtree(state_dir())  # made by the checker's first line
    breaker(state_dir() / "guard.db")
    before = resident()
    for entry in (guard_check, guarded_bash, claude_hook):
        allowed, said, ran = entry(f"{entry.__name__}-1", work, [])
        assert allowed and ran and said.count(WARNING) == 1 and says in said
        allowed, said, ran = entry(f"{entry.__name__}-1", work, [])
        assert allowed and ran and WARNING not in said
    assert resident() == before + 6  # every answer came from the checker
    managed_audit(tmp_path, monkeypatch)
    for entry in (guard_check, guarded_bash, claude_hook):
        allowed, said, ran = entry(f"{entry.__name__}-1", work, [])
        assert not allowed and not ran and said.count(REFUSED) == 1
    assert resident() == before + 9


# -- guard doctor -------------------------------------------------------------------------------


def doctor_store_line(work: Path, prefix: list[str]) -> str:
    done = run([GUARD, "doctor"], work, prefix)
    assert done.returncode == 1
    (found,) = [ln for ln in done.stdout.splitlines() if ln.split()[1:2] == ["store"]]
    return found


def test_guard_doctor_names_the_broken_store_and_what_to_do(
    broken: tuple[str, list[str]], work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    says, prefix = broken
    found = doctor_store_line(work, prefix)
    assert found.startswith("problem  store   guard: ")
    assert says.split(";")[0] in found or "is damaged" in found
    assert str(state_dir()) in found and "aside (guard makes a new store)" in found
    assert "meanwhile no line is in the audit log" in found
    managed_audit(tmp_path, monkeypatch)
    found = doctor_store_line(work, prefix)
    assert "meanwhile every allowed line is refused (the managed policy's [audit]" in found


# -- the bash and zsh hooks (their checker, `guard serve`, and `guard check` behind it) ---------


@pytest.mark.pty
@pytest.mark.parametrize(
    "shell_name",
    ["bash", "zsh"],
)
@pytest.mark.parametrize("form", ["garbage", "damaged-inside", "state-is-a-file"])
def test_a_guarded_shell_is_told_once_and_refuses_under_a_managed_log(
    work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shell_name: str, form: str
) -> None:
    from shells import Shell, have

    if not have(shell_name):
        pytest.skip(f"{shell_name} is not installed")
    breaker, says = FORMS[form]
    breaker(state_dir() / "guard.db")
    shell = Shell(shell_name, work)
    try:
        out, status = shell.run("echo first")
        assert status == 0 and out.count(WARNING) == 1 and says in out, out
        assert out.splitlines()[-1] == "first"
        assert shell.run("echo second") == ("second", 0)  # told once
    finally:
        shell.close()
    managed_audit(tmp_path, monkeypatch)
    shell = Shell(shell_name, work)
    try:
        out, status = shell.run("touch ran")
        assert REFUSED in out and status != 0, out
        assert not (work / "ran").exists()
    finally:
        shell.close()


# -- every agent's hook ----------------------------------------------------------------------------


@pytest.mark.parametrize("agent", ["claude-code", "codex", "cursor", "gemini", "copilot", "cline",
                                   "opencode"])  # fmt: skip
def test_every_agents_hook_tells_its_session_once_and_denies_under_a_managed_log(
    work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    from agent_payloads import PAYLOADS, allowed

    garbage(state_dir() / "guard.db")
    call = json.dumps(PAYLOADS[agent]("ls", str(work))).encode()
    first = run([GUARD, "hook", agent], work, [], stdin=call)
    assert first.returncode == 0 and first.stderr.count(WARNING) == 1, first.stderr
    assert first.stdout.strip() == allowed(agent) or WARNING in first.stdout  # the reason says it
    second = run([GUARD, "hook", agent], work, [], stdin=call)
    assert (second.returncode, second.stdout.strip(), second.stderr) == (0, allowed(agent), "")
    managed_audit(tmp_path, monkeypatch)
    refused = run([GUARD, "hook", agent], work, [], stdin=call)
    assert refused.stdout.strip() != allowed(agent) or refused.returncode != 0
    assert REFUSED in refused.stderr


@pytest.mark.pty
def test_a_session_approval_given_at_the_question_says_it_was_not_kept(work: Path) -> None:
    import pexpect
    from shells import answer

    garbage(state_dir() / "guard.db")
    child = pexpect.spawn(GUARD, ["check", "--session", "one", "--", "cat /etc/hostname"],
                          cwd=str(work), encoding="utf-8", env={**os.environ, "TERM": "dumb"},
                          timeout=30)  # fmt: skip
    child.expect("one given now cannot be kept")
    child.expect("denies in")
    answer(child, "s")
    child.expect(pexpect.EOF)
    child.close()
    said = " ".join(child.before.split())
    assert "allowed once; the approval was not saved" in said
    assert child.exitstatus == 0  # the line itself was allowed, once
