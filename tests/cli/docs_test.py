"""The docs say what guard does: README's table of ways in has each row once, the refusals
docs/agents.md quotes are the ones guarded-bash and an agent's hook print, and docs/prompt.md
names the answers that are one key as the prompt takes them."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from agent_payloads import PAYLOADS

from guard.asking.confirmation import question_for
from guard.asking.prompt import needs_confirming
from guard.verdict.judgement import judge

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def doc(name: str) -> str:
    return (ROOT / name).read_text()


def test_the_readme_lists_each_way_in_once() -> None:
    table = doc("README.md").split("## Ways in", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:3] for line in table.splitlines() if line.startswith("| ")][1:]
    wants = [want.strip() for want, _use in rows]
    uses = [use.strip() for _want, use in rows]
    assert len(set(wants)) == len(wants), wants
    assert len(set(uses)) == len(uses), uses


def fits(sample: str, printed: str, home: str) -> bool:
    """Whether `printed` (its home written `~`) is `sample`, where each … stands for any text."""
    shown = printed.replace(home, "~").strip()
    pattern = ".*?".join(re.escape(part) for part in sample.strip().split("…"))
    return re.fullmatch(pattern, shown) is not None


def lines_with(text: str, start: str) -> list[str]:
    """The lines of ``text`` (a sample each, between ``` fences) that start with ``start``."""
    lines = text.splitlines()
    return [line for before, line in itertools.pairwise(lines)
            if line.startswith(start) and before == "```"]  # fmt: skip


def test_the_refusals_in_docs_agents_are_the_real_text(tmp_path: Path) -> None:
    home = os.environ["HOME"]
    project = Path(home) / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    env = {**os.environ, "GUARD_CONFIG": f"{home}/.config/guard/policy.toml"}
    env.pop("GUARD_WORKSPACE", None)
    shell, hook = lines_with(doc("docs/agents.md"), "guard: denied `cat /etc/hosts`")
    refused = subprocess.run([str(BIN / "guarded-bash"), "-c", "cat /etc/hosts"], cwd=project,
                             env=env, capture_output=True, text=True, timeout=60,
                             stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    assert refused.returncode == 126
    assert fits(shell, refused.stderr, home), refused.stderr
    payload = json.dumps(PAYLOADS["codex"]("cat /etc/hosts", str(project)))
    answered = subprocess.run([str(BIN / "guard"), "hook", "codex"], cwd=project, env=env,
                              input=payload, capture_output=True, text=True, timeout=60,
                              start_new_session=True)  # fmt: skip
    reason = json.loads(answered.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert fits(hook, reason, home), reason


def test_docs_prompt_names_the_one_key_answers_as_the_prompt_takes_them(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)  # `p` is offered there
    env = {**os.environ, "GUARD_WORKSPACE": str(workspace)}
    question, _grants = question_for(judge("cat /etc/hosts", cwd=str(workspace), env=env), env)
    one = sorted(c.key for c in question.choices if not needs_confirming(c))
    two = sorted(c.key for c in question.choices if needs_confirming(c))
    keys = doc("docs/prompt.md").split("## Keys", 1)[1].split("\n## ", 1)[0]
    said_one = re.search(r"^\| ((?:`\w`, )*`\w`) \| one key", keys, re.M)
    said_two = re.search(r"^\| ((?:`\w`, )*`\w`) \(always\) \| two keys", keys, re.M)
    assert said_one and said_two
    assert sorted(re.findall(r"`(\w)`", said_one.group(1))) == one == ["d", "n", "s", "y"]
    assert sorted(re.findall(r"`(\w)`", said_two.group(1))) == two == ["a", "p"]
    assert "single key" not in doc("docs/prompt.md")
