"""Every line costs bounded time and memory: the blow-up patterns, alone and composed.

Each line is projected in a child process with a real context (a temporary workspace on disk,
real symlink resolution and globbing), which reports the CPU time the line took and its own peak
RSS. A blow-up asks, with a reason that says why; nothing takes more than a fixed multiple of a
trivial line's time, or 200 MiB.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CHILD = r"""
import json, resource, sys, time
from guard.verdict.decision import decide
from guard.policy.files import load_policy
from guard.projection.line_projection import project
from guard.verdict.workspace import build_context

cwd = sys.argv[1]
ctx = build_context(cwd, {"HOME": sys.argv[2], "PATH": "/usr/bin:/bin"})
policy = load_policy(None, home=ctx.home)

def cpu(line):
    start = time.process_time()
    projection = project(line, ctx)
    verdict = decide(policy, projection, (), home=ctx.home)
    return time.process_time() - start, verdict

def peak_mib():
    # VmHWM is this program's own peak: ru_maxrss keeps the peak of the process before exec
    # (a forked pytest of some hundred MiB), which says nothing of the projection
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

trivial = sorted(cpu("ls -l")[0] for _ in range(200))[100]
print(json.dumps({"trivial": trivial}), flush=True)
for raw in sys.stdin:
    took, verdict = cpu(json.loads(raw))
    rss = peak_mib()
    reasons = [d.request.reason for d in verdict.decided if d.decision != "allow"]
    print(json.dumps({"cpu": took, "rss_mib": rss, "decision": verdict.decision,
                      "reasons": reasons}), flush=True)
"""

# How many times a trivial line's CPU time a line may take: a trivial line costs ~0.05 ms and
# a line at most about 0.5 s of CPU time (guard/projection/budget.py), with room for a noisy
# measure.
MULTIPLE = 20_000
MAX_RSS_MIB = 200


class Child:
    def __init__(self, workspace: Path, home: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(workspace), str(home)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        self.trivial = float(json.loads(self.proc.stdout.readline())["trivial"])

    def run(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(line) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, f"the child died on {line[:80]!r}"
        result: dict[str, Any] = json.loads(answer)
        return result

    def bounded(self, line: str) -> dict[str, Any]:
        result = self.run(line)
        assert result["cpu"] < MULTIPLE * max(self.trivial, 1e-5), (line[:80], result["cpu"])
        assert result["rss_mib"] < MAX_RSS_MIB, (line[:80], result["rss_mib"])
        return result


@pytest.fixture(scope="module")
def child(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Child]:
    base = tmp_path_factory.mktemp("budget")
    workspace, home = base / "w", base / "h"
    home.mkdir()
    for a in "abcd":  # a tree for globs to walk: 4^4 directories
        for b in "abcd":
            for c in "abcd":
                for d in "abcd":
                    (workspace / "t" / a / b / c / d).mkdir(parents=True)
    (workspace / "a").mkdir()
    (workspace / ".git").mkdir()
    c = Child(workspace, home)
    yield c
    c.proc.kill()
    c.proc.wait()


def joined(part: str, times: int) -> str:
    return "; ".join([part] * times)


COMPLEX = "too complex to analyse"
LARGE = "too large to follow"
BLOW_UPS = [
    # eval of code that evals itself, three times a level
    ("x='eval $x $x $x'; eval $x", (COMPLEX, "nested more than")),
    ('x=\'eval "$x" "$x" "$x"\'; eval "$x" "$x" "$x"', (COMPLEX, "nested more than")),
    ('export x=\'bash -c "$x"; sh -c "$x"; bash -c "$x"\'; eval "$x"', (COMPLEX, "nested more")),
    (
        "set -- a b; " + joined('set -- "$@" "$@"', 30) + '; cat "$@"',
        ("positional parameters) is not",),
    ),
    ("a=/x; " + joined("a=$a$a", 40) + "; cat $a", (LARGE,)),
    ("a=/x; " + joined("a=$a/$a", 40) + "; cat $a", (LARGE,)),
    (
        "a=(x y); " + joined('a=("${a[@]}" "${a[@]}")', 30) + '; cat "${a[@]}"',
        ("is only known while",),
    ),
    (joined("cd a", 1600), (COMPLEX,)),
    ("ls " + " ".join(f"t/*/*/*/{i}*" for i in range(1000)), (COMPLEX,)),
    ("ls " + " ".join(["/*/*/*/*"] * 1000), ()),  # outside anyway: one pattern, matched once
    (
        "f0() { cat /etc/x; }; "
        + " ".join(f"f{i}() {{ f{i - 1}; f{i - 1}; f{i - 1}; }};" for i in range(1, 30))
        + " f29",
        (COMPLEX,),
    ),
    ("for a in 1 2 3 4; do " * 200 + "cat $a; " + "done; " * 200, ()),
    # one glob that matches nothing and would walk the whole filesystem to find that out
    ("cat /*/*/*/*/*/*/*/*/*/nothing-here", (COMPLEX, "outside the workspace")),
]


@pytest.mark.parametrize(("line", "why"), BLOW_UPS, ids=range(len(BLOW_UPS)))
def test_a_blow_up_asks_in_bounded_time_and_memory(
    child: Child, line: str, why: tuple[str, ...]
) -> None:
    result = child.bounded(line)
    assert result["decision"] != "allow", line[:80]
    if why:
        said = " | ".join(result["reasons"])
        assert any(w in said for w in why), (line[:80], said)


def test_ordinary_lines_are_not_touched_by_the_budget(child: Child) -> None:
    for line in (
        "cd a && ls -la && cd .. && git status",
        "for f in t/a/*; do ls $f; done",
        'x=$(date); echo "$x"; set -- a b c; echo "$@"',
        "f() { ls; }; f; f; f",
        'eval "ls -l"; bash -c "ls; pwd"',
        "(" * 200 + "ls" + ")" * 200 + "; " + joined("(cd a; ls)", 2000),  # long, not complex
    ):
        assert child.bounded(line)["decision"] == "allow", line


PARTS = st.sampled_from(
    [
        "x='eval $x $x'; eval $x",
        'set -- "$@" "$@"',
        "a=$a$a",
        'b=("${b[@]}" "${b[@]}")',
        "cd a",
        "ls t/*/*/*/*",
        "ls /*/*/*",
        "g() { g; f; f; }",
        "f() { g; g; cat $a; }",
        "f",
        'eval "$x $x"',
        'bash -c "$a"',
        "(cd a; ls)",
        "for i in $a; do cat $i; done",
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(PARTS, st.integers(1, 400)), min_size=1, max_size=6))
def test_compositions_of_blow_ups_stay_bounded(child: Child, parts: list[tuple[str, int]]) -> None:
    line = "a=x; set -- a; " + "; ".join(joined(part, times) for part, times in parts)
    child.bounded(line[:60_000])


GLOBS = ["*", "*/*", "*/*/*", "./*/*", "a/*/c/*.py", ".*", ".*/*", "*/.*", "*/.*/*", "**/*",
         "a/**", "*/", "*/*/", "lnk/*", "lnk/c/*", "s*/*", "[ad]/*", "a/b/c/f.py", "nope/*",
         "a/[b]/?", "a/b/.*", "a/b/c/*.p[y]"]


def test_the_bounded_glob_matches_what_glob_matches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import glob

    from guard.projection.bounded_glob import matches

    for d in ("a/b/c", ".h/x", "d/.e/f", "s p/q"):
        (tmp_path / d).mkdir(parents=True)
    for f in ("a/b/c/f.py", "a/x.py", ".h/x/y", "d/.e/f/g", "s p/q/r", "a/b/.hid"):
        (tmp_path / f).touch()
    (tmp_path / "lnk").symlink_to("a/b")
    monkeypatch.chdir(tmp_path)
    for pattern in [*GLOBS, f"{tmp_path}/*/*", f"{tmp_path}/a/b/*"]:
        assert sorted(matches(pattern)) == sorted(glob.glob(pattern)), pattern


def test_a_glob_that_would_list_too_much_stops(tmp_path: Path) -> None:
    from guard.projection.bounded_glob import matches
    from guard.projection.budget import OverBudget

    for n in range(30):
        (tmp_path / f"d{n}" / "x").mkdir(parents=True)
    with pytest.raises(OverBudget, match="more than 40 directory entries"):
        matches(f"{tmp_path}/*/*/nothing", max_entries=40)
    assert len(matches(f"{tmp_path}/*/x", max_entries=40)) == 30
