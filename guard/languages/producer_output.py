"""What a producer prints: the roots of the paths `find src`, `git ls-files` or `rg -l` print,
read from its argv with its row in guard/knowledge/producers.py, and the text `echo` and
`printf` of literal words print."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from guard.knowledge import PRODUCERS, Producer


def printed_roots(argv: Sequence[str]) -> tuple[str, ...] | None:
    """Where the paths `argv` prints lie, if it is a known producer; else None."""
    rows = PRODUCERS.get(argv[0].rsplit("/", 1)[-1]) if argv else None
    for row in rows or ():
        found = _roots(row, argv)
        if found is not None:
            return found
    return None


class Listed(NamedTuple):
    """Which files below its roots a producer may print (knowledge/producers.py)."""

    hidden: bool  # names starting with "." too
    names: tuple[str, ...] | None  # only names matching one of these globs (None: any)
    tracked: bool  # only files git tracks


def printed_files(argv: Sequence[str]) -> Listed | None:
    """Which files below its roots `argv` may print, when it is a known producer; else None."""
    rows = PRODUCERS.get(argv[0].rsplit("/", 1)[-1]) if argv else None
    for row in rows or ():
        if _roots(row, argv) is None:
            continue
        words = list(argv[1 + len(row.subcommand) :])
        hidden = row.hidden or any(
            w.split("=", 1)[0] in row.hidden_flags or w in row.hidden_flags for w in words
        )
        tracked = row.tracked and not any(w in ("-o", "--others") for w in words)
        names: tuple[str, ...] | None = None
        if row.names and row.expression:
            names = _expression_names(words, row)
        elif row.names and not any(w in _ALTERNATIVES for w in words):  # only narrowing tests
            found = [words[i + 1] for i, w in enumerate(words[:-1]) if w in row.names]
            names = tuple(found) or None
        return Listed(hidden, names, tracked)
    return None


_ALTERNATIVES = frozenset({"-o", "-or", "!", "-not", ",", "-prune"})
_PRINTS = frozenset({"-print", "-print0"})
_NOT = frozenset({"!", "-not"})


def _expression_names(words: list[str], row: Producer) -> tuple[str, ...] | None:
    """The globs of the names a find expression prints, branch by branch: `-name node_modules
    -prune -o -name '*.ts' -print` prints only `*.ts` (with a `-print` anywhere, a branch
    without one prints nothing; without, each prints what it matches). None when a branch
    that prints may print any name: it has no name test of its own (a negated one, `-path`
    or `-type` narrow nothing here), or the expression is grouped (`(`, `,`)."""
    at = 0
    while at < len(words) and words[at] in row.leading:  # find -L, -D debugopts
        at += 2 if words[at] in row.values else 1
    while at < len(words) and words[at][:1] not in row.expression:
        at += 1  # the roots
    expression = words[at:]
    if any(w in ("(", ")", ",") for w in expression):
        return None
    branches: list[list[str]] = [[]]
    for word in expression:
        if word in ("-o", "-or"):
            branches.append([])
        else:
            branches[-1].append(word)
    printing = any(w in _PRINTS for w in expression)
    names: list[str] = []
    for branch in branches:
        if printing and not any(w in _PRINTS for w in branch):
            continue  # `-name node_modules -prune`: this branch prints nothing
        given = [
            branch[i + 1]
            for i, w in enumerate(branch[:-1])
            if w in row.names and (i == 0 or branch[i - 1] not in _NOT)
        ]
        if not given:
            return None
        names.extend(given)
    return tuple(dict.fromkeys(names))


def _roots(row: Producer, argv: Sequence[str]) -> tuple[str, ...] | None:
    words = list(argv[1:])
    if tuple(words[: len(row.subcommand)]) != row.subcommand:
        return None
    words = words[len(row.subcommand) :]
    if row.prints != "paths" and any(w[:1] == "+" and ("/" in w or ".." in w) for w in words):
        return None  # a format that spells a path: `date +/etc/%F`
    if row.prints != "paths" and row.roots == "cwd" and not row.needs:
        return None if any(w.split("=", 1)[0] in row.refuses for w in words) else (".",)
    operands: list[str] = []
    given = patterned = False
    in_expression = False
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        name = word.split("=", 1)[0]
        if name in row.refuses:
            return None
        if word.startswith("-") and word != "-":
            given = given or name in row.needs or _letters_given(word, row.needs)
            patterned = patterned or name in row.patterns or word[:2] in row.patterns
            if row.expression and not operands and not in_expression and word[:2] in row.leading:
                skip = word in row.values
            elif row.expression and word[:1] in row.expression:
                in_expression = True
            elif name in row.values and "=" not in word:
                skip = True
            continue
        if row.expression and word[:1] in "(!":
            in_expression = True
        if not in_expression:
            operands.append(word)
        elif row.expression:
            continue
    if row.needs and not given:
        return None
    if row.roots == "cwd":
        return (".",)
    if row.roots == "after-first" and not patterned:
        operands = operands[1:]
    return tuple(operands) or (".",)


def _letters_given(word: str, needs: frozenset[str]) -> bool:
    """`-rl` gives -l."""
    if word.startswith("--"):
        return False
    return any(f"-{letter}" in needs for letter in word[1:])


# printf's escapes in its format, and where a character is left as written
_PRINTF_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "a": "\a", "r": "\r"}
_CONVERSION = re.compile(r"%(%|s)")


def printed_text(argv: Sequence[str]) -> str | None:
    """What `echo WORDS` or `printf FORMAT ARGS` of literal words prints; None where guard
    cannot say for sure. A backslash in what echo prints is unknown: bash's echo keeps it and
    zsh's (and `echo -e`) reads it, so the lines a reader sees would differ; printf's format
    escapes are the same in every shell, and only its `%s` and `%%` are read."""
    name = argv[0].rsplit("/", 1)[-1] if argv else ""
    words = list(argv[1:])
    if name == "echo":
        newline = True
        while words and words[0] in ("-n", "-e", "-E", "-ne", "-en", "-nE", "-En"):
            newline = newline and "n" not in words.pop(0)
        text = " ".join(words)
        return None if "\\" in text else text + ("\n" if newline else "")
    if name != "printf":
        return None
    if words[:1] == ["--"]:
        words = words[1:]
    if not words or words[0].startswith("-"):
        return None  # printf -v NAME: it prints nothing, or an option guard does not know
    form, values = words[0], words[1:]
    out: list[str] = []
    while True:
        used = 0
        i = 0
        while i < len(form):
            ch = form[i]
            if ch == "\\":
                escaped = _PRINTF_ESCAPES.get(form[i + 1 : i + 2])
                if escaped is None:
                    return None  # octal, \x, \c …: not read
                out.append(escaped)
                i += 2
            elif ch == "%":
                match = _CONVERSION.match(form, i)
                if match is None:
                    return None  # %d, %5s, %b …: not read
                if match.group(1) == "%":
                    out.append("%")
                else:
                    out.append(values[used] if used < len(values) else "")
                    used += 1
                i = match.end()
            else:
                out.append(ch)
                i += 1
        values = values[used:]
        if not values or not used:  # the format is used again while arguments remain
            return "".join(out)
