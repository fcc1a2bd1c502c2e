"""A store that cannot be used says so in one line starting ``guard:``, and says what to do.

Every case uses real files: truncated, overwritten, a directory in the file's place, a directory
nobody may write, a file nobody may read, a real full disk (a tiny tmpfs in a private mount
namespace), a lock held past the busy timeout, a schema from a newer guard.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from guard.errors import GuardError
from guard.verdict.store.schema import SCHEMA_VERSION
from guard.verdict.store.store import Store

REPO = Path(__file__).resolve().parents[3]
T0 = 1_700_000_000.0


def use(path: Path) -> None:
    """What one command line does with the store: open, look up, touch, record."""
    with Store.open(path) as store:
        store.approvals("s1", T0)
        store.touch_session("s1", T0)
        store.record(time=T0, session="s1", cwd="/", command="ls", decision="allow", reasons=(),
                     how="rule")
        store.log()


def failure(path: Path) -> str:
    with pytest.raises(GuardError) as caught:
        use(path)
    return str(caught.value)


def assert_one_line(message: str, path: Path, *needles: str) -> None:
    assert message.startswith("guard: ")
    assert "\n" not in message
    assert str(path) in message
    assert "policy alone" in message
    for needle in needles:
        assert needle in message


def filled(path: Path, rows: int = 400) -> Path:
    with Store.open(path) as store:
        for n in range(rows):
            store.grant(session=None, scope="always", surface="command", pattern=f"tool{n} *",
                        access=None, granted_by="human", command="x" * 200, now=T0)
    assert not Path(f"{path}-wal").exists()  # the last close folds the WAL into the file
    return path


def test_a_healthy_store_passes_the_same_use(tmp_path: Path) -> None:
    use(filled(tmp_path / "guard.db"))


def test_a_truncated_store_is_reported_as_damaged(tmp_path: Path) -> None:
    path = filled(tmp_path / "guard.db")
    assert path.stat().st_size > 8 * 4096
    os.truncate(path, 3 * 4096)
    assert_one_line(failure(path), path, "is damaged", "move it aside")


@pytest.mark.parametrize(("start", "length"), [(0, 100), (0, None), (2 * 4096, 4096)])
def test_garbage_bytes_in_the_store_are_reported_as_damaged(tmp_path: Path, start: int,
                                                             length: int | None) -> None:
    path = filled(tmp_path / "guard.db")
    data = bytearray(path.read_bytes())
    end = len(data) if length is None else start + length
    data[start:end] = random.Random(start).randbytes(end - start)
    path.write_bytes(bytes(data))
    assert_one_line(failure(path), path, "is damaged", "move it aside")


def test_a_file_of_garbage_where_no_store_was_is_reported_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "guard.db"
    path.write_bytes(b"not a database, just some words someone saved here\n" * 200)
    assert_one_line(failure(path), path, "is damaged")


def test_a_directory_where_the_file_should_be_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "guard.db"
    path.mkdir()
    assert_one_line(failure(path), path, "is a directory", "move it aside")


def test_a_schema_from_a_newer_guard_is_refused(tmp_path: Path) -> None:
    path = filled(tmp_path / "guard.db", rows=1)
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    assert_one_line(failure(path), path, "newer than this guard", "upgrade guard")


def test_a_lock_held_past_the_busy_timeout_is_reported(tmp_path: Path) -> None:
    path = filled(tmp_path / "guard.db", rows=1)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with Store.open(path, busy_seconds=0.2) as store:
            with pytest.raises(GuardError) as caught:
                store.touch_session("s1", T0)
            # readers are not blocked by a writer in WAL mode
            assert [a.pattern for a in store.approvals(None, T0)] == ["tool0 *"]
    finally:
        holder.close()
    assert_one_line(str(caught.value), path, "stayed locked")


# -- permissions: checked in a real child process without root's powers ---------------------

CHILD = """
import sys
from pathlib import Path
from guard.errors import GuardError
from guard.verdict.store.store import Store
try:
    Store.open(Path(sys.argv[1])).close()
except GuardError as exc:
    print(exc)
else:
    print("opened")
"""

# Root passes every permission check through these capabilities; without them the kernel checks
# root's files by their mode bits like anyone else's.
ROOT_POWERS = "-dac_override,-dac_read_search,-fowner,-chown"


def open_without_privilege(path: Path) -> str:
    """Open the store in a child process that permission bits apply to (as root: one without
    the capabilities that bypass them). Returns what it printed."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("setpriv is needed to drop root's file capabilities")
        prefix = ["setpriv", "--bounding-set", ROOT_POWERS, "--"]
    done = subprocess.run([*prefix, sys.executable, "-c", CHILD, str(path)],
                          capture_output=True, text=True, cwd="/",
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60, check=False)
    assert done.stderr == ""  # no traceback, ever
    return done.stdout.strip()


def test_a_state_dir_nobody_may_write_says_the_store_cannot_be_created(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    directory.mkdir()
    directory.chmod(0o555)
    path = directory / "guard.db"
    message = open_without_privilege(path)
    directory.chmod(0o755)
    assert_one_line(message, path, "cannot create", "GUARD_STATE_DIR")
    assert not path.exists()


def test_a_store_file_we_may_not_read_says_permission_denied(tmp_path: Path) -> None:
    path = filled(tmp_path / "guard.db", rows=1)
    path.chmod(0o000)
    assert_one_line(open_without_privilege(path), path, "cannot open", "ermission denied")


def test_a_state_dir_made_read_only_after_the_store_says_it_cannot_open(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    path = filled(directory / "guard.db", rows=1)  # closed: no -wal or -shm left to reuse
    directory.chmod(0o555)
    message = open_without_privilege(path)
    directory.chmod(0o755)
    assert_one_line(message, path, "cannot open", "readonly database", "-wal and -shm")


def test_a_shm_file_we_may_not_open_says_the_store_cannot_be_opened(tmp_path: Path) -> None:
    path = filled(tmp_path / "guard.db", rows=1)
    shm = Path(f"{path}-shm")
    shm.touch(mode=0o000)
    shm.chmod(0o000)
    assert_one_line(open_without_privilege(path), path, "cannot open", "unable to open")


def test_another_users_store_is_refused_even_when_it_is_writable(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("making a file owned by another user needs root")
    path = filled(tmp_path / "guard.db", rows=1)
    path.chmod(0o666)
    os.chown(path, 65534, 65534)
    assert_one_line(open_without_privilege(path), path, "belongs to another user")


def test_the_same_child_can_open_a_store_it_may_write(tmp_path: Path) -> None:
    assert open_without_privilege(tmp_path / "state" / "guard.db") == "opened"


# -- a real full disk -------------------------------------------------------------------------

FULL_DISK_CHILD = """
import json, sys
from pathlib import Path
from guard.errors import GuardError
from guard.verdict.store.store import Store

def fill(directory):
    with open(directory / "filler", "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\\0" * 4096)
        except OSError:
            pass

directory = Path(sys.argv[1])
out = {}
with Store.open(directory / "kept.db") as store:
    store.grant(session=None, scope="always", surface="command", pattern="make *",
                access=None, granted_by="human", command="make", now=1.0)
    fill(directory)
    try:
        for n in range(100000):
            store.record(time=1.0, session="s", cwd="/", command="x" * 2000, decision="ask",
                         reasons=(), how="human")
    except GuardError as exc:
        out["write"] = str(exc)
    out["kept"] = [a.pattern for a in store.approvals(None, 1.0)]
    out["check"] = list(store.check())
try:
    Store.open(directory / "new.db").close()
except GuardError as exc:
    out["open"] = str(exc)
print(json.dumps(out))
"""


def private_mount_namespace() -> list[str]:
    for prefix in (["unshare", "--mount", "--propagation", "private"],
                   ["unshare", "--user", "--map-root-user", "--mount", "--propagation", "private"]):
        probe = subprocess.run([*prefix, "true"], capture_output=True, check=False)
        if probe.returncode == 0:
            return prefix
    pytest.skip("cannot make a private mount namespace here (unshare is missing or denied)")


def test_a_full_disk_is_reported_and_what_was_stored_survives(tmp_path: Path) -> None:
    prefix = private_mount_namespace()
    disk = tmp_path / "disk"
    disk.mkdir()
    script = 'mount -t tmpfs -o size=256k,mode=700 guard-test "$1" && shift && exec "$@"'
    done = subprocess.run([*prefix, "sh", "-c", script, "sh", str(disk), sys.executable, "-c",
                           FULL_DISK_CHILD, str(disk)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60, check=False)
    if "mount" in done.stderr and done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    assert done.stderr == ""
    out = json.loads(done.stdout)
    assert_one_line(out["write"], disk / "kept.db", "the disk is full", "free some space")
    assert_one_line(out["open"], disk / "new.db", "the disk is full")
    assert out["kept"] == ["make *"]
    assert out["check"] == []


@pytest.mark.parametrize("depth", [1, 2])
def test_a_file_where_the_state_directory_should_be_is_named(tmp_path: Path, depth: int) -> None:
    blocking = tmp_path / "state"
    blocking.write_text("someone's notes\n")
    path = blocking / "guard" / "guard.db" if depth == 2 else blocking / "guard.db"
    message = failure(path)
    assert_one_line(message, path, f"the state directory {blocking} is a file, not a directory",
                    "move it aside (guard makes a new store)")  # fmt: skip
    assert blocking.read_text() == "someone's notes\n"  # left as it was
