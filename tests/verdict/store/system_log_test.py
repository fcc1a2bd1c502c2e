"""Audit rows also reach the system log: real Unix datagram sockets that the tests bind in place
of journald's socket and of /dev/log, the real `guard` CLI, the real store."""

from __future__ import annotations

import array
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from guard.verdict.store import system_log
from guard.verdict.store.schema import AuditRow
from guard.verdict.store.store import Store

GUARD = [sys.executable, "-m", "guard"]
MULTI_LINE = "printf '%s\\n' 'first line\nsecond line' > /etc/motd"


@pytest.fixture
def sockets() -> Iterator[Path]:
    short = Path(tempfile.mkdtemp(prefix="gsl"))  # socket paths must stay under 108 bytes
    yield short
    shutil.rmtree(short, ignore_errors=True)


def listen(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(10)
    return sock


def user_policy(text: str) -> None:
    path = Path(os.environ["GUARD_CONFIG"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def check(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GUARD_SESSION": "audit-test"}
    return subprocess.run([*GUARD, "check", "--no-prompt", "--", line], cwd=cwd, env=env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)


def parse_journal(data: bytes) -> dict[str, str]:
    """journald's native format, read back as journald reads it."""
    fields: dict[str, str] = {}
    at = 0
    while at < len(data):
        end = data.index(b"\n", at)
        line = data[at:end]
        if b"=" in line:
            name, value = line.split(b"=", 1)
            at = end + 1
        else:
            name = line
            size = int.from_bytes(data[end + 1:end + 9], "little")
            value = data[end + 9:end + 9 + size]
            assert data[end + 9 + size:end + 10 + size] == b"\n"
            at = end + 10 + size
        fields[name.decode()] = value.decode("utf-8", "surrogateescape")
    return fields


SYSLOG = re.compile(
    r"<(?P<pri>\d+)>1 (?P<stamp>\S+) (?P<host>\S+) (?P<app>\S+) (?P<pid>\d+) (?P<msgid>\S+) "
    r"\[(?P<sdid>\S+) (?P<params>(?:[a-z]+=\"(?:[^\"\\\]]|\\.)*\" ?)+)\] (?P<msg>.*)",
    re.DOTALL,
)


def parse_params(text: str) -> dict[str, str]:
    found = re.findall(r'([a-z]+)="((?:[^"\\\]]|\\.)*)"', text, re.DOTALL)
    return {name: re.sub(r"\\(.)", r"\1", value, flags=re.DOTALL) for name, value in found}


def test_a_verdict_reaches_journald_with_its_fields(sockets: Path, tmp_path: Path) -> None:
    journal = listen(sockets / "journal.sock")
    user_policy(f'[audit]\njournald = "{sockets / "journal.sock"}"\n')
    done = check(MULTI_LINE, tmp_path)
    assert done.returncode == 3, done.stderr  # asks: a write outside the workspace
    assert "cannot send" not in done.stderr
    fields = parse_journal(journal.recv(65536))
    assert fields["SYSLOG_IDENTIFIER"] == "guard"
    assert fields["GUARD_DECISION"] == "ask"
    assert fields["GUARD_COMMAND"] == MULTI_LINE  # the newline kept: the length-prefixed form
    assert fields["GUARD_CWD"] == str(tmp_path)
    assert fields["GUARD_SESSION"] == "audit-test"
    assert "write /etc/motd (redirect) is outside the workspace" in fields["GUARD_REASONS"]
    assert fields["PRIORITY"] == "5"
    assert fields["MESSAGE"] == "guard: ask: " + MULTI_LINE.replace("\n", "\\n")
    assert json.loads(fields["GUARD_DETAIL"]) == {"origin": "guard check"}
    with Store.open() as store:  # and the local row, with the same id
        (row,) = store.log()
    assert row.command == MULTI_LINE
    assert fields["GUARD_AUDIT_ID"] == str(row.id)


def test_a_verdict_reaches_syslog_in_rfc5424(sockets: Path, tmp_path: Path) -> None:
    devlog = listen(sockets / "log")
    user_policy(f'[audit]\nsyslog = "{sockets / "log"}"\n')
    line = 'echo "a]b\\"c" && ' + MULTI_LINE
    check(line, tmp_path)
    text = devlog.recv(65536).decode("utf-8")
    found = SYSLOG.fullmatch(text)
    assert found, text
    assert int(found["pri"]) == 10 * 8 + 5  # authpriv.notice
    assert found["app"] == "guard" and found["msgid"] == "ask"
    assert found["sdid"] == "guard@32473"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", found["stamp"])
    params = parse_params(found["params"])
    assert params["command"] == line
    assert params["decision"] == "ask"
    assert params["cwd"] == str(tmp_path)
    assert params["session"] == "audit-test"
    assert "\n" not in found["msg"]
    assert found["msg"] == "guard: ask: " + line.replace("\n", "\\n")


def test_a_missing_socket_warns_once_and_keeps_the_local_row(
    sockets: Path, tmp_path: Path
) -> None:
    user_policy(f'[audit]\njournald = "{sockets / "gone.sock"}"\n')
    code = textwrap.dedent("""
        import time
        from guard.verdict.store.store import Store
        with Store.open() as store:
            for n in range(3):
                store.record(time=time.time(), session="s", cwd="/", command=f"ls {n}",
                             decision="allow", reasons=(), how="rule")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0
    warnings = done.stderr.splitlines()
    assert len(warnings) == 1, done.stderr
    assert warnings[0].startswith(
        f"guard: cannot send the audit log to journald at {sockets / 'gone.sock'} "
        "(No such file or directory); it is kept in the local store only (`guard log`)")
    with Store.open() as store:
        assert [r.command for r in store.log()] == ["ls 2", "ls 1", "ls 0"]
    shown = subprocess.run([*GUARD, "log"], capture_output=True, text=True, check=True).stdout
    assert "ls 2" in shown


def test_the_managed_policy_can_force_the_audit_on(
    sockets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = listen(sockets / "journal.sock")
    etc = tmp_path / "etc"
    etc.mkdir(mode=0o755)
    managed = etc / "policy.toml"
    managed.write_text(f'[audit]\njournald = "{sockets / "journal.sock"}"\n')
    managed.chmod(0o644)
    tmp_path.chmod(0o755)
    monkeypatch.setenv("GUARD_MANAGED_POLICY", str(managed))
    monkeypatch.setenv("GUARD_MANAGED_OWNER", str(os.getuid()))
    user_policy("[audit]\njournald = false\n")  # the user would rather not
    ws = tmp_path / "ws"
    ws.mkdir()
    assert check("ls", ws).returncode == 0
    fields = parse_journal(journal.recv(65536))
    assert (fields["GUARD_DECISION"], fields["GUARD_COMMAND"]) == ("allow", "ls")
    assert fields["PRIORITY"] == "6"


def test_a_row_too_large_for_a_datagram_goes_as_a_sealed_memfd(sockets: Path) -> None:
    journal = listen(sockets / "journal.sock")
    command = "echo " + "x" * 400_000 + "\nls"
    event = AuditRow(7, time.time(), "s", "/w", command, "deny", ("deny: big",), "rule", "")
    system_log.send(event, (system_log.Target("journald", str(journal.getsockname())),))
    data, ancillary, _, _ = journal.recvmsg(1, socket.CMSG_SPACE(4))
    assert data == b""
    ((level, kind, raw),) = ancillary
    assert (level, kind) == (socket.SOL_SOCKET, socket.SCM_RIGHTS)
    fd = array.array("i", raw[:4])[0]
    with os.fdopen(fd, "rb") as memfd:
        memfd.seek(0)  # journald maps it; the offset is shared with the sender's write
        fields = parse_journal(memfd.read())
    assert fields["GUARD_COMMAND"] == command
    assert fields["GUARD_AUDIT_ID"] == "7"


@pytest.mark.parametrize("user_file", ["", '[[rules]]\nsurface = "command"\npattern = "make *"\n'
                                       'action = "allow"\n'])
def test_without_an_audit_setting_nothing_more_is_loaded(user_file: str) -> None:
    if user_file:
        user_policy(user_file)
    code = textwrap.dedent("""
        import sys, time
        from guard.verdict.store.store import Store
        with Store.open() as store:
            store.record(time=time.time(), session="s", cwd="/", command="ls",
                         decision="allow", reasons=(), how="rule")
        print(sorted(m for m in ("socket", "tomllib") if m in sys.modules))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "[]\n"


@pytest.mark.parametrize(
    ("command", "shown"),
    [("ls", "ls"), ("a\nb", "a\\nb"), ("a\tb\x1b[2J", "a\\tb\\x1b[2J"), ("é ok", "é ok")],
)
def test_the_message_is_one_line(command: str, shown: str) -> None:
    assert system_log.one_line(command) == shown


def test_every_row_the_store_records_is_sent_a_change_of_trust_too(sockets: Path) -> None:
    devlog = listen(sockets / "log")
    user_policy(f'[audit]\nsyslog = "{sockets / "log"}"\n')
    with Store.open() as store:  # as `guard approvals grant` records a grant
        store.record(time=time.time(), session="s1", cwd="/w", command="grant #3 git push *",
                     decision="trust", reasons=(), how="grant",
                     detail={"id": 3, "pattern": "git push *"})
    found = SYSLOG.fullmatch(devlog.recv(65536).decode())
    assert found
    params = parse_params(found["params"])
    assert (found["msgid"], params["how"], params["command"]) == (
        "trust", "grant", "grant #3 git push *")
    assert json.loads(params["detail"]) == {"id": 3, "pattern": "git push *"}


JOURNALD = next((p for p in ("/usr/lib/systemd/systemd-journald", "/lib/systemd/systemd-journald")
                 if os.access(p, os.X_OK)), "")
IN_NAMESPACE = """
set -e
mount -t tmpfs tmpfs /run
mkdir -p /run/systemd/journal
if [ -d /var/log/journal ]; then mount -t tmpfs tmpfs /var/log/journal; fi
"$JOURNALD" >/dev/null 2>&1 &
journald=$!
trap 'kill $journald; wait $journald || true' EXIT
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -S /run/systemd/journal/socket ] && break; sleep 0.2; done
"$PYTHON" -m guard check --no-prompt -- "$LINE" || true
sleep 0.5
journalctl -t guard -o json --all --no-pager
"""


@pytest.mark.skipif(os.getuid() != 0 or not JOURNALD or not shutil.which("unshare")
                    or not shutil.which("journalctl"), reason="needs root, unshare and journald")
def test_a_real_journald_stores_the_row_and_journalctl_shows_it(tmp_path: Path) -> None:
    """The real systemd-journald, in a private mount namespace (its own /run): nothing of the
    machine's journal is touched."""
    user_policy("[audit]\njournald = true\n")
    env = {**os.environ, "JOURNALD": JOURNALD, "PYTHON": sys.executable, "LINE": MULTI_LINE,
           "GUARD_SESSION": "journald-test"}
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", IN_NAMESPACE],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    if "mount" in done.stderr or "unshare" in done.stderr:
        pytest.skip(f"no private mount namespace here: {done.stderr.strip()}")
    (row,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert row["GUARD_COMMAND"] == MULTI_LINE
    assert row["GUARD_DECISION"] == "ask"
    assert row["GUARD_SESSION"] == "journald-test"
    assert row["SYSLOG_IDENTIFIER"] == "guard"
    assert row["PRIORITY"] == "5"
    assert row["MESSAGE"] == "guard: ask: " + MULTI_LINE.replace("\n", "\\n")


def test_a_command_too_large_for_a_syslog_datagram_is_cut_and_says_so(sockets: Path) -> None:
    devlog = listen(sockets / "log")
    devlog.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    command = "echo " + "z" * 400_000
    event = AuditRow(9, time.time(), "s", "/w", command, "allow", (), "rule", "")
    system_log.send(event, (system_log.Target("syslog", str(devlog.getsockname())),))
    found = SYSLOG.fullmatch(devlog.recv(1 << 20).decode())
    assert found
    sent = parse_params(found["params"])["command"]
    assert sent == (command[:system_log.SYSLOG_COMMAND_LIMIT]
                    + "… (400005 characters; the whole line is in the local store)")
