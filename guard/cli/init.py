"""`guard init bash|zsh`: print the shell hook to `eval` from ~/.bashrc or ~/.zshrc.

The hook is a real shell file shipped in the package (shell-hooks/); the one substitution is the
absolute path of this guard program, so the hook keeps working whatever PATH the shell has.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys

from guard.errors import GuardError

SHELLS = {"bash": "guard.bash", "zsh": "guard.zsh"}
BIN_LINE = "__guard_bin=guard "


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "init",
        help='print the shell hook: eval "$(guard init bash)" in ~/.bashrc (or zsh, ~/.zshrc)',
    )
    p.add_argument("shell", choices=sorted(SHELLS), help="the shell whose hook to print")
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(render(args.shell, guard_program()))
    if os.environ.get("GUARD_WORKSPACE"):  # the shell's session starts here: say it once
        from guard.approvals.workspace import choose_workspace, current_dir

        home = os.environ.get("HOME") or os.path.expanduser("~")
        chosen = choose_workspace(current_dir(os.environ), os.environ, home)
        if chosen.warning:
            print(chosen.warning, file=sys.stderr)
    return 0


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
    for i, line in enumerate(lines):
        head, found, _ = line.partition(BIN_LINE)
        if found and head in ("", "typeset -g "):
            lines[i] = f"{head}__guard_bin={shlex.quote(program)}\n"
            return "".join(lines)
    raise GuardError(f"guard: the shipped {shell} hook has no {BIN_LINE.strip()} line; reinstall")


def guard_program() -> str:
    """The absolute path of the guard program that is running, else the one on PATH."""
    here = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if here and os.path.basename(here) == "guard" and os.access(here, os.X_OK):
        return here
    found = shutil.which("guard")
    if found:
        return os.path.abspath(found)
    raise GuardError("guard: cannot tell where the guard program is; put it on PATH and retry")
