"""Quoted words read without the evaluator (words.quoted_literal): the same value the
evaluator gives, and the same bash gives."""

from __future__ import annotations

import subprocess

from hypothesis import given, settings
from hypothesis import strategies as st
from tree_sitter import Node

from guard.projection.line_projection import parser, terminated
from guard.projection.shell_state import Context, Scope
from guard.projection.words import Evaluator, quoted_literal

CTX = Context(cwd="/w/proj", env={"HOME": "/h/u", "X": "ex"}, workspace=("/w/proj",), home="/h/u")

# words bash reads as their text, words it expands, and words the fast path must leave alone
WORDS = [
    "'a b'", "''", '""', '"a b"', '"*.py"', "'*.py'", '"~/x"', "'$X'", '"$X"', '"a\\"b"',
    '"`echo x`"', '"x é"', "'x é'", '"{a,b}"', '"a\tb"', "'a\\b'", '"a!b"', '"#x"',
]


def _argument(src: bytes) -> Node:
    tree = parser().parse(terminated(src))
    command = tree.root_node.named_children[0]
    return command.named_children[-1]


def _evaluated(word: str) -> tuple[tuple[tuple[str, ...], ...], str, bool]:
    src = f"echo {word}".encode()
    value = Evaluator(src, Scope.start(CTX)).value(_argument(src))
    return value.alternatives, value.unknown, value.glob


def _fast(word: str) -> str | None:
    src = f"echo {word}".encode()
    node = _argument(src)
    return quoted_literal(node.type, src[node.start_byte : node.end_byte])


def test_the_words_read_without_the_evaluator_are_what_bash_makes_of_them() -> None:
    read = {w: _fast(w) for w in WORDS}
    assert read["'a b'"] == "a b" and read['"*.py"'] == "*.py" and read["'$X'"] == "$X"
    for left in ('"$X"', '"a\\"b"', '"`echo x`"', '"x é"'):  # expansions, escapes, non-ASCII
        assert read[left] is None
    fast = [w for w, v in read.items() if v is not None]
    script = "printf '%s\\0' " + " ".join(fast)
    printed = subprocess.run(
        ["bash", "--norc", "-c", script], capture_output=True, check=True
    ).stdout.decode()
    assert printed.split("\0")[:-1] == [read[w] for w in fast]


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="ab *?[]{},~$`\\\"'!#\t-é", max_size=12),
    st.sampled_from(["'", '"']),
)
def test_a_quoted_word_read_without_the_evaluator_has_the_evaluators_value(
    text: str, quote: str
) -> None:
    if quote == "'":
        text = text.replace("'", "")
    word = f"{quote}{text}{quote}"
    src = f"echo {word}".encode()
    tree = parser().parse(terminated(src))
    if tree.root_node.has_error:
        return
    fast = _fast(word)
    if fast is not None:
        assert _evaluated(word) == (((fast,),), "", False)


def _bash_value(word: str) -> str:
    printed = subprocess.run(
        ["bash", "--norc", "-c", f"printf '%s\\0' {word}"],
        capture_output=True,
        check=True,
        env={"X": "ex", "HOME": "/h/u", "PATH": "/usr/bin:/bin"},
    ).stdout.decode()
    return printed[:-1]


def test_blanks_before_an_expansion_or_the_closing_quote_are_kept_as_bash_keeps_them() -> None:
    """tree-sitter-bash gives the blanks before `$X`, `${X}`, `$(…)` inside double quotes to
    that expansion, and those before the closing quote to the quote: they are the word's."""
    for word in ('"$X $X"', '"$X "', '" ${X}"', '"  $X  "', '"$X\t${X} "', '" "', '"a $X b"'):
        assert _evaluated(word) == (((_bash_value(word),),), "", False), word


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["$X", "${X}", " ", "  ", "\t", "a", "-", "/"]), max_size=6))
def test_a_double_quoted_word_of_expansions_and_blanks_has_the_value_bash_gives(
    pieces: list[str],
) -> None:
    word = '"' + "".join(pieces) + '"'
    alternatives, unknown, glob = _evaluated(word)
    if unknown:  # `$Xa`: a variable this line does not know (guard asks): nothing to compare
        assert "is not set" in unknown
        return
    assert (alternatives, glob) == (((_bash_value(word),),), False)


def test_a_substitution_after_blanks_in_double_quotes_is_walked_and_asks_nothing_more() -> None:
    from guard.projection.line_projection import project

    for line in ('echo " $(date)"', 'echo "a  `date`"', 'echo "  $((1 + 2)) x"'):
        requests = project(line, CTX).requests
        assert [r.surface for r in requests if r.surface != "command"] == [], line
    assert [r.argv for r in project('echo " $(date)"', CTX).requests][-1] == ("date",)
