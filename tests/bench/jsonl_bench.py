"""`guard explain --jsonl` throughput on the mixed corpus, against the projection alone.

Run: ``.venv/bin/python tests/bench/jsonl_bench.py [LINES]``. Prints figures; asserts nothing.

Pipes LINES (20,000 unless given) lines of the mix in tests/bench/projection.py through one
`guard explain --jsonl` process and counts lines per second, its start-up (one line) taken off;
in the same run, the projection alone and projection plus decision over the same mix in this
process. Goal (issue 14): at least 20,000 lines/s; the process should cost little more than the
projection does, since policy, context and store are kept between lines
(guard/approvals/line_cache.py).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from projection import MIX, rate

from guard.approvals.decide import decide
from guard.approvals.workspace import build_context
from guard.policy.files import load_policy
from guard.projection.project import project


def piped(guard: str, data: bytes, env: dict[str, str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run([guard, "explain", "--jsonl"], input=data, env=env, cwd=cwd,
                   stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def piped_cpu(guard: str, data: bytes, env: dict[str, str], cwd: str) -> float:
    """The CPU time (user + system) the child spent: steadier than the clock on a busy machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    piped(guard, data, env, cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_rate(fn, lines: list[str], rounds: int = 20) -> float:  # type: ignore[no-untyped-def]
    start = time.process_time()
    for _ in range(rounds):
        for line in lines:
            fn(line)
    return rounds * len(lines) / (time.process_time() - start)


def main(argv: list[str]) -> int:
    count = int(argv[1]) if len(argv) > 1 else 20_000
    guard = os.path.join(os.path.dirname(sys.executable), "guard")
    lines = [MIX[n % len(MIX)] for n in range(count)]
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GUARD_STATE_DIR=os.path.join(tmp, "state"),
                   GUARD_CONFIG=os.path.join(tmp, "policy.toml"), HOME=tmp, GUARD_WORKSPACE=tmp)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        one = json.dumps(MIX[0]).encode() + b"\n"
        piped(guard, one, env, tmp)  # warm up: bytecode, the store
        start_up = statistics.median(piped(guard, one, env, tmp) for _ in range(5))
        whole = statistics.median(piped(guard, data, env, tmp) for _ in range(3))
        cpu_start = statistics.median(piped_cpu(guard, one, env, tmp) for _ in range(5))
        cpu_whole = statistics.median(piped_cpu(guard, data, env, tmp) for _ in range(3))
        ctx = build_context(tmp, env)
        policy = load_policy(tmp, home=ctx.home)
        alone = rate(lambda s: project(s, ctx), MIX)
        decided = rate(lambda s: decide(policy, project(s, ctx), (), home=ctx.home), MIX)
        alone_cpu = cpu_rate(lambda s: project(s, ctx), MIX)
    per_second = count / max(whole - start_up, 1e-9)
    per_cpu_second = count / max(cpu_whole - cpu_start, 1e-9)
    print(f"{count:,} lines of the mix ({len(MIX)} kinds), one process")
    print(f"guard explain --jsonl:        {per_second:10,.0f} lines/s "
          f"(start-up {start_up * 1000:.0f} ms taken off)   goal >= 20,000")
    print(f"projection alone, in-process: {alone:10,.0f} lines/s")
    print(f"projection + decision:        {decided:10,.0f} lines/s")
    print(f"explain --jsonl costs {alone / per_second:.1f}x the projection alone")
    print(f"per CPU second: explain --jsonl {per_cpu_second:,.0f} lines, projection alone "
          f"{alone_cpu:,.0f} lines ({alone_cpu / per_cpu_second:.1f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
