"""Command, path and text patterns match what they say, and nothing more."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guard.projection.patterns import (
    command_matches,
    escape_command,
    escape_path,
    escape_text,
    literal_head,
    path_matches,
    render_argv,
    text_matches,
)

HOME = "/home/u"


@pytest.mark.parametrize(
    ("argv", "rendered"),
    [
        (("git", "status"), "git status"),
        (("git", "commit", "-m", "a b"), "git commit -m 'a b'"),
        (("echo", ""), "echo ''"),
        (("echo", "it's"), "echo 'it'\\''s'"),
        (("printf", "a\\nb"), "printf 'a\\nb'"),
        (("echo", 'say "hi"'), "echo 'say \"hi\"'"),
        (("ls", "*.py", "a=b", "~x"), "ls *.py a=b ~x"),
    ],
)
def test_an_argv_renders_as_one_line_with_odd_arguments_quoted(
    argv: tuple[str, ...], rendered: str
) -> None:
    assert render_argv(argv) == rendered


def test_different_argvs_never_render_alike() -> None:
    assert render_argv(("bash", "-c", "rm x")) != render_argv(("bash", "-c", "rm", "x"))
    assert render_argv(("a", "b c")) != render_argv(("a", "b", "c"))
    assert render_argv(("a", "")) != render_argv(("a",))


COMMANDS = [
    # a trailing whole-word * is any words, none included
    ("git status *", ("git", "status"), True),
    ("git status *", ("git", "status", "--short"), True),
    ("git status *", ("git", "statusx"), False),
    ("git push *", ("git", "pusher"), False),
    ("git push *", ("git", "commit"), False),
    # a whole-word * in the middle is any words, none included
    ("git push * --force", ("git", "push", "--force"), True),
    ("git push * --force", ("git", "push", "origin", "main", "--force"), True),
    ("git push * --force", ("git", "push", "origin", "--forced"), False),
    ("* --force", ("anything", "--force"), True),
    ("* --force", ("--force",), True),
    ("*", (), True),
    ("*", ("x", "y"), True),
    # a * inside a word stays inside it
    ("rm * -*r*", ("rm", "-rf", "x"), True),
    ("rm * -*r*", ("rm", "-fr", "x"), True),
    ("rm * -*r*", ("rm", "x", "-vr"), True),
    ("rm * -*r*", ("rm", "-f", "bar"), False),
    ("rm * -*r*", ("rm", "file.txt"), False),
    ("ls *.py", ("ls", "a.py"), True),
    ("ls *.py", ("ls", "a", "b.py"), False),
    # a * at the very end matches the rest of the line
    ("mkfs*", ("mkfs.ext4", "/dev/sda1"), True),
    ("mkfs*", ("mkfs",), True),
    ("dd * of=*", ("dd", "if=x", "of=/dev/sda", "bs=1M"), True),
    ("dd * of=*", ("dd", "if=x"), False),
    # everything else is literal
    ("git log --format=%h?", ("git", "log", "--format=%h?"), True),
    ("git log --format=%h?", ("git", "log", "--format=%hx"), False),
    ("[ -f x ]", ("[", "-f", "x", "]"), True),
    ("grep a.c", ("grep", "abc"), False),
    # arguments with spaces are written quoted, as rendered
    ("git commit -m 'a b'", ("git", "commit", "-m", "a b"), True),
    ("git commit -m a b", ("git", "commit", "-m", "a b"), False),
    # \* is a literal star, \\ a literal backslash
    ("echo \\*", ("echo", "*"), True),
    ("echo \\*", ("echo", "x"), False),
    ("echo a\\\\*", ("echo", "a\\b"), False),
    ("grep \\d", ("grep", "\\d"), False),  # rendered quoted: grep '\d'
    ("grep '\\\\d'", ("grep", "\\d"), True),
    # a path is matched as written unless asked to match by name
    ("rm * -*r*", ("/bin/rm", "-rf", "x"), False),
    ("/bin/rm *", ("/bin/rm", "x"), True),
]


@pytest.mark.parametrize(("pattern", "argv", "expected"), COMMANDS)
def test_a_command_pattern_matches_what_it_says(
    pattern: str, argv: tuple[str, ...], expected: bool
) -> None:
    assert command_matches(pattern, argv) is expected


@pytest.mark.parametrize(
    ("pattern", "argv", "expected"),
    [
        ("rm * -*r*", ("/bin/rm", "-rf", "x"), True),
        ("rm * -*r*", ("./bin/rm", "-rf", "x"), True),
        ("rm * -*r*", ("/bin/rm", "x"), False),
        ("/usr/bin/rm *", ("/bin/rm", "x"), False),  # a pattern with a path keeps its path
    ],
)
def test_by_name_a_pattern_without_a_directory_also_matches_a_command_run_by_path(
    pattern: str, argv: tuple[str, ...], expected: bool
) -> None:
    assert command_matches(pattern, argv, by_name=True) is expected


@pytest.mark.parametrize(
    "argv",
    [
        ("python3", "-c", "print('*')"),
        ("bash", "-c", "rm -rf *"),
        ("echo", "a\\*b", "\\\\"),
        ("git", "commit", "-m", "fix: a  b"),
        ("find", ".", "-name", "*.py", "-exec", "rm", "{}", ";"),
        ("echo", ""),
    ],
)
def test_the_escaped_rendering_matches_exactly_that_argv(argv: tuple[str, ...]) -> None:
    pattern = escape_command(render_argv(argv))
    assert command_matches(pattern, argv)
    assert not command_matches(pattern, (*argv, "x"))
    assert not command_matches(pattern, argv[:-1])
    assert not command_matches(pattern, (*argv[:-1], argv[-1] + "x"))


PATHS = [
    ("/tmp/**", "/tmp", True),
    ("/tmp/**", "/tmp/a", True),
    ("/tmp/**", "/tmp/a/b/c", True),
    ("/tmp/**", "/tmpx", False),
    ("/tmp/**", "/var/tmp/a", False),
    ("/a/**/b", "/a/b", True),
    ("/a/**/b", "/a/x/y/b", True),
    ("/a/**/b", "/a/xb", False),
    ("/etc", "/etc", True),
    ("/etc", "/etc/hosts", False),
    ("/etc/", "/etc", True),
    ("/etc/*", "/etc/hosts", True),
    ("/etc/*", "/etc/ssh/sshd_config", False),
    ("/etc/*.conf", "/etc/x.conf", True),
    ("/etc/host?", "/etc/hosts", True),
    ("/etc/host?", "/etc/host/s", False),
    ("/etc/a**b", "/etc/axxb", True),
    ("/etc/a**b", "/etc/a/b", False),
    ("/", "/", True),
    ("/", "/etc", False),
    ("/**", "/", True),
    ("/**", "/anything/at/all", True),
    ("~", "/home/u", True),
    ("~/", "/home/u", True),
    ("~/.ssh/**", "/home/u/.ssh/id_ed25519", True),
    ("~/.ssh/**", "/home/other/.ssh/id_ed25519", False),
    ("~user/x", "/home/u/x", False),
    ("/data/a\\*b", "/data/a*b", True),
    ("/data/a\\*b", "/data/axb", False),
    ("/srv/app/**", "/srv/app2/x", False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), PATHS)
def test_a_path_pattern_matches_what_it_says(pattern: str, path: str, expected: bool) -> None:
    assert path_matches(pattern, path, home=HOME) is expected


def test_the_home_directory_is_taken_literally() -> None:
    assert path_matches("~/x", "/home/a*b/x", home="/home/a*b")
    assert not path_matches("~/x", "/home/aZb/x", home="/home/a*b")


@pytest.mark.parametrize("path", ["/etc/hosts", "/data/a*b?c", "/data/back\\slash", "/x/**"])
def test_an_escaped_path_matches_exactly_that_path(path: str) -> None:
    pattern = escape_path(path)
    assert path_matches(pattern, path, home=HOME)
    assert not path_matches(pattern, path + "x", home=HOME)
    assert not path_matches(pattern, path + "/x", home=HOME)


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        ("$EDITOR", "$EDITOR", True),
        ("$EDITOR", "$EDITORS", False),
        ("$(*)", "$(git rev-parse HEAD)", True),
        ("*", "anything at all\nover lines", True),
        ("a?c", "abc", False),
        ("\\*", "*", True),
        ("\\*", "x", False),
    ],
)
def test_a_text_pattern_matches_what_it_says(pattern: str, text: str, expected: bool) -> None:
    assert text_matches(pattern, text) is expected


def test_an_escaped_text_matches_exactly_that_text() -> None:
    text = "$(ls *)"
    assert text_matches(escape_text(text), text)
    assert not text_matches(escape_text(text), "$(ls x)")


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        *(c[:2] for c in COMMANDS if c[2]),
        ("git * push *", ("git", "push")),
        ("echo a?b *", ("echo", "a?b")),
    ],
)
def test_every_command_match_starts_with_the_patterns_literal_head(
    pattern: str, text: tuple[str, ...]
) -> None:
    assert command_matches(pattern, text)
    assert render_argv(text).startswith(literal_head(pattern))


@pytest.mark.parametrize(("pattern", "path"), [c[:2] for c in PATHS if c[2]])
def test_every_path_match_starts_with_the_patterns_literal_head(pattern: str, path: str) -> None:
    assert path.startswith(literal_head(pattern, HOME, path=True))


@pytest.mark.parametrize(
    ("pattern", "head"),
    [
        ("git push *", "git push"),
        ("rm * -*r*", "rm"),
        ("* --force", ""),
        ("echo \\*", "echo"),
        ("$(*)", "$("),
    ],
)
def test_the_literal_head_is_the_text_before_the_first_wildcard(pattern: str, head: str) -> None:
    assert literal_head(pattern) == head


@pytest.mark.parametrize(
    ("pattern", "head"),
    [("/tmp/**", "/tmp"), ("/etc/", "/etc"), ("~/.ssh/*", "/home/u/.ssh"), ("/**", ""), ("/", "/")],
)
def test_the_literal_head_of_a_path_pattern_allows_the_directory_itself(
    pattern: str, head: str
) -> None:
    assert literal_head(pattern, HOME, path=True) == head


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab -'\"\\\t\n\u00a0*", max_size=5), max_size=5))
def test_an_argv_renders_as_its_words_rendered_one_by_one(argv: list[str]) -> None:
    """The one search of the joined line (render_argv's common case) renders what rendering
    each word gives: quotes for an empty word and for any blank, quote or backslash in one."""
    one_by_one = " ".join(w if w and not re.search(r"[\s'\"\\]", w) else
                          "'" + w.replace("'", "'\\''") + "'" for w in argv)
    assert render_argv(argv) == one_by_one


def _rendered_word_by_word(argv: tuple[str, ...]) -> str:
    """What render_argv says, each word quoted when it is empty or holds a blank, a quote or
    a backslash (its slow path, taken for every argv)."""
    return " ".join(
        "'" + w.replace("'", "'\\''") + "'" if not w or re.search(r"[\s'\"\\]", w) else w
        for w in argv
    )


BLANKS_AND_QUOTES = [" ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x85", "\xa0",
                     "\u2028", "\u3000", "\x01", "'", '"', "\\", "a", "/", "é"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(st.sampled_from(BLANKS_AND_QUOTES), max_size=4), min_size=1, max_size=4))
def test_an_argv_renders_as_its_words_each_quoted_when_it_must_be(words: list[str]) -> None:
    # the common case (no word needs quotes) is told from the whole line at once
    argv = tuple(words)
    assert render_argv(argv) == _rendered_word_by_word(argv)
