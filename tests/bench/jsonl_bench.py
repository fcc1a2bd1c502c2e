"""`guard explain --jsonl` throughput on the mixed corpus, against the projection alone.

Run: ``.venv/bin/python tests/bench/jsonl_bench.py [LINES]``. Prints figures; asserts nothing.

Pipes LINES (20,000 unless given) lines of the mix in tests/bench/projection.py through one
`guard explain --jsonl` process and counts lines per second, its start-up (one line) taken off;
then the same lines each made new (a comment with its number), so that no line is seen twice;
in the same run, the projection alone, projection plus decision and tree-sitter's parse alone
over the same mix in this process. Goal (issue 14): at least 20,000 lines/s; the process costs
less than the projection does, since a line's surroundings (workspace, context, trust, policy,
the protected list) are kept between lines while every question their building asked gets the
same answer (guard/verdict/cache/line_cache.py), and a line seen again is not walked again while
nothing its walk saw has changed (guard/verdict/cache/kept_projections.py): the mix repeats its 24
lines, the new lines show what a line costs that was never seen. guard starts where the bench's
temporary home is, with PWD saying so, as a shell would start it.
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

from guard.policy.files import load_policy
from guard.projection.line_projection import parser, project
from guard.verdict.decision import decide
from guard.verdict.workspace import build_context


def piped(guard: str, data: bytes, env: dict[str, str], cwd: str) -> tuple[float, float]:
    """The clock's seconds and the CPU time (user + system) the child spent: the CPU time is
    steadier than the clock on a busy machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([guard, "explain", "--jsonl"], input=data, env=env, cwd=cwd,
                   stdout=subprocess.DEVNULL, check=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def made_new(line: str, n: int) -> str:
    """`line` with a comment that makes it a line never seen (before a heredoc's body)."""
    first, newline, rest = line.partition("\n")
    return f"{first} # {n}{newline}{rest}"


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
    new = "".join(json.dumps(made_new(line, n)) + "\n" for n, line in enumerate(lines)).encode()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GUARD_STATE_DIR=os.path.join(tmp, "state"),
                   GUARD_CONFIG=os.path.join(tmp, "policy.toml"), HOME=tmp, GUARD_WORKSPACE=tmp,
                   PWD=tmp)  # as a shell that starts it there says
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        one = json.dumps(MIX[0]).encode() + b"\n"
        piped(guard, one, env, tmp)  # warm up: bytecode, the store
        start_up, cpu_start = medians([piped(guard, one, env, tmp) for _ in range(5)])
        whole, cpu_whole = medians([piped(guard, data, env, tmp) for _ in range(3)])
        fresh, cpu_fresh = medians([piped(guard, new, env, tmp) for _ in range(3)])
        ctx = build_context(tmp, env)
        policy = load_policy(tmp, home=ctx.home)
        alone = rate(lambda s: project(s, ctx), MIX)
        decided = rate(lambda s: decide(policy, project(s, ctx), (), home=ctx.home), MIX)
        alone_cpu = cpu_rate(lambda s: project(s, ctx), MIX)
        tree_sitter = parser()
        encoded = {line: line.encode() for line in MIX}
        parse_alone = rate(lambda s: tree_sitter.parse(encoded[s]), MIX)
    per_second = count / max(whole - start_up, 1e-9)
    per_cpu_second = count / max(cpu_whole - cpu_start, 1e-9)
    new_per_second = count / max(fresh - start_up, 1e-9)
    new_per_cpu_second = count / max(cpu_fresh - cpu_start, 1e-9)
    print(f"{count:,} lines of the mix ({len(MIX)} kinds), one process")
    print(f"guard explain --jsonl:        {per_second:10,.0f} lines/s "
          f"(start-up {start_up * 1000:.0f} ms taken off)   goal >= 20,000")
    print(f"  every line new:             {new_per_second:10,.0f} lines/s, "
          f"{new_per_cpu_second:,.0f} per CPU second")
    print(f"projection alone, in-process: {alone:10,.0f} lines/s")
    print(f"projection + decision:        {decided:10,.0f} lines/s")
    print(f"tree-sitter's parse alone:    {parse_alone:10,.0f} lines/s")
    print(f"explain --jsonl costs {alone / per_second:.1f}x the projection alone")
    print(f"per CPU second: explain --jsonl {per_cpu_second:,.0f} lines, projection alone "
          f"{alone_cpu:,.0f} lines ({alone_cpu / per_cpu_second:.1f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
