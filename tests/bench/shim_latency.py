"""How much `guarded-bash -c true` adds over `bash -c true`, in fresh processes.

Run: .venv/bin/python -m compileall -q guard && .venv/bin/python tests/bench/shim_latency.py [N]
Prints medians and 90th percentiles for each variant, then the difference and the ratio of the
medians against bare bash. The target (issue 4) is at most 40 ms added, median. Nothing here
passes or fails: it prints figures.

Variants: the console script as installed (`guarded-bash`), the same through the native
launcher when a C compiler is there, a bare `python -c pass` for the interpreter's own start-up,
and `guard check -- true`, the same judgement without the shim, to tell the two costs apart.
Each runs in a temporary workspace with its own config and state, so the real home is never
touched; the audit log grows by one row per run.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 40


def timed(argv: list[str], env: dict[str, str], cwd: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}")
    return elapsed


def measure(
    variants: dict[str, list[str]], env: dict[str, str], cwd: str
) -> dict[str, list[float]]:
    """Interleaved rounds, so drift in the machine's load hits every variant alike."""
    times: dict[str, list[float]] = {name: [] for name in variants}
    for argv in variants.values():
        timed(argv, env, cwd)  # warm the page cache
    for _ in range(RUNS):
        for name, argv in variants.items():
            times[name].append(timed(argv, env, cwd))
    return times


def launcher(tmp: str, env: dict[str, str]) -> str | None:
    if shutil.which("cc") is None:
        return None
    out = Path(tmp) / "bin"
    subprocess.run(
        [str(BIN / "guard"), "install-shell", "--dir", str(out)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return str(out / "bash")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        env = {
            **os.environ,
            "HOME": tmp,
            "GUARD_CONFIG": f"{tmp}/config/policy.toml",
            "GUARD_STATE_DIR": f"{tmp}/state",
            "XDG_CONFIG_HOME": f"{tmp}/config",
            "XDG_STATE_HOME": f"{tmp}/state",
            "GUARD_WORKSPACE": str(work),
        }
        variants = {
            "bash -c true": ["/bin/bash", "-c", "true"],
            "python -c pass": [sys.executable, "-c", "pass"],
            "guard check -- true": [str(BIN / "guard"), "check", "--", "true"],
            "guarded-bash -c true": [str(BIN / "guarded-bash"), "-c", "true"],
        }
        native = launcher(tmp, env)
        if native:
            variants["launcher (bash) -c true"] = [native, "-c", "true"]
        times = measure(variants, env, str(work))
    base = statistics.median(times["bash -c true"])
    print(f"{RUNS} runs each, fresh processes, median and p90 in ms")
    for name, values in times.items():
        median = statistics.median(values)
        p90 = statistics.quantiles(values, n=10)[-1]
        extra = f"  +{(median - base) * 1000:6.1f} ms  x{median / base:5.1f}"
        print(f"  {name:28} {median * 1000:7.1f} {p90 * 1000:7.1f}{extra}")
    added = (statistics.median(times["guarded-bash -c true"]) - base) * 1000
    print(f"guarded-bash adds {added:.1f} ms over bash (target: at most 40 ms)")


if __name__ == "__main__":
    main()
