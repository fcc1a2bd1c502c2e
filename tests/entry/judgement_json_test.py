"""A judgement as one JSON line: what `json.dumps` would write, escapes and all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
