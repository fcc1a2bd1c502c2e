"""A judgement as one JSON line: what `json.dumps` would write, escapes and all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guard.entry.judgement_json import JsonLines, as_json
from guard.verdict.judgement import judge


@pytest.mark.parametrize(
    "line",
    [
        "cat src/main.py",
        "echo 'caf\u00e9 \u2603' > /tmp/out",
        "printf '\\x1b[31m' ; rm -rf /",
        'git commit -m "a \\"quoted\\" word"',
        "cat \udcff",
    ],
)
def test_a_line_of_json_is_what_json_dumps_writes(workspace: Path, line: str) -> None:
    judged = judge(line, cwd=str(workspace), session="json-test", agent=True, use_store=False)
    text = JsonLines().line(judged)
    assert text == json.dumps(as_json(judged), ensure_ascii=True) + "\n"
    assert text.isascii()
    assert json.loads(text)["command"] == line


@pytest.mark.parametrize(
    "line",
    [
        "rm -rf ~/old",  # an effect
        "$(cat x) y",  # dynamic, with a role
        "echo ${",  # syntax
        "cat ~/.ssh/id_rsa",  # protected
        "cd /etc && cat hosts",  # external_directory
        "git push --force origin main",
        "",
    ],
)
def test_each_kind_of_request_is_written_as_json_dumps_writes_it(
    workspace: Path, line: str
) -> None:
    judged = judge(line, cwd=str(workspace), session="json-test", agent=True, use_store=False)
    assert JsonLines().line(judged) == json.dumps(as_json(judged), ensure_ascii=True) + "\n"


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(st.characters(codec="utf-8", exclude_characters="\0"), max_size=40))
def test_any_line_is_written_as_json_dumps_writes_it(workspace: Path, line: str) -> None:
    judged = judge(line, cwd=str(workspace), session="json-test", agent=True, use_store=False)
    assert JsonLines().line(judged) == json.dumps(as_json(judged), ensure_ascii=True) + "\n"
