"""How long the shell hooks add to every command line a human types.

Run: ``.venv/bin/python tests/bench/hook_latency.py [LINES]``. Prints figures; asserts nothing.

Drives real interactive bash and zsh through a pseudo-terminal (pexpect, with its 50 ms
``delaybeforesend`` turned off) and times each line from the Enter key to the next prompt, for
LINES lines (200 unless given), in a shell without the hook and in one with it, in the same run.
The lines are cheap builtins the default policy allows, so the difference is the hook: the
check at Enter (bash, on TERM=xterm, in the shell itself; PS0's command substitution takes over
only for lines that check did not allow) or preexec (zsh), the round trip to the resident
checker, the checker's judgement and the prompt hook.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from shells import Shell  # noqa: E402

LINES = ("true", "echo hi", ": a b c", "cd .", "x=1")


def times(shell: Shell, count: int) -> list[float]:
    for _ in range(5):  # warm up: the checker starts, caches fill
        shell.run("true")
    out = []
    for n in range(count):
        line = LINES[n % len(LINES)]
        start = time.perf_counter()
        shell.run(line)
        out.append((time.perf_counter() - start) * 1000)
    return out


def figures(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.95) - 1]


def main(argv: list[str]) -> int:
    count = int(argv[1]) if len(argv) > 1 else 200
    base = Path(tempfile.mkdtemp(prefix="guard-hook-bench-"))
    for name in ("home", "ws", "state", "config"):
        (base / name).mkdir()
    os.environ.update(
        HOME=str(base / "home"),
        GUARD_STATE_DIR=str(base / "state"),
        GUARD_CONFIG=str(base / "config" / "policy.toml"),
        XDG_CONFIG_HOME=str(base / "config"),
        XDG_STATE_HOME=str(base / "state"),
    )
    print(f"{count} lines per shell, milliseconds from Enter to the next prompt")
    print(f"{'shell':<6} {'hook':<5} {'median':>8} {'p95':>8}")
    try:
        for name in ("bash", "zsh"):
            if shutil.which(name) is None:
                print(f"{name:<6} not installed")
                continue
            results = {}
            for load in (False, True):
                shell = Shell(name, base / "ws", load=load, timeout=30)
                try:
                    results[load] = figures(times(shell, count))
                finally:
                    shell.close()
                median, p95 = results[load]
                print(f"{name:<6} {'on' if load else 'off':<5} {median:8.2f} {p95:8.2f}")
            added = [on - off for on, off in zip(results[True], results[False], strict=True)]
            print(f"{name:<6} added {added[0]:8.2f} {added[1]:8.2f}")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
