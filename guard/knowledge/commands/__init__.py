"""What common commands do with their arguments, as data.

Each `Spec` says which options take a value, what role operands play (a path read or written, a
pattern, a message, shell code, a command to run), and which options name paths. The reader in
`guard/languages/arguments.py` applies a spec to an argv. Add knowledge here, not `if`s in the
walker.

Roles: "read", "write", "execute", "chdir" are accesses; "data" is not a path, on purpose;
"path" is a read of whatever looks like a path — the default for every word a spec does not
declare data (operands, the values of `values` options not in `text`/TEXT_VALUES, options no
spec knows): unknown is an access; "code" is shell code run by this shell or a child;
"command" starts a command this one runs (wrappers).
"""

from __future__ import annotations

from functools import lru_cache

from guard.knowledge.commands import (
    archives,
    build,
    builtins,
    containers,
    databases,
    files,
    interpreters,
    network,
    shells,
    system,
    text,
    vcs,
)
from guard.knowledge.commands.command import Command
from guard.knowledge.commands.interpreter import Interpreter
from guard.knowledge.commands.spec import Spec
from guard.knowledge.effect_knowledge import ALIASES, TOOLS
from guard.knowledge.verbs import HELP_LAST, OWN_ROWS, QUIET, SUBCOMMAND_CLIS

# one table: a family listed later wins where two name the same command (an editor's spec in
# text.py wins over the one its interpreter record gives it)
SPECS: dict[str, Spec] = {
    **interpreters.SPECS,
    **builtins.SPECS,
    **network.SPECS,
    **shells.SPECS,
    **text.SPECS,
    **databases.SPECS,
    **files.SPECS,
    **archives.SPECS,
    **vcs.SPECS,
    **build.SPECS,
    **system.SPECS,
    **containers.SPECS,
}


def _spec(base: str) -> Spec | None:
    found = SPECS.get(base)
    if found is not None:
        return found
    if base.startswith("mkfs."):  # mkfs.ext4, mkfs.vfat: before `ext4` loses its digit
        return SPECS["mkfs"]
    stripped = base.rstrip("0123456789.")
    if stripped != base and stripped:
        return SPECS.get(stripped)
    return None


def _interpreter(filed: str) -> Interpreter | None:
    found = interpreters.INTERPRETERS.get(filed)
    if found is None:  # lua5.4, python3.12, tclsh8.6
        stripped = filed.rstrip("0123456789.-")
        found = interpreters.INTERPRETERS.get(stripped) if stripped and stripped != filed else None
    return found


def _record(base: str) -> Command:
    filed = ALIASES.get(base) or ("mkfs" if base.startswith("mkfs.") else base)
    spec = _spec(base)
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
        interpreter=_interpreter(filed) if effects is None else None,
        subcommands=subcommands,
        own_rows=OWN_ROWS.get(filed, ""),
        quiet=QUIET.get(filed, ()),
        help_last=HELP_LAST.get(filed, ""),
    )


_NAMES = (*SPECS, *TOOLS, *ALIASES, *interpreters.INTERPRETERS, *OWN_ROWS, *QUIET, *HELP_LAST)
RECORDS: dict[str, Command] = {name: _record(name) for name in (*_NAMES, *SUBCOMMAND_CLIS)}


def command_for(name: str) -> Command:
    """The record of a command name or path (`/usr/bin/git`, `python3.12`, `mkfs.ext4`): the one
    reader of command knowledge."""
    base = name.rsplit("/", 1)[-1]
    found = RECORDS.get(base)
    return found if found is not None else _derived(base)


@lru_cache(maxsize=4096)
def _derived(base: str) -> Command:
    """A name no record is filed under: a versioned one (`python3.12`), or one guard does not
    know (its record is empty)."""
    return _record(base)
