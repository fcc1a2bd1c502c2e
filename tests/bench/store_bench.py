"""How long the store adds to every command line, and how fast it takes grants.

Run: ``.venv/bin/python tests/bench/store_bench.py``. Prints figures; asserts nothing.

The per-command path opens the store, looks up one session's approvals among 1000, and closes;
its cost grows with the number of approvals the session sees (built into records one by one).
The full path also marks the session active and writes an audit row, as a verdict does.
The baseline is opening and closing a bare SQLite connection to the same file.
"""

from __future__ import annotations

import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from guard.verdict.store.store import Store

RUNS = 200
SESSION = "ppid-4242-8675309-3f1c0a2b"
NOW = 1_700_000_000.0


def fill(path: Path, *, always: int, ours: int, others: int) -> None:
    """Approvals: ``always`` of them permanent, ``ours`` of our session, ``others`` spread over
    50 other sessions."""
    with Store.open(path) as store:
        for n in range(always + ours + others):
            if n < always:
                session, scope = None, "always"
            elif n < always + ours:
                session, scope = SESSION, "session"
            else:
                session, scope = f"ppid-{n % 50}-1-abc", "session"
            store.grant(session=session, scope=scope, surface="command", pattern=f"tool{n} run *",
                        access=None, granted_by="human", command=f"tool{n} run --flag", now=NOW)


def lookup(path: Path) -> None:
    with Store.open(path) as store:
        store.approvals(SESSION, NOW)


def full_path(path: Path) -> None:
    with Store.open(path) as store:
        store.approvals(SESSION, NOW)
        store.touch_session(SESSION, NOW, "/srv/app")
        store.record(time=NOW, session=SESSION, cwd="/srv/app", command="git status",
                     decision="allow", reasons=(), how="rule")


def bare_connection(path: Path) -> None:
    sqlite3.connect(path).close()


def timings(step: Callable[[Path], None], path: Path) -> list[float]:
    step(path)  # warm the page cache
    spent = []
    for _ in range(RUNS):
        start = time.perf_counter()
        step(path)
        spent.append(time.perf_counter() - start)
    return spent


def report(name: str, spent: list[float]) -> None:
    ordered = sorted(spent)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    print(f"{name:<44} median {statistics.median(ordered) * 1e3:7.3f} ms"
          f"   p95 {p95 * 1e3:7.3f} ms   ({len(ordered)} runs)")


def grant_rate(path: Path, count: int = 2000) -> float:
    with Store.open(path) as store:
        start = time.perf_counter()
        for n in range(count):
            store.grant(session=SESSION, scope="session", surface="external_directory",
                        pattern=f"/srv/data/{n}", access="write", granted_by="human",
                        command=f"touch /srv/data/{n}", now=NOW)
        return count / (time.perf_counter() - start)


def fill_fast(path: Path, count: int) -> None:
    """``count`` always-approvals written in one transaction (grant() one by one takes minutes):
    half commands, half directories."""
    with Store.open(path):
        pass
    from guard.verdict.approval_index import stored_key

    rows = [("command", f"tool{n} run *", None) if n % 2
            else ("external_directory", f"/srv/d{n}/**", "read") for n in range(count)]
    con = sqlite3.connect(path)
    with con:
        con.executemany(
            "INSERT INTO approvals (session, scope, surface, pattern, access, granted_by, "
            "granted_at, command, lookup) VALUES (NULL, 'always', ?, ?, ?, 'human', ?, '', ?)",
            [(*r, NOW, stored_key(r[0], r[1])) for r in rows],
        )
    con.close()


def many_approvals(base: Path, count: int = 100_000) -> None:
    """What `count` approvals add to a check: a line that asks is judged with them, in a
    long-lived process (the line cache: loaded once, then only a version check per line) and
    as a fresh process does (open, read those that may match); against an empty store."""
    import os

    from guard.verdict.cache.line_cache import LineCache
    from guard.verdict.judgement import judge

    policy = base / "policy.toml"
    policy.write_text('[[rules]]\nsurface = "command"\npattern = "tool*"\naction = "ask"\n')
    os.environ.update(GUARD_CONFIG=str(policy), GUARD_WORKSPACE=str(base))
    lines = ["tool77 run fast", "cat /srv/d4/x", "tool8 run x", "cat /etc/hosts"]
    figures: dict[tuple[str, str], float] = {}
    for name, approvals in (("empty", 0), (f"{count:,}", count)):
        state = base / f"state-{approvals}"
        state.mkdir()
        fill_fast(state / "guard.db", approvals)
        os.environ["GUARD_STATE_DIR"] = str(state)
        cache = LineCache()
        judge(lines[0], cwd=str(base), session=SESSION, cache=cache)  # load once
        spent = []
        for n in range(RUNS):
            start = time.perf_counter()
            judge(lines[n % len(lines)], cwd=str(base), session=SESSION, cache=cache)
            spent.append(time.perf_counter() - start)
        cache.close()
        figures["long-lived", name] = statistics.median(spent)
        report(f"long-lived check, {name} approvals", spent)
        fresh = []
        for n in range(RUNS):
            start = time.perf_counter()
            judge(lines[n % len(lines)], cwd=str(base), session=SESSION)
            fresh.append(time.perf_counter() - start)
        report(f"fresh-process check, {name} approvals", fresh)
        figures["fresh-process", name] = statistics.median(fresh)
        with Store.open(state / "guard.db") as store:
            start = time.perf_counter()
            store.list_approvals(limit=100)
            store.count_approvals()
            page = time.perf_counter() - start
        print(f"{'approvals list, first page of 100, ' + name:<44} {page * 1e3:7.3f} ms")
    for how in ("long-lived", "fresh-process"):
        added = (figures[how, f"{count:,}"] - figures[how, "empty"]) * 1e3
        print(f"{count:,} approvals add {added:.3f} ms (median) to a {how} check   goal < 2 ms")


def main() -> None:
    with tempfile.TemporaryDirectory() as base:
        typical, worst = Path(base) / "typical.db", Path(base) / "worst.db"
        fill(typical, always=100, ours=50, others=850)
        fill(worst, always=200, ours=800, others=0)
        print(f"sqlite {sqlite3.sqlite_version}; each store holds 1000 approvals; "
              f"typical: the session sees 150 of them, worst: all 1000")
        report("baseline: bare sqlite3 connect + close", timings(bare_connection, typical))
        report("open + approvals(session) + close, typical", timings(lookup, typical))
        report("open + approvals(session) + close, worst", timings(lookup, worst))
        report("open + lookup + touch + audit row + close", timings(full_path, typical))
        rate = grant_rate(Path(base) / "grants.db")
        print(f"{'grant rate (one process, one txn each)':<44} {rate:9.0f} grants/s")
        many_approvals(Path(base))


if __name__ == "__main__":
    main()
