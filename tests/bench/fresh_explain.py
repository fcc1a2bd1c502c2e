"""`guard explain --json` as a fresh process, against a bare parse and `bash -c true`.

Run: ``.venv/bin/python tests/bench/fresh_explain.py [RUNS]``. Prints figures; asserts nothing.

Goal (issue 14): at most 25 ms over a bare ``python -c`` that imports tree-sitter and loads the
bash grammar, measured in the same run. Two lines: one the policy allows (no store is opened)
and one that asks (the approvals store is read). Medians: the machine may be busy. Bytecode is
cached as an installed guard's is (the warm-up run writes it if PYTHONDONTWRITEBYTECODE kept it
from being written).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

BARE = (
    "import tree_sitter, tree_sitter_bash; "
    "tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language())).parse(b'ls')"
)


def median_ms(argv: list[str], env: dict[str, str], cwd: str, runs: int) -> tuple[float, float]:
    subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, check=True)  # warm up
    spent = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
        spent.append((time.perf_counter() - start) * 1000)
    spent.sort()
    return statistics.median(spent), spent[int(len(spent) * 0.95) - 1]


def main(argv: list[str]) -> int:
    runs = int(argv[1]) if len(argv) > 1 else 40
    guard = os.path.join(os.path.dirname(sys.executable), "guard")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GUARD_STATE_DIR=os.path.join(tmp, "state"),  # .pyc as installed
                   GUARD_CONFIG=os.path.join(tmp, "policy.toml"), HOME=tmp,
                   GUARD_WORKSPACE=tmp)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed guard has its bytecode cached
        rows = [
            ("bash -c true", ["bash", "-c", "true"]),
            ("python -c pass", [sys.executable, "-c", "pass"]),
            ("bare parse (python, tree-sitter, grammar)", [sys.executable, "-c", BARE]),
            ("guard explain --json 'ls -la' (allow)", [guard, "explain", "--json", "--", "ls -la"]),
            ("guard explain --json 'cat /etc/hosts' (ask)",
             [guard, "explain", "--json", "--", "cat /etc/hosts"]),
        ]
        found = {}
        for name, command in rows:
            found[name] = median_ms(command, env, tmp, runs)
            print(f"{name:<46} median {found[name][0]:7.1f} ms   p95 {found[name][1]:7.1f} ms")
    bare = found[rows[2][0]][0]
    for name, _ in rows[3:]:
        print(f"{name:<46} {found[name][0] - bare:+7.1f} ms over the bare parse   goal <= 25 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
