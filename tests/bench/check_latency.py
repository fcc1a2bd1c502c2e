"""`guard check` for a line that a session approval allows: a cold process, end to end.

Goal (issue 3): median under 60 ms on this machine; the in-process decision (projection,
policy, approvals) under 1 ms. Prints figures; asserts nothing.
Run: .venv/bin/python tests/bench/check_latency.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

LINE = "cat /etc/hosts"


def main() -> None:
    guard = os.path.join(os.path.dirname(sys.executable), "guard")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GUARD_STATE_DIR=os.path.join(tmp, "state"),
                   GUARD_CONFIG=os.path.join(tmp, "policy.toml"), HOME=tmp,
                   GUARD_WORKSPACE=tmp)
        subprocess.run([guard, "approvals", "grant", "--session", "bench", "--surface",
                        "external_directory", "--pattern", "/etc/hosts", "--access", "read"],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        times = []
        for _ in range(30):
            start = time.perf_counter()
            done = subprocess.run([guard, "check", "--session", "bench", "--", LINE], env=env,
                                  cwd=tmp, stdout=subprocess.DEVNULL)
            times.append((time.perf_counter() - start) * 1000)
            assert done.returncode == 0, "the approval should allow the line"
        times.sort()
        print(f"guard check (allowed by a session approval), cold process: median "
              f"{statistics.median(times):.1f} ms, p95 {times[int(len(times) * 0.95) - 1]:.1f} ms"
              "   goal < 60 ms")
        os.environ.update(env)
        from guard.verdict.judgement import judge

        judge(LINE, cwd=tmp, session="bench")  # warm: imports, policy, compiled patterns
        inner = []
        for _ in range(200):
            start = time.perf_counter()
            result = judge(LINE, cwd=tmp, session="bench")
            inner.append((time.perf_counter() - start) * 1000)
        assert result.verdict.decision == "allow"
        inner.sort()
        print(f"in-process judgement (policy files read, store opened, decided): median "
              f"{statistics.median(inner):.2f} ms, p95 {inner[int(len(inner) * 0.95) - 1]:.2f} ms")
        from guard.verdict.decision import decide
        from guard.verdict.store.store import Store

        with Store.open() as store:
            approvals = store.approvals("bench", time.time())
        decided = []
        for _ in range(500):
            start = time.perf_counter()
            decide(result.policy, result.projection, approvals, home=tmp)
            decided.append((time.perf_counter() - start) * 1000)
        decided.sort()
        print(f"in-process decision alone: median {statistics.median(decided):.3f} ms, "
              f"p95 {decided[int(len(decided) * 0.95) - 1]:.3f} ms   goal < 1 ms")


if __name__ == "__main__":
    main()
