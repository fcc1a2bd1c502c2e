"""One record per command: everything guard knows of a command name, found with one reader.

The first step of issue 27's layout: the knowledge still lives in its tables (argument specs in
this package's families, effect rows in guard/knowledge/effect_knowledge.py, interpreter
records in interpreters.py, the verb model's rows in guard/knowledge/verbs.py); `command_for`
gathers them into one `Command`, so a reader asks one place and the tables can move into the
records family by family without the readers changing.
"""

from __future__ import annotations

from typing import NamedTuple

from guard.knowledge.commands import spec_for
from guard.knowledge.commands.interpreters import Interpreter, interpreter_for
from guard.knowledge.commands.spec import Spec
from guard.knowledge.effect_knowledge import ALIASES, TOOLS, Tool
from guard.knowledge.verbs import OWN_ROWS, QUIET, SUBCOMMAND_CLIS


class Command(NamedTuple):
    """What guard knows of one command name (None: nothing of that kind)."""

    name: str  # the name the knowledge is filed under (`mkfs` for `mkfs.ext4`)
    spec: Spec | None  # which words are paths, code, commands (guard/languages/arguments.py)
    effects: Tool | None  # what it destroys, discards, publishes … (guard/projection/effects.py)
    interpreter: Interpreter | None  # how it takes code (-c, -e, stdin)
    subcommands: bool  # a CLI with subcommands: the verb model reads its subcommand path
    own_rows: str  # why the verb model leaves it to its rows ("" when it does not)
    quiet: tuple[tuple[tuple[str, ...], str], ...]  # subcommand paths that remove nothing lost


def command_for(name: str) -> Command:
    """The record of a command name or path (`/usr/bin/git`, `python3.12`, `mkfs.ext4`)."""
    base = name.rsplit("/", 1)[-1]
    filed = ALIASES.get(base) or ("mkfs" if base.startswith("mkfs.") else base)
    spec = spec_for(name)
    effects = TOOLS.get(filed)
    subcommands = filed not in OWN_ROWS and (
        filed in SUBCOMMAND_CLIS
        or (spec is not None and spec.subcommands)
        or (effects is not None and any(row.sub for row in effects.effects))
    )
    return Command(
        name=filed,
        spec=spec,
        effects=effects,
        interpreter=interpreter_for(filed) if effects is None else None,
        subcommands=subcommands,
        own_rows=OWN_ROWS.get(filed, ""),
        quiet=QUIET.get(filed, ()),
    )


def known(name: str) -> bool:
    """Whether guard has any knowledge of a command name."""
    record = command_for(name)
    return record.spec is not None or record.effects is not None or record.interpreter is not None
