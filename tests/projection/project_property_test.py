"""Random and mutated input never raises, and a line with a syntax error is never allowed."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guard.policy.files import load_policy
from guard.projection.line_projection import INTERNAL_ERROR, parser, project, terminated
from guard.projection.parse_repair import repair
from guard.projection.shell_state import Context
from guard.verdict.decision import decide

CTX = Context(cwd="/w/proj", env={"HOME": "/h/u"}, workspace=("/w/proj",), home="/h/u")
SEEDS = [
    "cat /etc/hosts",
    "echo $(ls) `pwd` <(cut x)",
    "x=/etc; cat $x",
    "for a in b; do c; done",
    "if [ -f x ]; then y; fi",
    "cat <<EOF\n$(ls)\nEOF",
    "a && b || c | d &",
    "f() { g; }",
    "bash -c 'eval \"$1\"' _ 'rm -rf ~'",
    "case $x in a) b;; esac",
    "${x:-/etc}/{a,b}",
]
SHELL_CHARS = st.sampled_from(list("$`'\"\\(){}[]<>|&;!*?~#=/ \n\tabc-_0189"))


def verdict(line: str) -> str:
    projection = project(line, CTX)
    assert not any(INTERNAL_ERROR in r.reason for r in projection.requests)
    return decide(load_policy(None, home="/h/u"), projection, (), home="/h/u").decision


def has_syntax_error(line: str) -> bool:
    """An error in the tree, which guard's repairs of what tree-sitter-bash misreads (`<>`, a
    newline bash reads as `;`; guard/projection/parse_repair.py) do not mend. The line is parsed
    as guard parses it, ended as bash reads it (`cat 0<<EOF …` ends its here-document only
    where a newline follows the last EOF)."""
    src = line.encode("utf-8", "surrogateescape")
    tree = parser().parse(terminated(src))
    if not tree.root_node.has_error:
        return False
    repaired = repair(src, tree, lambda text: parser().parse(terminated(text)))
    return repaired is None or repaired.tree.root_node.has_error


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(SHELL_CHARS, max_size=60))
def test_random_shell_text_never_raises_and_errors_never_allow(line: str) -> None:
    decision = verdict(line)
    assert decision in ("allow", "ask", "deny")
    if has_syntax_error(line):
        assert decision != "allow"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(SEEDS), st.integers(0, 80), st.integers(0, 4), st.text(SHELL_CHARS, max_size=4)
)
def test_mutated_lines_never_raise_and_errors_never_allow(
    seed: str, at: int, cut: int, insert: str
) -> None:
    at = min(at, len(seed))
    line = seed[:at] + insert + seed[at + cut :]
    decision = verdict(line)
    if has_syntax_error(line):
        assert decision != "allow"


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40))
def test_any_unicode_never_raises(line: str) -> None:
    assert verdict(line) in ("allow", "ask", "deny")

