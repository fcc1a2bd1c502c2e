"""From a word's parts to its value, as bash finishes a word: every combination of the parts'
alternatives, then brace expansion, tilde expansion and field splitting; glob characters are
kept as a pattern (`Value.glob`). `guard/projection/words.py` reads the parts from the tree.
"""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

from guard.projection.braces import Atom, expand_braces
from guard.projection.budget import MAX_FIELDS, too_large
from guard.projection.shell_state import MAX_ALTERNATIVES, Scope, Var

GLOB_CHARS = frozenset("*?[")


class Value(NamedTuple):
    """What a word expands to: alternatives, each a tuple of fields; or unknown with a reason."""

    alternatives: tuple[tuple[str, ...], ...]
    unknown: str = ""
    glob: bool = False

    @property
    def known(self) -> bool:
        return not self.unknown

    def single(self) -> str | None:
        """The one string this word is, when it is exactly one field in every way it can go."""
        if self.unknown or len(self.alternatives) != 1 or len(self.alternatives[0]) != 1:
            return None
        return self.alternatives[0][0]


# A part of a word before expansion: its possible texts and how it was quoted.
# kind "c": unquoted literal (brace/tilde/glob apply), "q": quoted, "e": unquoted expansion.
class Part(NamedTuple):
    options: tuple[str, ...] | None
    kind: str
    reason: str = ""


def assemble(parts: list[Part], scope: Scope, *, assignment: bool = False) -> Value:
    for p in parts:
        if p.options is None:
            return Value((), unknown=p.reason or "the value is not known before it runs")
    combos = 1
    for p in parts:
        combos *= max(1, len(p.options or ()))
        if combos > MAX_ALTERNATIVES:
            return Value((), unknown="the word has too many possible values")
    size = sum(max(map(len, p.options)) if p.options else 0 for p in parts)
    scope.budget.spend(1 + size * combos // 256, "expanding words")
    large = too_large(size, 0)
    if large:
        return Value((), unknown=large)
    if any(p.kind == "e" for p in parts):
        ifs = scope.lookup("IFS")
        if ifs.options != (" \t\n",) and not (
            ifs.options is None and ifs.reason.endswith("is not set")
        ):
            return Value((), unknown="IFS was changed, so how the word splits is not known")
    if all(p.kind == "q" for p in parts) and all(len(p.options or ()) == 1 for p in parts):
        text = "".join((p.options or ("",))[0] for p in parts)  # one quoted string: no expansion
        return Value((tuple(text.split("\0")),))
    alternatives: list[tuple[str, ...]] = []
    glob = False
    for choice in product(*[p.options or ("",) for p in parts]):
        atoms: list[Atom] = []
        for part, text in zip(parts, choice, strict=True):
            if part.kind == "c":
                atoms.extend(Atom(ch, "c") for ch in text)
            elif text:
                atoms.append(Atom(text, part.kind))
            else:
                atoms.append(Atom("", part.kind))
        words: list[str] = []
        expansions = expand_braces(atoms)
        if expansions is None:
            return Value((), unknown="the word's braces expand to too many words to check")
        for expanded in expansions:
            if assignment:  # as if the word were `v=value`, then without the `v=`
                tilded = _tilde([Atom("v", "c"), Atom("=", "c"), *expanded], scope)
                tilded = tilded[2:] if tilded is not None else None
            else:
                tilded = _tilde(expanded, scope)
            if tilded is None:
                return Value((), unknown="a ~ in the word names a directory that is not known")
            fields, g = _fields(tilded)
            glob = glob or g
            words.extend(fields)
        if len(words) > MAX_FIELDS:
            return Value((), unknown=too_large(0, len(words)))
        alternatives.append(tuple(words))
    return Value(tuple(dict.fromkeys(alternatives)), glob=glob)


def _tilde(atoms: list[Atom], scope: Scope) -> list[Atom] | None:
    """`~` at the start; and, in a word shaped like an assignment (`if=~/x`, `PATH=a:~/b`),
    after the `=` and after each `:` of the value, as bash does outside POSIX mode."""
    head = _tilde_prefix(atoms, scope)
    if head is None:
        return None
    name_end = 0
    while name_end < len(head) and head[name_end].kind == "c" and (
        head[name_end].text.isalnum() or head[name_end].text == "_"
    ):
        name_end += 1
    if not (0 < name_end < len(head) and head[name_end].kind == "c"
            and head[name_end].text == "=" and not head[0].text.isdigit()):
        return head
    out = head[: name_end + 1]
    segment: list[Atom] = []
    for atom in [*head[name_end + 1 :], Atom(":", "end")]:
        if atom.kind in ("c", "end") and atom.text == ":":
            expanded = _tilde_prefix(segment, scope, stop=":")
            if expanded is None:
                return None
            out.extend(expanded)
            if atom.kind == "c":
                out.append(atom)
            segment = []
        else:
            segment.append(atom)
    return out


def _tilde_prefix(atoms: list[Atom], scope: Scope, stop: str = "") -> list[Atom] | None:
    if not atoms or atoms[0].kind != "c" or atoms[0].text != "~":
        return atoms
    name_chars: list[str] = []
    i = 1
    while i < len(atoms) and atoms[i].kind == "c" and atoms[i].text not in ("/", stop or "/"):
        name_chars.append(atoms[i].text)
        i += 1
    if i < len(atoms) and atoms[i].kind != "c":
        return atoms  # a quoted or expanded part inside the tilde prefix: no expansion
    name = "".join(name_chars)
    if name == "":
        var = scope.lookup("HOME")
    elif name == "+":
        var = scope.lookup("PWD")
    elif name == "-":
        var = scope.lookup("OLDPWD")
    else:
        home = scope.user_home(name)
        if home is None:
            return atoms  # an unknown user: bash leaves the word as it is
        var = Var((home,))
    if var.options is None or len(var.options) != 1:
        return None
    return [Atom(var.options[0], "q"), *atoms[i:]]


def _fields(atoms: list[Atom]) -> tuple[tuple[str, ...], bool]:
    fields: list[str] = []
    current: list[str] = []
    have = False  # a quoted part, even empty, makes a field
    glob = False
    for atom in atoms:
        if atom.kind == "c":
            current.append(atom.text)
            have = True
            glob = glob or atom.text in GLOB_CHARS
        elif atom.kind == "q":
            pieces = atom.text.split("\0")
            current.append(pieces[0])
            have = True
            for piece in pieces[1:]:
                fields.append("".join(current))
                current = [piece]
        else:  # unquoted expansion: split on blanks
            words = atom.text.split()
            glob = glob or any(c in GLOB_CHARS for c in atom.text)
            if not words:
                if atom.text and have:
                    fields.append("".join(current))
                    current, have = [], False
                continue
            if atom.text[0].isspace() and have:
                fields.append("".join(current))
                current = []
            current.append(words[0])
            have = True
            for w in words[1:]:
                fields.append("".join(current))
                current = [w]
            if atom.text[-1].isspace():
                fields.append("".join(current))
                current, have = [], False
    if have:
        fields.append("".join(current))
    return tuple(fields), glob
