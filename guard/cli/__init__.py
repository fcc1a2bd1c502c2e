"""`guard`'s command line: parse, dispatch, map errors to exit codes; a module per subcommand.

Only the module of the subcommand asked for is imported: `guard check` runs on every line a
shell hook or guarded-bash sees, and importing every subcommand would cost it time. `guard
check -- LINE`, `guard explain --json -- LINE` and `guard hook claude-code` first ask the
resident checker, before argparse is imported (guard/resident_client.py).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from guard.errors import GuardError

USAGE_ERROR = 2
# subcommand name -> module in guard.cli (a module may register several subcommands)
MODULES = {
    "explain": "explain",
    "check": "check",
    "policy": "policy",
    "approvals": "approvals",
    "log": "log",
    "init": "init",
    "doctor": "doctor",
    "serve": "serve",
    "hook": "hook",
    "install-shell": "install_shell",
    "watch": "watch",
    "approve": "watch",  # guard/cli/watch.py registers approve and deny with guard watch
    "deny": "watch",
}
ALL_MODULES = (
    "explain",
    "check",
    "policy",
    "approvals",
    "log",
    "init",
    "doctor",
    "serve",
    "hook",
    "install_shell",
    "watch",
)


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a line may hold bytes that are not UTF-8
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] in (["check"], ["hook"], ["explain"]):
        from guard.resident_client import fast_cli

        try:
            status = fast_cli(args_list)
        except KeyboardInterrupt:
            print("guard: interrupted", file=sys.stderr)
            return 130
        if status is not None:
            return status
    import argparse

    parser = argparse.ArgumentParser(
        prog="guard",
        description="Projects shell command lines onto what they would do; asks before they run.",
    )
    from guard import __version__

    parser.add_argument("--version", action="version", version=f"guard {__version__}")
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND")
    first = args_list[0] if args_list else ""
    wanted = MODULES.get(first)
    modules = [_load(wanted)] if wanted else [_load(name) for name in ALL_MODULES]
    for module in modules:
        if module is not None:
            module.add_parser(sub)
    args = parser.parse_args(args_list)
    if args.subcommand is None:
        parser.print_help(sys.stderr)
        return USAGE_ERROR
    try:
        result: int = args.run(args)
        return result
    except GuardError as exc:
        print(str(exc), file=sys.stderr)
        return int(getattr(args, "error_status", 1))
    except KeyboardInterrupt:
        print("guard: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


def _load(name: str) -> ModuleType | None:
    """A subcommand module, or None when this install does not have it."""
    try:
        return importlib.import_module(f"guard.cli.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"guard.cli.{name}":
            raise
        return None
