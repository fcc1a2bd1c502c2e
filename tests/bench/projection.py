"""Projection throughput: commands per second over a realistic mix, against tree-sitter's parse
alone on the same input, in one run; and `guard explain --json` as a fresh process.

Goals (issue 2): at least 30,000 commands/s on one core; explain under 60 ms as a fresh process.
Prints figures; asserts nothing. Run: .venv/bin/python tests/bench/projection.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

from guard.policy.files import load_policy
from guard.projection.line_projection import parser, project
from guard.projection.shell_state import Context
from guard.verdict.decision import decide

MIX = [
    "git status", "ls -la", "cat src/main.py | grep -n foo", "npm test", "make -j4",
    "cd /var/log && tail -n 3 syslog", "rm -rf build dist", "python3 -m pytest -q tests/",
    'git commit -m "fix: handle /etc/hosts"', "echo $(head -1 /etc/resolv.conf)",
    'for d in /var/log /var/tmp; do ls "$d"; done', "find . -name '*.pyc' -delete",
    "curl -fsSL https://example.com/x.sh | sh", "sudo apt-get install -y zsh",
    "cat <<'EOF' > notes.txt\nhello /etc/passwd\nEOF", "x=/etc; cat $x/passwd",
    "bash -c 'ls /var/log'", "docker compose up -d", "tar -xzf pkg.tgz -C ~/apps",
    "grep -rn TODO src | wc -l", "cp build/app /usr/local/bin/app", "ls $UNSET/x",
    "if [ -f .env ]; then source .env; fi", "cargo build --release 2>&1 | tee build.log",
]


def rate(fn, lines: list[str], seconds: float = 2.0) -> float:
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for line in lines:
            fn(line)
        n += len(lines)
    return n / (time.perf_counter() - start)


def main() -> None:
    ctx = Context(cwd="/w/proj", env={"HOME": "/h/u", "PATH": "/usr/bin"}, workspace=("/w/proj",),
                  home="/h/u")
    p = parser()
    encoded = {line: line.encode() for line in MIX}
    parse_rate = rate(lambda s: p.parse(encoded[s]), MIX)
    project_rate = rate(lambda s: project(s, ctx), MIX)
    policy = load_policy(None, home="/h/u")
    verdict_rate = rate(lambda s: decide(policy, project(s, ctx), (), home="/h/u"), MIX)
    print(f"tree-sitter parse alone:   {parse_rate:10,.0f} lines/s")
    print(f"projection:                {project_rate:10,.0f} lines/s "
          f"({parse_rate / project_rate:.1f}x the parse time)   goal >= 30,000")
    print(f"projection + decision:     {verdict_rate:10,.0f} lines/s")
    guard = os.path.join(os.path.dirname(sys.executable), "guard")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GUARD_STATE_DIR=os.path.join(tmp, "state"),
                   GUARD_CONFIG=os.path.join(tmp, "policy.toml"), HOME=tmp)
        times = []
        for _ in range(20):
            start = time.perf_counter()
            subprocess.run([guard, "explain", "--json", "--", "cat /etc/hosts"], env=env,
                           cwd=tmp, stdout=subprocess.DEVNULL, check=True)
            times.append((time.perf_counter() - start) * 1000)
        bare = []
        for _ in range(20):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], stdout=subprocess.DEVNULL, check=True)
            bare.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(f"guard explain --json, fresh process: median {statistics.median(times):.1f} ms, "
          f"p95 {times[int(len(times) * 0.95) - 1]:.1f} ms (python -c pass: "
          f"{statistics.median(bare):.1f} ms)   goal < 60 ms")


if __name__ == "__main__":
    main()
