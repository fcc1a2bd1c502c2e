"""Many real processes write the store at once, and writers die mid-transaction: nothing is lost
and nothing is half-written."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from guard.verdict.store.store import Store

REPO = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
T0 = 1_700_000_000.0

GRANTER = """
import sys
from pathlib import Path
from guard.verdict.store.store import Store
path, worker, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
sys.stdin.read(1)  # wait until every worker is ready, then all start at once
with Store.open(path) as store:
    for n in range(count):
        number = store.grant(session=f"s{worker}", scope="session", surface="command",
                             pattern=f"tool-{worker}-{n} *", access=None, granted_by="human",
                             command=f"tool-{worker}-{n} x", now=float(n))
        store.record(time=float(n), session=f"s{worker}", cwd="/", command=f"tool-{worker}-{n}",
                     decision="allow", reasons=(f"approval #{number}",), how="human")
        print(number)
"""


def integrity(path: Path) -> str:
    con = sqlite3.connect(path)
    try:
        return str(con.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        con.close()


def test_eight_processes_granting_200_each_at_once_leave_1600_distinct_rows(
    tmp_path: Path,
) -> None:
    path = tmp_path / "state" / "guard.db"  # not there yet: creating it is part of the race
    workers = [
        subprocess.Popen([sys.executable, "-c", GRANTER, str(path), str(w), "200"], env=ENV,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
        for w in range(8)
    ]
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.write("go")
        worker.stdin.flush()
    results = [worker.communicate(timeout=120) for worker in workers]
    assert [(worker.returncode, err) for worker, (_, err) in zip(workers, results, strict=True)] \
        == [(0, "")] * 8
    reported = [int(line) for out, _ in results for line in out.split()]
    assert len(reported) == len(set(reported)) == 1600

    with Store.open(path) as store:
        approvals = store.list_approvals()
        assert len(approvals) == 1600
        assert len({a.pattern for a in approvals}) == 1600
        assert {a.id for a in approvals} == set(reported)
        assert len(store.log(limit=5000)) == 1600
        assert all(len(store.approvals(f"s{w}", 199.0)) == 200 for w in range(8))
        assert store.check() == ()
    assert integrity(path) == "ok"


DOOMED = """
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA cache_size = 2")  # spill uncommitted pages into the WAL before the end
con.execute("BEGIN IMMEDIATE")
for n in range(400):
    con.execute(
        "INSERT INTO approvals (scope, surface, pattern, access, granted_by, granted_at, command)"
        " VALUES ('always', 'command', ?, NULL, 'doomed', 1.0, ?)", (f"doomed{n} *", "x" * 1000))
print("inserted", flush=True)
time.sleep(600)
"""


def test_a_writer_killed_mid_transaction_leaves_no_trace_and_breaks_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "guard.db"
    with Store.open(path) as store:
        earlier = [store.grant(session=None, scope="always", surface="command",
                               pattern=f"kept{n} *", access=None, granted_by="human",
                               command="x", now=T0) for n in range(10)]
        wal = Path(f"{path}-wal")
        before = wal.stat().st_size
        writer = subprocess.Popen([sys.executable, "-c", DOOMED, str(path)], env=ENV,
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert writer.stdout is not None
            assert writer.stdout.readline() == "inserted\n"
            assert wal.stat().st_size > before + 100_000  # half a transaction is on disk
            writer.send_signal(signal.SIGKILL)
        finally:
            writer.kill()
            writer.wait(timeout=30)
        assert writer.returncode == -signal.SIGKILL

    with Store.open(path) as store:
        assert [a.id for a in store.list_approvals()] == earlier
        assert store.check() == ()
        later = store.grant(session=None, scope="always", surface="command", pattern="after *",
                            access=None, granted_by="human", command="x", now=T0)
        assert later > earlier[-1]
    assert integrity(path) == "ok"


def test_a_store_writer_killed_at_any_moment_keeps_every_grant_it_reported(
    tmp_path: Path,
) -> None:
    path = tmp_path / "guard.db"
    for attempt in range(4):
        writer = subprocess.Popen(
            [sys.executable, "-c", GRANTER, str(path), str(attempt), "100000"], env=ENV,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert writer.stdin is not None and writer.stdout is not None
        writer.stdin.write("go")
        writer.stdin.close()
        reported = [int(writer.stdout.readline()) for _ in range(25 + 40 * attempt)]
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        reported += [int(line) for line in writer.stdout.read().split()]
        writer.stdout.close()
        with Store.open(path) as store:
            stored = [a.id for a in store.approvals(f"s{attempt}", 0.0)]
            # every reported grant is there; at most one more committed before its print
            assert set(reported) <= set(stored)
            assert len(stored) - len(reported) in (0, 1)
            assert store.check() == ()


def test_processes_creating_a_new_store_at_the_same_moment_all_open_it(tmp_path: Path) -> None:
    """The switch to WAL on a brand-new file does not wait for other openers by itself."""
    import subprocess
    import sys

    for attempt in range(5):
        path = tmp_path / f"fresh{attempt}" / "guard.db"
        code = ("import sys; from pathlib import Path\n"
                "from guard.verdict.store.store import Store\n"
                f"Store.open(Path({str(path)!r})).close()\n")
        procs = [subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE)
                 for _ in range(6)]
        errors = [p.communicate(timeout=60)[1] for p in procs]
        assert [p.returncode for p in procs] == [0] * 6, errors
