"""Producers: commands known to print paths under the roots they were given, feeding xargs or
a substitution, stand for paths under those roots rather than for anything at all."""

from __future__ import annotations

import pytest

from guard.languages.producer_output import printed_roots
from guard.projection.line_projection import project
from guard.projection.shell_state import Context

CTX = Context(cwd="/w/proj", env={"HOME": "/h/u"}, workspace=("/w/proj",), home="/h/u")

ROOTS = [
    (["find", ".", "-name", "*.py"], (".",)),
    (["find", "src", "lib", "-type", "f"], ("src", "lib")),
    (["find"], (".",)),
    (["find", "-L", "/o", "-name", "x"], ("/o",)),
    (["find", "-D", "tree", "-O2", "/o"], ("/o",)),
    (["find", ".", "-exec", "cat", "{}", ";"], None),  # prints what cat prints
    (["find", ".", "-printf", "%s\n"], None),
    (["git", "ls-files"], (".",)),
    (["git", "ls-files", "--format=%(objectname)"], None),
    (["git", "ls-files", "../other"], ("../other",)),
    (["git", "diff", "--name-only", "HEAD~1"], (".",)),
    (["git", "log"], None),
    (["rg", "-l", "TODO", "src"], ("src",)),
    (["rg", "--files", "/o"], ("/o",)),
    (["rg", "TODO"], None),  # prints lines, not names
    (["grep", "-rl", "TODO", "."], (".",)),
    (["grep", "-rl", "-e", "TODO", "/o"], ("/o",)),  # the pattern is -e's: /o is a root
    (["rg", "-l", "-eTODO", "/o"], ("/o",)),
    (["fd", "-e", "py"], (".",)),
    (["fd", "test", "/o"], ("/o",)),
    (["ls"], (".",)),
    (["ls", "-d", "/o/a", "/o/b"], ("/o/a", "/o/b")),
    (["fd", "--base-directory", "/o", "x"], None),
    (["ls", "-a"], None),  # `..` is a name it prints
    (["id", "-u"], (".",)),
    (["cat", "list.txt"], None),
]


@pytest.mark.parametrize(("argv", "roots"), ROOTS)
def test_where_the_printed_paths_lie(argv: list[str], roots: tuple[str, ...] | None) -> None:
    assert printed_roots(argv) == roots


# (line, external (path, access), asks about unknown paths)
LINES = [
    ("find . -name '*.py' | xargs wc -l", set(), False),
    ("wc -l $(git ls-files)", set(), False),
    ('wc -l "$(git ls-files)"', set(), False),
    ("git ls-files -z | xargs -0 wc -l", set(), False),
    ("rg -l TODO src | xargs grep -n FIXME", set(), False),
    ("find /o -name x | xargs cat", {("/o", "read")}, False),
    ("cat $(find /o -name x)", {("/o", "read")}, False),
    ("find . -name '*.py' | xargs -I{} wc -l {}", set(), False),
    ("find /o -name x | xargs -I{} cat {}", {("/o", "read")}, False),
    ("cat list.txt | xargs wc -l", set(), True),
    ("cat $(cat list.txt)", set(), True),
    ("find . -exec cat {} + | xargs wc -l", set(), True),
]


@pytest.mark.parametrize(("line", "expected", "unknown"), LINES)
def test_producer_output_is_paths_under_its_roots(
    line: str, expected: set[tuple[str, str]], unknown: bool
) -> None:
    requests = project(line, CTX).requests
    found = {(r.path or "", r.access or "") for r in requests if r.surface == "external_directory"}
    assert found == expected
    assert any(r.surface == "dynamic" and r.role == "path" for r in requests) == unknown
