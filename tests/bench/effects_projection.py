"""What reading effects costs the projection: per-line time with the effect reader, against the
same projection with the reader switched off, in one run (rounds interleaved, best of each).

Goal (issue 13): effects make the projection no slower than 1.2x. Prints figures; asserts
nothing. Run: .venv/bin/python tests/bench/effects_projection.py
"""

from __future__ import annotations

import os
import sys
import time

from guard.projection import invocation
from guard.projection.line_projection import project
from guard.projection.shell_state import Context

ORDINARY = [
    "git status", "ls -la", "cat src/main.py | grep -n foo", "npm test", "make -j4",
    "cd /var/log && tail -n 3 syslog", "python3 -m pytest -q tests/",
    'git commit -m "fix: handle /etc/hosts"', "echo $(head -1 /etc/resolv.conf)",
    "docker compose up -d", "grep -rn TODO src | wc -l", "cargo build --release 2>&1 | tee b.log",
    "git log --oneline -n 5", "git diff --stat", "git checkout -b topic", "pytest -x tests",
]  # fmt: skip
EFFECTS = [
    "rm -rf build dist", "git checkout -- .", "git push --force-with-lease origin main",
    "git reset --hard HEAD~1", "find . -name '*.pyc' -delete", "sudo apt-get install -y zsh",
    "kubectl delete ns x", "docker system prune -af", "npm publish", "ssh prod 'rm -rf /srv/x'",
    "python3 -c 'import os; os.system(\"ls\")'", "psql -c 'DROP TABLE users'",
    "mycli delete user 42", "aws s3 rm s3://b/k --recursive", "git stash clear", "git push",
]  # fmt: skip
CTX = Context(
    cwd="/w/proj", env={"HOME": "/h/u", "PATH": "/usr/bin"}, workspace=("/w/proj",), home="/h/u"
)


def per_line(lines: list[str], seconds: float = 0.5) -> float:
    """CPU microseconds per line (other processes share the machine) over `seconds`."""
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for line in lines:
            project(line, CTX)
        n += len(lines)
    return (time.process_time() - start) / n * 1e6


def _no_effects(*_args: object) -> None:
    return None


def main() -> None:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from projection import MIX  # the projection benchmark's own mix

    reader = invocation.command_effects
    groups = (("projection.py's mix", MIX), ("ordinary lines", ORDINARY), ("with effects", EFFECTS))
    for name, lines in groups:
        with_reader: list[float] = []
        without: list[float] = []
        for _ in range(7):
            invocation.command_effects = _no_effects  # type: ignore[assignment]
            without.append(per_line(lines))
            invocation.command_effects = reader
            with_reader.append(per_line(lines))
        a, b = min(without), min(with_reader)
        print(
            f"{name:<20} without effects {a:7.1f} µs/line   with effects {b:7.1f} µs/line"
            f"   ratio {b / a:.2f}x   goal <= 1.20x"
        )


if __name__ == "__main__":
    main()
