"""`guard init bash|zsh`: print the shell hook to `eval` from ~/.bashrc or ~/.zshrc.

The hook is a real shell file shipped in the package (shell-hooks/); the one substitution is the
absolute path of this guard program, so the hook keeps working whatever PATH the shell has
(guard/entry/shell_hooks/init.py renders it).
"""

from __future__ import annotations

import argparse
import os
import sys

from guard.cli import summary
from guard.entry import SHELLS, guard_program, render


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("init", help=summary("init"))
    p.add_argument("shell", choices=sorted(SHELLS), help="the shell whose hook to print")
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(render(args.shell, guard_program()))
    if os.environ.get("GUARD_WORKSPACE"):  # the shell's session starts here: say it once
        from guard.verdict import choose_workspace, current_dir

        home = os.environ.get("HOME") or os.path.expanduser("~")
        chosen = choose_workspace(current_dir(os.environ), os.environ, home)
        if chosen.warning:
            print(chosen.warning, file=sys.stderr)
    return 0
