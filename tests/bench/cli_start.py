"""`guard --version` and `guard --help` as fresh processes, against `python -c pass`, the old way
(argparse with every subcommand's module loaded) and the warm path (`guard check` answered by
the resident checker).

Run: ``.venv/bin/python tests/bench/cli_start.py [RUNS]``. Prints figures; asserts nothing.

Goal (issue 29): `--version` and `--help` as fast as the warm paths: they print from a table
in guard/cli/__init__.py, with no subcommand module and no argparse imported.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

OLD = ("import sys; from guard.cli import build_parser; "
       "build_parser().parse_args(sys.argv[1:])")  # fmt: skip


def median_ms(argv: list[str], env: dict[str, str], cwd: str, runs: int) -> tuple[float, float]:
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)  # fmt: skip  # warm up
    spent = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)  # fmt: skip
        spent.append((time.perf_counter() - start) * 1000)
    spent.sort()
    return statistics.median(spent), spent[max(int(len(spent) * 0.95) - 1, 0)]


def main(argv: list[str]) -> int:
    runs = int(argv[1]) if len(argv) > 1 else 30
    guard = os.path.join(os.path.dirname(sys.executable), "guard")
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        runtime, project = os.path.join(tmp, "run"), os.path.join(tmp, "project")
        os.mkdir(runtime, 0o700)
        os.mkdir(project)
        env = dict(os.environ, GUARD_STATE_DIR=os.path.join(tmp, "state"), HOME=tmp,
                   GUARD_CONFIG=os.path.join(tmp, "policy.toml"), GUARD_WORKSPACE=project,
                   XDG_RUNTIME_DIR=runtime, GUARD_RESIDENT="1")  # fmt: skip
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed guard has its bytecode cached
        rows = [
            ("python -c pass", [sys.executable, "-c", "pass"]),
            ("guard check -- true (warm checker)", [guard, "check", "--", "true"]),
            ("guard --version", [guard, "--version"]),
            ("guard --help", [guard, "--help"]),
            ("old way: --version (argparse, every module)", [sys.executable, "-c", OLD,
                                                             "--version"]),
            ("old way: --help (argparse, every module)", [sys.executable, "-c", OLD, "--help"]),
        ]  # fmt: skip
        subprocess.run([guard, "check", "--", "true"], env=env, cwd=project, check=False)
        time.sleep(2)  # the checker it started is warm
        try:
            for name, command in rows:
                median, p95 = median_ms(command, env, project, runs)
                print(f"{name:<46} median {median:7.1f} ms   p95 {p95:7.1f} ms")
        finally:
            subprocess.run([guard, "serve", "--user", "--stop"], env=env, cwd=tmp,
                           stdout=subprocess.DEVNULL, check=False)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
