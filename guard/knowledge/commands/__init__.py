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
    cloud,
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
from guard.knowledge.commands.names import unversioned
from guard.knowledge.commands.option_table import OptionTable
from guard.knowledge.commands.spec import Spec

# every family's records, each name filed in exactly one family (command_record_test checks)
FAMILIES: dict[str, Command] = {
    **interpreters.COMMANDS,
    **builtins.COMMANDS,
    **network.COMMANDS,
    **shells.COMMANDS,
    **text.COMMANDS,
    **files.COMMANDS,
    **archives.COMMANDS,
    **vcs.COMMANDS,
    **build.COMMANDS,
    **system.COMMANDS,
    **containers.COMMANDS,
    **cloud.COMMANDS,
    **databases.COMMANDS,
}
# Names with more than one spelling: `mkfs.ext4` is mkfs, `mke2fs` too.
ALIASES = {"mke2fs": "mkfs", "mkswap": "mkfs", "./gradlew": "gradlew", "./mvnw": "mvnw"}
# every argument spec, for a versioned name (`psql15`) to find its command's
_ALL_SPECS: dict[str, Spec] = {
    name: record.spec for name, record in FAMILIES.items() if record.spec is not None
}
_INTERPRETERS: dict[str, Interpreter] = {
    name: record.interpreter for name, record in FAMILIES.items() if record.interpreter is not None
}


def _spec(base: str) -> Spec | None:
    found = _ALL_SPECS.get(base)
    if found is not None:
        return found
    if base.startswith("mkfs."):  # mkfs.ext4, mkfs.vfat: before `ext4` loses its digit
        return _ALL_SPECS["mkfs"]
    for version in ("0123456789.", "0123456789.-"):  # psql15, then octave-cli-8.4.0
        stripped = unversioned(base, version)
        if stripped != base and stripped in _ALL_SPECS:
            return _ALL_SPECS[stripped]
    return None


def _interpreter(base: str) -> Interpreter | None:
    found = _INTERPRETERS.get(base)
    if found is None:  # lua5.4, python3.12, tclsh8.6
        stripped = unversioned(base, "0123456789.-")
        found = _INTERPRETERS.get(stripped) if stripped and stripped != base else None
    return found


def _filed(base: str) -> Command | None:
    """The record filed under a name or its alias, with its name."""
    filed = ALIASES.get(base) or ("mkfs" if base.startswith("mkfs.") else base)
    own = FAMILIES.get(filed)
    return own._replace(name=filed) if own is not None else None


def _record(base: str) -> Command:
    """A name no record is filed under: what its versioned form (`python3.12`) lends it."""
    spec = _spec(base)
    return Command(
        name=base,
        spec=spec,
        interpreter=_interpreter(base),
        subcommands=spec is not None and spec.subcommands,
    )


RECORDS: dict[str, Command] = {
    name: record for name in (*FAMILIES, *ALIASES) if (record := _filed(name)) is not None
}
# The commands whose output is made of their input (copies, compilers), from the records.
BUILDERS = frozenset(
    name
    for name, record in RECORDS.items()
    if record.builds or (record.spec is not None and record.spec.kind == "compiler")
)
# The commands that read or write files under home of their own accord, from the records' `home`.
HOME_COMMANDS = frozenset(name for name, record in RECORDS.items() if record.home)
# The commands that copy between here and another place (`docker cp`), from the records' `copies`.
COPIERS = frozenset(name for name, record in RECORDS.items() if record.copies)
# The commands with a subcommand that runs the command it is given, from the records' `runner`.
RUNNERS = {name: record.runner for name, record in RECORDS.items() if record.runner is not None}
# The commands that read every file below a directory, from the records' `recursive_read`.
RECURSIVE_READS = {
    name: record.recursive_read
    for name, record in RECORDS.items()
    if record.recursive_read is not None
}
# The commands that read more arguments from `@FILE`, from the records' `at_files`.
AT_FILE_COMMANDS = frozenset(name for name, record in RECORDS.items() if record.at_files)
# The options with which a command reads the names of files from its input, from the records.
STDIN_FILE_LISTS = {
    name: record.stdin_file_list for name, record in RECORDS.items() if record.stdin_file_list
}
# The commands that name files without reading them, and those that write only a file's mode,
# owner or times, from the records' `names_only` and `metadata_only`.
NAMES_ONLY = frozenset(name for name, record in RECORDS.items() if record.names_only)
METADATA_ONLY = frozenset(name for name, record in RECORDS.items() if record.metadata_only)
# The readers of arguments that mean more than a spec says, by command, from the records.
CORNERS = {name: record.corners for name, record in RECORDS.items() if record.corners}
# The container engines (`docker run --privileged`), from the records' `container`.
CONTAINER_COMMANDS = frozenset(name for name, record in RECORDS.items() if record.container)
# The variables that carry a command's options (`NODE_OPTIONS`), from the records' `env`.
OPTION_VARIABLES: dict[str, OptionTable] = {
    variable: table for record in FAMILIES.values() for variable, table in record.env
}


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
    found = _filed(base)
    return found if found is not None else _record(base)
