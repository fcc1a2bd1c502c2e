"""How long the shell hooks add to every command line a human types.

Run: ``.venv/bin/python tests/bench/hook_latency.py [LINES]``. Prints figures; asserts nothing.

Drives real interactive bash and zsh through a pseudo-terminal (pexpect, with its 50 ms
``delaybeforesend`` turned off) and times each line from the Enter key to the next prompt, for
LINES lines (200 unless given), in a shell without the hook and in one with it, side by side:
the two take turns line by line (which goes first alternates), so a burst of load on a busy
machine falls on both rather than on one run. Each line of the set runs twice in both shells
before the timing starts: the first use of a command costs the checker more (imports, caches),
once per shell, and would otherwise fill the slowest 5 % of 200 lines.
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


def warm(shell: Shell) -> None:
    for line in LINES * 2:  # the checker starts, each command's first use is paid
        shell.run(line)


def timed(shell: Shell, line: str) -> float:
    start = time.perf_counter()
    shell.run(line)
    return (time.perf_counter() - start) * 1000


def side_by_side(shells: dict[bool, Shell], count: int) -> dict[bool, list[float]]:
    """Each line in both shells, in turns; the shell that goes first alternates."""
    out: dict[bool, list[float]] = {False: [], True: []}
    for n in range(count):
        line = LINES[n % len(LINES)]
        for load in (False, True) if n % 2 else (True, False):
            out[load].append(timed(shells[load], line))
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
            shells = {
                load: Shell(name, base / "ws", load=load, timeout=30) for load in (False, True)
            }
            try:
                for shell in shells.values():
                    warm(shell)
                samples = side_by_side(shells, count)
            finally:
                for shell in shells.values():
                    shell.close()
            results = {load: figures(samples[load]) for load in (False, True)}
            for load in (False, True):
                median, p95 = results[load]
                print(f"{name:<6} {'on' if load else 'off':<5} {median:8.2f} {p95:8.2f}")
            added = [on - off for on, off in zip(results[True], results[False], strict=True)]
            print(f"{name:<6} added {added[0]:8.2f} {added[1]:8.2f}")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
