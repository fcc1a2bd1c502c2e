"""Where a producer's output lies: the roots of the paths `find src`, `git ls-files` or `rg -l`
print, read from its argv with its row in guard/knowledge/producers.py."""

from __future__ import annotations

from collections.abc import Sequence

from guard.knowledge import PRODUCERS, Producer


def printed_roots(argv: Sequence[str]) -> tuple[str, ...] | None:
    """Where the paths `argv` prints lie, if it is a known producer; else None."""
    rows = PRODUCERS.get(argv[0].rsplit("/", 1)[-1]) if argv else None
    for row in rows or ():
        found = _roots(row, argv)
        if found is not None:
            return found
    return None


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
