"""The shell hook as `guard init` prints it and guarded bash loads it: the real shell file shipped
in the package (shell-hooks/) with one substitution, the absolute path of the guard program.
"""

from __future__ import annotations

import shlex

from guard import dirs
from guard.errors import GuardError

SHELLS = {"bash": "guard.bash", "zsh": "guard.zsh", "fish": "guard.fish"}
BIN_LINE = "__guard_bin=guard "
FISH_BIN_LINE = "set -g __guard_bin guard\n"


def hook_text(shell: str) -> str:
    """The hook file as shipped, before the path is filled in."""
    from importlib.resources import files

    try:
        return (files("guard") / "shell-hooks" / SHELLS[shell]).read_text(encoding="utf-8")
    except (OSError, KeyError) as exc:
        raise GuardError(
            f"guard: cannot read the {shell} hook shipped with guard ({exc}); reinstall guard"
        ) from exc


def render(shell: str, program: str) -> str:
    """The hook with `program` as the guard it runs."""
    lines = hook_text(shell).splitlines(keepends=True)
    if shell == "fish" and FISH_BIN_LINE in lines:
        lines[lines.index(FISH_BIN_LINE)] = f"set -g __guard_bin {fish_quote(program)}\n"
        return "".join(lines)
    for i, line in enumerate(lines):
        head, found, _ = line.partition(BIN_LINE)
        if found and head in ("", "typeset -g "):
            lines[i] = f"{head}__guard_bin={shlex.quote(program)}\n"
            return "".join(lines)
    raise GuardError(f"guard: the shipped {shell} hook has no {BIN_LINE.strip()} line; reinstall")


def fish_quote(text: str) -> str:
    """`text` as one fish word: single quotes, in which fish reads \\ and \' as escapes."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def guard_program() -> str:
    """The guard program the hook runs (guard.dirs.guard_program); without one, an error."""
    found = dirs.guard_program()
    if found:
        return found
    raise GuardError("guard: cannot tell where the guard program is; put it on PATH and retry")
