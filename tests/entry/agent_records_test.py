"""One record per agent: an agent is its own module and one line of the registry.

Every table and branch about agents is read from the records, so an agent's name, as a string
of its own, is written nowhere in guard/ but in its module and in the registry: a table keyed
by agent, or an `if agent == …` branch, in a third module fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from guard.entry.agents.registry import MODULES, NAMES, agent, agents

ROOT = Path(__file__).resolve().parents[2] / "guard"
AGENTS_DIR = ROOT / "entry" / "agents"


def _names_written(path: Path) -> set[str]:
    return {
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in NAMES
    }


def test_an_agents_name_is_written_only_in_its_module_and_the_registry() -> None:
    allowed = {AGENTS_DIR / "registry.py"}
    stray = {}
    for path in sorted(ROOT.rglob("*.py")):
        if path in allowed:
            continue
        own = {n for n, m in MODULES.items() if path == AGENTS_DIR / f"{m}.py"}
        written = _names_written(path) - own
        if written:
            stray[str(path.relative_to(ROOT.parent))] = sorted(written)
    assert not stray, f"read these from the agents' records instead: {stray}"


def test_the_check_sees_a_name_written_elsewhere(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text('HOLD = {"codex": True}\n', encoding="utf-8")
    assert _names_written(tmp_path / "m.py") == {"codex"}


@pytest.mark.parametrize("name", NAMES)
def test_each_module_holds_the_record_of_its_own_agent(name: str) -> None:
    record = agent(name)
    assert record.agent == name
    assert record.parse.__module__ == f"guard.entry.agents.{MODULES[name]}"
    assert (record.entry is None) == (record.shape == "file") != (record.file_text is None)


def test_guard_hook_knows_exactly_the_registered_agents() -> None:
    from guard.entry.agents.resident_hook import AGENTS

    assert AGENTS == frozenset(agents()) == frozenset(NAMES)


def test_unknown_agent_is_no_record() -> None:
    with pytest.raises(KeyError):
        agent("vim")


def _covers(pattern: str, path: str) -> bool:
    from fnmatch import fnmatchcase

    return path == pattern or path.startswith(pattern + "/") or fnmatchcase(path, pattern)


def _shipped_writes() -> list[str]:
    import tomllib

    policy = tomllib.loads((ROOT / "default-policy.toml").read_text(encoding="utf-8"))
    writes: list[str] = policy["protected"]["writes"]
    return writes


def _agent_files() -> list[str]:
    files = []
    for record in agents().values():
        files.append(record.project_path)
        files.append(f"~/{record.user_path[1]}/{record.user_below}")
    return files


NOT_AGENT_CONFIG = {"~/.gitconfig", "~/.config/git", "~/.local/bin"}
OTHER_AGENT_FILES = {"~/Documents/Cline/Rules/Hooks"}  # Cline's older global hooks directory


def test_the_shipped_policy_protects_every_agents_config_file() -> None:
    """`guard setup` writes guard's hook into these files; an agent's line must not unwrite it."""
    writes = _shipped_writes()
    for path in _agent_files():
        assert any(_covers(p, path) for p in writes), f"{path} is not protected for writes"


def test_every_home_pattern_the_shipped_policy_protects_is_an_agents_config() -> None:
    """And the other way: a `~/` pattern for an agent names a file some agent record has."""
    files = _agent_files()
    for pattern in _shipped_writes():
        if not pattern.startswith("~/") or pattern in NOT_AGENT_CONFIG | OTHER_AGENT_FILES:
            continue
        assert any(_covers(pattern, path) for path in files), f"{pattern}: no agent's file"
