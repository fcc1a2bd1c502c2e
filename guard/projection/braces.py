"""Brace expansion (`a{b,c}`, `{1..3}`) over a word's atoms, as bash does it before anything else.

Only unquoted literal characters (kind ``"c"``) can open, separate or close a brace group; quoted
text and expansions are single atoms that braces pass through untouched.
"""

from __future__ import annotations

import re
from typing import NamedTuple

MAX_EXPANSION = 256


class Atom(NamedTuple):
    text: str
    kind: str  # "c" unquoted literal character, "q" quoted text, "e" unquoted expansion


_SEQUENCE = re.compile(r"^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$")


def expand_braces(atoms: list[Atom]) -> list[list[Atom]] | None:
    """All words a brace expression stands for, in bash's order; None past MAX_EXPANSION
    (a word that long is not judged by its first few hundred parts)."""
    if not any(a.kind == "c" and a.text == "{" for a in atoms):
        return [atoms]
    done: list[list[Atom]] = []
    work = [atoms]
    while work:
        word = work.pop(0)
        group = _first_group(word)
        if group is None:
            done.append(word)
        else:
            start, end, alternatives = group
            for alt in alternatives:
                work.append(word[:start] + alt + word[end + 1 :])
        if len(done) + len(work) > MAX_EXPANSION:
            return None
    return done or [atoms]


def _first_group(word: list[Atom]) -> tuple[int, int, list[list[Atom]]] | None:
    for start, atom in enumerate(word):
        if atom.kind != "c" or atom.text != "{":
            continue
        if start > 0 and word[start - 1].kind == "c" and word[start - 1].text == "$":
            continue
        depth = 0
        commas: list[int] = []
        for i in range(start, len(word)):
            a = word[i]
            if a.kind != "c":
                continue
            if a.text == "{":
                depth += 1
            elif a.text == "}":
                depth -= 1
                if depth == 0:
                    alts = _alternatives(word, start, i, commas)
                    if alts is not None:
                        return start, i, alts
                    break
            elif a.text == "," and depth == 1:
                commas.append(i)
    return None


def _alternatives(
    word: list[Atom], start: int, end: int, commas: list[int]
) -> list[list[Atom]] | None:
    if commas:
        bounds = [start, *commas, end]
        return [word[bounds[k] + 1 : bounds[k + 1]] for k in range(len(bounds) - 1)]
    inner = word[start + 1 : end]
    if any(a.kind != "c" for a in inner):
        return None
    match = _SEQUENCE.match("".join(a.text for a in inner))
    if match is None:
        return None
    return [[Atom(ch, "q") for ch in item] for item in _sequence(*match.groups())]


def _sequence(first: str, last: str, step_text: str | None) -> list[str]:
    step = abs(int(step_text)) if step_text and int(step_text) != 0 else 1
    if first.lstrip("-").isdigit() and last.lstrip("-").isdigit():
        a, b = int(first), int(last)
        width = max(len(first), len(last)) if first.startswith("0") or last.startswith("0") else 0
        rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [str(n).zfill(width) for n in rng[: MAX_EXPANSION + 1]]
    if first.isalpha() and last.isalpha() and len(first) == len(last) == 1:
        a, b = ord(first), ord(last)
        rng = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [chr(n) for n in rng]
    return [f"{{{first}..{last}}}"]
