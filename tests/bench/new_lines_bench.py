"""`guard explain --jsonl` on lines never seen before, next to tree-sitter's parse of them.

Run: ``.venv/bin/python tests/bench/new_lines_bench.py [LINES]``. Prints figures; asserts nothing.

A line never seen before is the common case for an agent (issue 27): its words differ from every
earlier line's, so no kept projection, verdict or word reading can answer it. This makes LINES
(5,000 unless given) unique lines of the kinds an agent types, each from a template filled with
varied paths, names and numbers (no two lines are equal), pipes them through one
`guard explain --jsonl` process started in a temporary workspace that holds some of the files
they name, and counts lines per second with its start-up (one line) taken off, by the clock and
per CPU second (steadier on a busy machine). In the same run, tree-sitter's bare parse of the same
lines in this process, for scale. Goal (issue 27): at least 8,000 new lines/s.
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from guard.projection.line_projection import parser

DIRS = ["src", "tests", "lib", "docs", "scripts", "src/api", "src/core", "pkg/util", "app/models",
        "web/components", "internal/store", "cmd/server", "examples", "tools", "config"]
STEMS = ["main", "utils", "config", "handler", "server", "client", "models", "views", "parser",
         "index", "router", "auth", "cache", "db", "schema", "test_api", "test_core", "helpers",
         "settings", "worker", "queue", "metrics", "logger", "errors", "types"]
EXTS = ["py", "ts", "js", "go", "rs", "md", "json", "yaml", "toml", "sh", "c", "tsx"]
WORDS = ["TODO", "FIXME", "import", "def ", "class ", "async", "return None", "raise", "error",
         "timeout", "retry", "cache_key", "user_id", "session", "token", "handler", "deprecated"]
BRANCHES = ["main", "develop", "feature/login", "fix/timeout", "release/2.1", "wip-cache"]
PACKAGES = ["requests", "numpy", "pytest", "flask", "lodash", "react", "express", "serde",
            "tokio", "rich", "httpx", "pydantic", "typescript", "eslint", "black", "ruff"]
HOSTS = ["api.example.com", "localhost:8080", "127.0.0.1:3000", "registry.internal", "example.org"]

# Each template takes a random generator and gives one line; together they are about what an
# agent's session holds: reading and searching files, git, tests, builds, packages, edits.
Template = Callable[[random.Random], str]


def _file(r: random.Random) -> str:
    return f"{r.choice(DIRS)}/{r.choice(STEMS)}{r.randint(0, 99) or ''}.{r.choice(EXTS)}"


def _dir(r: random.Random) -> str:
    return r.choice(DIRS) + r.choice(["", "/", f"/{r.choice(STEMS)}"])


TEMPLATES: list[Template] = [
    lambda r: f"cat {_file(r)}",
    lambda r: f"head -n {r.randint(5, 200)} {_file(r)}",
    lambda r: f"tail -{r.randint(5, 200)} {_file(r)}",
    lambda r: f"sed -n '{(a := r.randint(1, 400))},{a + r.randint(5, 80)}p' {_file(r)}",
    lambda r: f"wc -l {_file(r)} {_file(r)}",
    lambda r: f"ls -la {_dir(r)}",
    lambda r: f"grep -rn \"{r.choice(WORDS)}\" {_dir(r)} | head -{r.randint(5, 50)}",
    lambda r: f"rg -n '{r.choice(WORDS)}{r.randint(0, 9)}' {_dir(r)} --type {r.choice(EXTS)}",
    lambda r: f"find {_dir(r)} -name '*.{r.choice(EXTS)}' -type f | head -{r.randint(5, 90)}",
    lambda r: f"git diff {r.choice(['', '--stat ', 'HEAD~1 ', '--cached '])}-- {_file(r)}",
    lambda r: f"git log --oneline -n {r.randint(3, 60)} -- {_dir(r)}",
    lambda r: f"git add {_file(r)} {_file(r)}",
    lambda r: f'git commit -m "{r.choice(["fix", "feat", "refactor", "test"])}: '
              f'{r.choice(WORDS).strip()} in {r.choice(STEMS)} ({r.randint(1, 9999)})"',
    lambda r: f"git checkout -b {r.choice(BRANCHES)}-{r.randint(1, 999)}",
    lambda r: f"git show {r.randbytes(4).hex()}:{_file(r)}",
    lambda r: f"python3 -m pytest {_file(r)} -q -k {r.choice(STEMS)}_{r.randint(1, 99)}",
    lambda r: f"python3 {r.choice(DIRS)}/{r.choice(STEMS)}.py --limit {r.randint(1, 9999)}",
    lambda r: f"npm run {r.choice(['build', 'test', 'lint', 'dev'])} -- {_file(r)}",
    lambda r: f"cd {_dir(r)} && make -j{r.randint(2, 16)} {r.choice(STEMS)}",
    lambda r: f"mkdir -p {_dir(r)}/{r.choice(STEMS)}{r.randint(0, 999)} && cp {_file(r)} "
              f"{_dir(r)}/",
    lambda r: f"echo \"{r.choice(WORDS)} {r.randint(0, 99999)}\" >> {_file(r)}",
    lambda r: f"cat > {_file(r)} <<'EOF'\n{r.choice(WORDS)} = {r.randint(0, 9999)}\n"
              f"print({r.choice(STEMS)})\nEOF",
    lambda r: f"pip install {r.choice(PACKAGES)}=={r.randint(0, 9)}.{r.randint(0, 40)}."
              f"{r.randint(0, 9)}",
    lambda r: f"npm install --save-dev {r.choice(PACKAGES)}@^{r.randint(1, 20)}.{r.randint(0, 9)}",
    lambda r: f"curl -s http://{r.choice(HOSTS)}/v{r.randint(1, 3)}/{r.choice(STEMS)}"
              f"/{r.randint(1, 9999)} | jq '.{r.choice(STEMS)}'",
    lambda r: f"rm -f {_file(r)}",
    lambda r: f"mv {_file(r)} {_file(r)}",
    lambda r: f"for f in {_dir(r)}/*.{r.choice(EXTS)}; do wc -l \"$f\"; done",
    lambda r: f"sed -i 's/{r.choice(STEMS)}/{r.choice(STEMS)}{r.randint(0, 99)}/g' {_file(r)}",
    lambda r: f"awk -F, '{{print ${r.randint(1, 9)}}}' {_file(r)} | sort | uniq -c | sort -rn",
    lambda r: f"export LOG_LEVEL={r.choice(['debug', 'info'])}{r.randint(0, 99)}; "
              f"go test ./{r.choice(DIRS)}/... -run Test{r.choice(STEMS).title()}",
    lambda r: f"cargo test {r.choice(STEMS)}_{r.randint(0, 999)} -- --nocapture",
    lambda r: f"tar czf {r.choice(STEMS)}-{r.randint(0, 999)}.tgz {_dir(r)}",
    lambda r: f"chmod +x scripts/{r.choice(STEMS)}{r.randint(0, 999)}.sh",
    lambda r: f"diff -u {_file(r)} {_file(r)}",
    lambda r: f"docker run --rm -v \"$PWD\":/w -w /w {r.choice(PACKAGES)}:{r.randint(1, 30)} "
              f"{r.choice(['make', 'pytest', 'npm test'])}",
    lambda r: f"ls {_dir(r)} 2>/dev/null || echo missing-{r.randint(0, 99999)}",
    lambda r: f"python3 -c 'import {r.choice(PACKAGES)}; print({r.randint(0, 999)})'",
]


def unique_lines(count: int, seed: int = 27) -> list[str]:
    """`count` different lines, the templates taken in turn, each filled until it is new; a
    template that gives no new line in 200 tries has given all it has, and is left out."""
    r = random.Random(seed)
    seen: set[str] = set()
    lines: list[str] = []
    spent: set[int] = set()
    turn = 0
    while len(lines) < count:
        if len(spent) == len(TEMPLATES):
            raise SystemExit(f"the templates make only {len(lines):,} different lines")
        index = turn % len(TEMPLATES)
        turn += 1
        if index in spent:
            continue
        for _ in range(200):
            line = TEMPLATES[index](r)
            if line not in seen:
                seen.add(line)
                lines.append(line)
                break
        else:
            spent.add(index)
    return lines


def workspace(root: str) -> None:
    """Some of the files and directories the lines name, so that part of them exist."""
    r = random.Random(1)
    for d in DIRS:
        os.makedirs(os.path.join(root, d), exist_ok=True)
    for _ in range(120):
        path = os.path.join(root, _file(r))
        Path(path).write_text("x\n")


def piped(guard: str, data: bytes, env: dict[str, str], cwd: str) -> tuple[float, float]:
    """The clock's seconds and the CPU time (user + system) the child spent."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([guard, "explain", "--jsonl"], input=data, env=env, cwd=cwd,
                   stdout=subprocess.DEVNULL, check=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def main(argv: list[str]) -> int:
    count = int(argv[1]) if len(argv) > 1 else 5_000
    rounds = int(argv[2]) if len(argv) > 2 else 3
    guard = os.path.join(os.path.dirname(sys.executable), "guard")
    lines = unique_lines(count)
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    # a warm-up of each template twice, other lines than those measured: what a long-lived
    # process pays once (a tool family's import, its patterns' compiling) is its start-up
    known = set(lines)
    warm = [w for w in unique_lines(4 * len(TEMPLATES), seed=1) if w not in known]
    warm_data = "".join(json.dumps(line) + "\n" for line in warm).encode()
    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "home")
        work = os.path.join(home, "project")
        os.makedirs(work)
        workspace(work)
        env = dict(os.environ, GUARD_STATE_DIR=os.path.join(tmp, "state"),
                   GUARD_CONFIG=os.path.join(tmp, "policy.toml"), HOME=home,
                   GUARD_WORKSPACE=work, PWD=work)  # as a shell that starts it there says
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        one = json.dumps("true").encode() + b"\n"
        piped(guard, one, env, work)  # warm up: bytecode, the store
        start_up, cpu_start = medians([piped(guard, one, env, work) for _ in range(5)])
        whole, cpu_whole = medians([piped(guard, data, env, work) for _ in range(rounds)])
        warmed, cpu_warmed = medians([piped(guard, warm_data, env, work) for _ in range(5)])
        both = [piped(guard, warm_data + data, env, work) for _ in range(rounds)]
        warm_whole, cpu_warm_whole = medians(both)
    tree_sitter = parser()
    encoded = [line.encode() for line in lines]
    parses = []
    for _ in range(rounds):
        start = time.process_time()
        for source in encoded:
            tree_sitter.parse(source)
        parses.append(time.process_time() - start)
    per_second = count / max(whole - start_up, 1e-9)
    per_cpu_second = count / max(cpu_whole - cpu_start, 1e-9)
    parse_rate = count / max(statistics.median(parses), 1e-9)
    warm_per_second = count / max(warm_whole - warmed, 1e-9)
    warm_per_cpu_second = count / max(cpu_warm_whole - cpu_warmed, 1e-9)
    print(f"{count:,} unique lines from {len(TEMPLATES)} templates, one process, "
          f"median of {rounds} runs")
    print(f"guard explain --jsonl, every line new: {per_second:9,.0f} lines/s by the clock "
          f"(start-up {start_up * 1000:.0f} ms taken off), {per_cpu_second:,.0f} per CPU second"
          f"   goal >= 8,000")
    print(f"  that is {1e6 / per_cpu_second:.0f} µs of CPU a line")
    print(f"  after a warm-up of {len(warm)} other lines (each template's first use paid): "
          f"{warm_per_second:,.0f} lines/s by the clock, {warm_per_cpu_second:,.0f} per CPU "
          f"second, {1e6 / warm_per_cpu_second:.0f} µs of CPU a line")
    print(f"tree-sitter's bare parse, same lines:  {parse_rate:9,.0f} lines/s "
          f"({parse_rate / per_cpu_second:.0f}x explain --jsonl per CPU second)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
