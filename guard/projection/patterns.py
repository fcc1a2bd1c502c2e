"""Patterns: how a policy rule or an approval names commands, paths and unknown text.

Command patterns are matched against an argv *rendered* as one line (`render_argv`):
arguments joined with single spaces, and an argument that is empty or holds whitespace, a quote
or a backslash shown in single quotes, so `git commit -m "a b"` reads `git commit -m 'a b'` and
no two different argvs read the same. In a command pattern

- a `*` that is a whole word stands for any run of words, none included
  (`git push * --force` matches `git push --force` and `git push origin main --force`);
- a `*` at the very end of the pattern matches anything to the end of the line, spaces
  included, so a pattern ending in `*` is a prefix (`mkfs*`, `dd * of=*`);
- any other `*` matches within one word (`rm * -*r*` catches `-rf`, `-fr`, `-vr`);
- `\\*` is a literal star and `\\\\` a literal backslash; every other character is literal.

Path patterns are globs on absolute paths: `**` as a whole component is any depth (none
included, so `/tmp/**` matches `/tmp` too), `*` is within one component, `?` one character,
`~` and `~/` the home directory, `\\` escapes. Without a wildcard a pattern names exactly one
path: `/etc` does not cover `/etc/hosts`. Text patterns (for `dynamic` and `syntax` requests)
only know `*`, any run of characters, and `\\` escapes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

_NEEDS_QUOTES = re.compile(r"[\s'\"\\]")


def render_argv(argv: Sequence[str]) -> str:
    """The one line a command pattern is matched against, and the way guard shows a command."""
    line = " ".join(argv)
    if (
        line.isprintable()  # every blank but the space is not (str.isprintable)
        and "'" not in line
        and '"' not in line
        and "\\" not in line
        and line.count(" ") == len(argv) - 1
        and "" not in argv
    ):
        return line  # no word needs quotes: its only spaces are the joins (the common case)
    return " ".join([_render_word(word) for word in argv])


def _render_word(word: str) -> str:
    if word and not _NEEDS_QUOTES.search(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def command_name(argv: Sequence[str]) -> str:
    """The command's name without its directory: `/usr/bin/git` → `git`."""
    return argv[0].rsplit("/", 1)[-1] if argv else ""


def escape_command(text: str) -> str:
    """The command pattern that matches exactly `text` (a rendered argv), stars included."""
    return text.replace("\\", "\\\\").replace("*", "\\*")


def escape_path(path: str) -> str:
    """The path pattern that matches exactly `path`, whatever glob characters it holds."""
    return re.sub(r"([\\*?])", r"\\\1", path)


def escape_text(text: str) -> str:
    """The text pattern that matches exactly `text`."""
    return escape_command(text)


class CommandPattern(NamedTuple):
    """A compiled command pattern. `by_name` when its first word holds no `/`: such a pattern
    may also be tried against the command name without its directory (see `decide`)."""

    regex: re.Pattern[str]
    by_name: bool


@lru_cache(maxsize=8192)
def compile_command(pattern: str) -> CommandPattern:
    words = pattern.split(" ")
    parts: list[str] = []
    separator = ""
    for index, word in enumerate(words):
        last = index == len(words) - 1
        if word == "*":
            if index == 0:
                parts.append(".*" if last else "(?:.* )?")
                separator = ""
            else:
                parts.append("(?: .*)?")
                separator = " "
            continue
        parts.append(separator + _word_regex(word, last=last))
        separator = " "
    return CommandPattern(re.compile("".join(parts), re.DOTALL), "/" not in words[0])


def _word_regex(word: str, *, last: bool) -> str:
    out: list[str] = []
    i = 0
    while i < len(word):
        c = word[i]
        if c == "\\" and i + 1 < len(word) and word[i + 1] in "\\*":
            out.append(re.escape(word[i + 1]))
            i += 2
            continue
        if c == "*":
            out.append(".*" if last and i == len(word) - 1 else "[^ ]*")
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def command_matches(pattern: str, argv: Sequence[str], *, by_name: bool = False) -> bool:
    """Whether `pattern` matches the command. With `by_name`, a pattern whose first word has no
    `/` also matches the command run by a path: `rm -rf *` catches `/bin/rm -rf x`."""
    compiled = compile_command(pattern)
    if compiled.regex.fullmatch(render_argv(argv)):
        return True
    if by_name and compiled.by_name and argv and "/" in argv[0]:
        renamed = (command_name(argv), *argv[1:])
        return compiled.regex.fullmatch(render_argv(renamed)) is not None
    return False


@lru_cache(maxsize=8192)
def compile_path(pattern: str, home: str) -> re.Pattern[str]:
    """A path pattern as a regex over absolute paths; `~` becomes `home` (taken literally)."""
    pattern = pattern.rstrip("/") or pattern[:1]  # `/etc/` is `/etc`, `~/` is `~`
    prefix = ""
    if pattern == "~" or pattern.startswith("~/"):
        prefix, pattern = re.escape(home.rstrip("/")), pattern[1:]
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
        elif pattern.startswith("/**", i) and pattern[i + 3 : i + 4] in ("", "/"):
            out.append("(?:/.*)?")  # `/**` is "and below", `/**/` any depth of directories
            i += 3
        elif c == "*":
            while i < len(pattern) and pattern[i] == "*":
                i += 1  # a `**` inside a component is just a `*`
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile(prefix + "".join(out), re.DOTALL)


def path_matches(pattern: str, path: str, *, home: str) -> bool:
    return compile_path(pattern, home).fullmatch(path) is not None


@lru_cache(maxsize=8192)
def literal_head(pattern: str, home: str = "", *, path: bool = False) -> str:
    """What every match of `pattern` starts with: its text before the first wildcard or escape.
    Comparing it first spares compiling patterns that cannot match (a fresh process pays
    for each compile). Works for command and text patterns, and path patterns with `path`.
    Kept for each pattern: decide asks it of every rule for every request of a line."""
    key = (pattern, home, path)
    head = _HEADS.get(key)
    if head is None:
        if len(_HEADS) >= 8192:
            _HEADS.clear()
        head = _HEADS[key] = _literal_head(pattern, home, path)
    return head


_HEADS: dict[tuple[str, str, bool], str] = {}


def _literal_head(pattern: str, home: str, path: bool) -> str:
    if path:
        pattern = pattern.rstrip("/") or pattern[:1]
        if pattern == "~" or pattern.startswith("~/"):
            pattern = home.rstrip("/") + pattern[1:]
    cut = min((i for i in (pattern.find(c) for c in "*?\\") if i >= 0), default=len(pattern))
    head = pattern[:cut]
    if path:
        return head.rstrip("/") if cut < len(pattern) else head  # `/tmp/**` matches `/tmp`
    return head.rstrip(" ")  # `git *` matches `git`


def is_relative_path_pattern(pattern: str) -> bool:
    return not (pattern.startswith("/") or pattern == "~" or pattern.startswith("~/"))


@lru_cache(maxsize=4096)
def compile_text(pattern: str) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern) and pattern[i + 1] in "\\*":
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "*" else re.escape(c))
        i += 1
    return re.compile("".join(out), re.DOTALL)


def text_matches(pattern: str, text: str) -> bool:
    return compile_text(pattern).fullmatch(text) is not None
