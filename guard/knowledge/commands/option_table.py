"""How a variable that carries a tool's options (`NODE_OPTIONS`, `RUSTFLAGS`) is read: the
`env` of a command's record (guard/knowledge/commands/command.py)."""

from __future__ import annotations

from typing import Literal, NamedTuple


class OptionTable(NamedTuple):
    """How a variable's value is read: split into words as the tool splits it, then each word
    (a separate value joined to its option: `-C linker=x` is `-Clinker=x`) is looked up.

    `code`: option prefixes that load code, run programs or open a debugger: they ask.
    `joined`: options whose value is the next word.
    `assignments`: words `NAME=value` (not options) set the tool's variables: they ask.
    Any other word, or its value after `=` or `:`, that looks like a path is a read."""

    tool: str
    code: tuple[str, ...]
    split: Literal["shell", "space", "unit"] = "shell"
    joined: frozenset[str] = frozenset()
    assignments: bool = False
