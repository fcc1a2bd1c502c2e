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
from guard.knowledge.commands.spec import Spec

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


def spec_for(name: str) -> Spec | None:
    """The spec for a command name (a path's basename; `python3.11` is `python3`)."""
    base = name.rsplit("/", 1)[-1]
    found = SPECS.get(base)
    if found is not None:
        return found
    if base.startswith("mkfs."):  # mkfs.ext4, mkfs.vfat: before `ext4` loses its digit
        return SPECS["mkfs"]
    stripped = base.rstrip("0123456789.")
    if stripped != base and stripped:
        return SPECS.get(stripped)
    return None
