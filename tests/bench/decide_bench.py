"""How long the decision takes for one command line, and what loading the policy costs.

Run: ``.venv/bin/python tests/bench/decide_bench.py``. Prints figures; asserts nothing.

A typical line (`cd src && git push --force origin main 2>&1 | tee /tmp/log`) has five
requests. It is decided against the shipped policy plus ~50 user rules and ~100 approvals,
warm (patterns compiled on the first call, as in a long-lived process) and cold (every
pattern cache cleared first, as in a fresh `guard` process). The baseline is the same line
against the shipped policy with no approvals. Loading is reading and validating the files.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from guard.policy.files import load_policy
from guard.policy.shipped_policy import default_layer
from guard.projection import patterns
from guard.projection.requests import Projection, Request
from guard.verdict.decision import decide

RUNS = 2000
HOME = "/home/u"


@dataclass(frozen=True, slots=True)
class Granted:
    id: int
    scope: str
    surface: str
    pattern: str
    access: str | None


def user_rules(count: int) -> str:
    kinds = [
        ("command", "tool{n} deploy *", "ask"),
        ("command", "tool{n} * --yes *", "deny"),
        ("external_directory", "/srv/data{n}/**", "allow"),
        ("dynamic", "$VAR{n}", "allow"),
    ]
    out = []
    for n in range(count):
        surface, pattern, action = kinds[n % len(kinds)]
        out.append(
            f'[[rules]]\nsurface = "{surface}"\npattern = "{pattern.format(n=n)}"\n'
            f'action = "{action}"\n'
        )
    return "\n".join(out)


def approvals(count: int) -> tuple[Granted, ...]:
    out = []
    for n in range(count):
        if n % 2:
            out.append(Granted(n, "session", "command", f"tool{n} run *", None))
        else:
            out.append(Granted(n, "session", "external_directory", f"/opt/app{n}/**", "read"))
    return tuple(out)


LINE = Projection(
    "cd src && git push --force origin main 2>&1 | tee /tmp/log",
    "/home/u/app",
    ("/home/u/app",),
    (
        Request("command", (0, 6), "runs", argv=("cd", "src")),
        Request("command", (10, 38), "runs", argv=("git", "push", "--force", "origin", "main")),
        Request("command", (46, 58), "runs", argv=("tee", "/tmp/log")),
        Request("external_directory", (50, 58), "", path="/tmp/log", access="write", via="tee"),
        Request("external_directory", (0, 0), "", path="/etc/gitconfig", access="read", via="git"),
    ),
)


def measure(label: str, action: Callable[[], object], runs: int = RUNS) -> None:
    times = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        action()
        times.append(time.perf_counter_ns() - start)
    times.sort()
    median = statistics.median(times) / 1000
    p95 = times[int(len(times) * 0.95)] / 1000
    print(f"{label:<52} median {median:8.1f} µs   p95 {p95:8.1f} µs")


def cold(action: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        patterns.compile_command.cache_clear()
        patterns.compile_path.cache_clear()
        patterns.compile_text.cache_clear()
        return action()

    return run


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        user_file = Path(scratch) / "policy.toml"
        user_file.write_text(user_rules(50))
        missing = str(Path(scratch) / "none.toml")
        baseline = load_policy(None, home=HOME, user_file=missing)
        policy = load_policy(None, home=HOME, user_file=str(user_file))
        granted = approvals(100)
        print(f"{len(policy.rules)} rules, {len(granted)} approvals, {len(LINE.requests)} requests")
        print(f"verdict: {decide(policy, LINE, granted, home=HOME).decision}")
        measure(
            "baseline: shipped policy, no approvals, warm",
            lambda: decide(baseline, LINE, (), home=HOME),
        )
        measure("decide, warm", lambda: decide(policy, LINE, granted, home=HOME))
        measure(
            "decide, cold (pattern caches cleared)",
            cold(lambda: decide(policy, LINE, granted, home=HOME)),
            runs=300,
        )
        measure(
            "load_policy, warm (shipped file already parsed)",
            lambda: load_policy(None, home=HOME, user_file=str(user_file)),
            runs=300,
        )

        def fresh() -> object:
            default_layer.cache_clear()
            return load_policy(None, home=HOME, user_file=str(user_file))

        measure("load_policy, as in a fresh process", fresh, runs=300)


if __name__ == "__main__":
    main()
