"""A line judged again by a long-lived process gets the verdict a fresh process would give:
a kept projection (guard/verdict/cache/kept_projections.py) is used only while everything its walk
saw of the world is as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from guard.verdict.cache.line_cache import LineCache
from guard.verdict.judgement import Judgement, judge


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    ws = tmp_path / "ws"
    (ws / "docs").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    monkeypatch.setenv("GUARD_WORKSPACE", str(ws))
    return ws


def shown(result: Judgement) -> list[tuple[str, str, str]]:
    return [(d.request.surface, d.decision, d.request.reason) for d in result.verdict.decided]


def agree(cache: LineCache, line: str, ws: Path, env: dict[str, str] | None = None) -> str:
    """The kept answer and a fresh process's are the same; the decision."""
    env = dict(os.environ, **(env or {}))
    kept = judge(line, cwd=str(ws), env=env, cache=cache, use_store=False)
    fresh = judge(line, cwd=str(ws), env=env, use_store=False)
    assert shown(kept) == shown(fresh), line
    return kept.verdict.decision


@pytest.mark.parametrize(
    ("line", "change"),
    [
        ("cat docs/*.txt", "a match that leads out appears"),
        ("cat ~bob/x", "nothing: ~user is asked again each line"),
        ("source notes.sh", "the script becomes a link out"),
        ("cd docs && cat ../docs/a", "the directory becomes a link out"),
    ],
)
def test_a_kept_line_sees_what_changed_on_the_next_line(
    ws: Path, tmp_path: Path, line: str, change: str
) -> None:
    cache = LineCache()
    before = [agree(cache, line, ws) for _ in range(2)]
    if "match" in change:
        (ws / "docs" / "a.txt").symlink_to(tmp_path / "outside")
    elif "script" in change:
        (ws / "notes.sh").symlink_to(tmp_path / "outside" / "notes.sh")
    elif "directory" in change:
        (ws / "docs").rename(tmp_path / "outside" / "docs")
        (ws / "docs").symlink_to(tmp_path / "outside" / "docs")
    after = [agree(cache, line, ws) for _ in range(2)]
    if change.startswith("nothing"):
        assert after == before
    else:
        assert before == ["allow", "allow"] and after == ["ask", "ask"], (before, after)


def test_a_kept_line_follows_the_environment_it_is_judged_in(ws: Path) -> None:
    cache = LineCache()
    assert agree(cache, 'cat "$DATA"/x', ws, {"DATA": str(ws)}) == "allow"
    assert agree(cache, 'cat "$DATA"/x', ws, {"DATA": "/etc"}) == "ask"
    assert agree(cache, 'cat "$DATA"/x', ws, {"DATA": str(ws)}) == "allow"
