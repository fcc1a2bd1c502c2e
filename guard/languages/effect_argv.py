"""An argv split the way effects read it: every option given (bundled short options split,
`--opt=value`, a value in the next word for the options a tool lists), the values, the operands
in order and where `--` stood. The tools' lists of options that take a value are in
guard/knowledge/commands/ (its record), built from the command specs of guard/knowledge/commands/
where those exist.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from guard.knowledge import Tool


class Parsed(NamedTuple):
    """An argv split by a tool's options: every option given, values, operands in order."""

    options: frozenset[str]
    values: dict[str, str | None]
    operands: tuple[str | None, ...]
    dashdash: int  # how many operands came before `--` (all of them when there is none)


def parse(argv: Sequence[str | None], tool: Tool) -> Parsed:
    """Split argv[1:]: bundled short options, `--opt=value`, values in the next word, `--`."""
    options: set[str] = set()
    values: dict[str, str | None] = {}
    operands: list[str | None] = []
    dashdash = -1
    i, n = 1, len(argv)
    while i < n:
        arg = argv[i]
        i += 1
        if arg is None or dashdash >= 0 or arg == "-" or not arg.startswith("-"):
            operands.append(arg)
            if tool.ends_at_operand:
                operands.extend(argv[i:])
                break
            continue
        if arg == "--":
            dashdash = len(operands)
            continue
        mine = options if operands or not tool.global_first else set()  # git -C DIR: git's
        if arg.startswith("--") or (tool.single_dash_long and len(arg) > 2):
            name, eq, value = arg.partition("=")
            mine.add(name)
            if eq:
                values[name] = value
            elif name in tool.values and i < n:
                values[name] = argv[i]
                i += 1
            continue
        for j in range(1, len(arg)):
            opt = "-" + arg[j]
            mine.add(opt)
            if opt in tool.values:
                if j + 1 < len(arg):
                    values[opt] = arg[j + 1 :]
                elif i < n:
                    values[opt] = argv[i]
                    i += 1
                break
    return Parsed(frozenset(options), values, tuple(operands), dashdash if dashdash >= 0 else n)


def given(parsed: Parsed, flag: str, tool: Tool) -> bool:
    """Whether an option was given, abbreviated where the tool allows (`--ha` for `--hard`)."""
    if flag in parsed.options:
        return True
    if not tool.abbreviations or not flag.startswith("--"):
        return False
    return any(len(o) >= 4 and o.startswith("--") and flag.startswith(o) for o in parsed.options)
