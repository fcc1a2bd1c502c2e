"""The README tells the truth: its `explain` sample is what guard prints today, its quick start
says how `guard` gets on PATH, and the session lifetime it states is the code's."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
BIN = Path(sys.executable).parent
RULE_LINE = re.compile(r"default-policy\.toml:\d+")  # other changes to the policy move its lines


def sample() -> tuple[str, list[str]]:
    """The command line of the README's `$ guard explain -- '…'` sample, and what it shows."""
    block = re.search(r"```\n\$ guard explain -- '([^']*)'\n(.*?)```", README, re.S)
    assert block, "the README has no `$ guard explain -- '…'` sample"
    return block.group(1), block.group(2).rstrip("\n").split("\n")


def normal(lines: list[str]) -> list[str]:
    return [RULE_LINE.sub("default-policy.toml:N", " ".join(line.split())) for line in lines]


def test_the_readme_explain_sample_is_what_guard_prints(tmp_path: Path) -> None:
    """Run where the README says: in a git repository of one's own, home elsewhere. Every line
    of the sample is in the output, in order (sections added later may sit between them), and
    the marks, requests and verdict are the same."""
    command, shown = sample()
    workspace = Path(os.environ["HOME"]) / "src" / "app"
    workspace.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    done = subprocess.run([str(BIN / "guard"), "explain", "--", command], cwd=workspace,
                          capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    printed = normal(done.stdout.rstrip("\n").split("\n"))
    wanted = normal(shown)
    at = 0
    for line in wanted:
        assert line in printed[at:], (line, printed)
        at = printed.index(line, at) + 1
    requests = [ln for ln in printed if re.match(r"(allow|ask|deny) ", ln)]
    assert requests == [ln for ln in wanted if re.match(r"(allow|ask|deny) ", ln)]
    assert done.stdout.split("\n")[1] == shown[1]  # the ^ marks, to the column


def test_the_quick_start_says_how_guard_gets_on_path() -> None:
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert ".venv/bin/guarded-bash" in quick and ". .venv/bin/activate" in quick
    venv = BIN.parent
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c",
                           f". {venv}/bin/activate && command -v guard && guard -V"],
                          capture_output=True, text=True, timeout=60, check=True,
                          env={"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"]})  # fmt: skip
    where, version = done.stdout.splitlines()
    assert Path(where) == venv / "bin" / "guard" and version.startswith("guard ")


def test_the_readme_says_how_long_a_session_approval_lasts_as_the_code_does() -> None:
    from guard.verdict.store import schema as store_schema
    from guard.verdict.store import session

    said = re.search(r"idle \(no command\s+checked\) for (\d+) hours \(`GUARD_SESSION_IDLE`",
                     README)  # fmt: skip
    assert said, "the README no longer says how long a session approval lasts"
    hours = int(said.group(1))
    assert hours * 3600 == session.IDLE_SECONDS == store_schema.IDLE_SECONDS
    assert session.idle_seconds({}) == hours * 3600
    assert session.idle_seconds({"GUARD_SESSION_IDLE": "60"}) == 60
