"""`guard`'s command line: parse, dispatch, map errors to exit codes; a module per subcommand.

Only the module of the subcommand asked for is imported: `guard check` runs on every line a
shell hook or guarded-bash sees, and importing every subcommand would cost it time. `guard
check -- LINE` and `guard explain --json -- LINE` first ask the
resident checker, before argparse is imported (guard/entry/resident_client.py).
"""

from __future__ import annotations

import sys

from guard.errors import GuardError

TYPE_CHECKING = False  # `guard hook AGENT` and `guard check` start here: no typing imported
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from types import ModuleType

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
    "completion": "completion",
    "setup": "setup",
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
    "completion",
    "setup",
)


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a line may hold bytes that are not UTF-8
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] in (["check"], ["hook"], ["explain"]):
        from guard.entry.resident_client import fast_cli

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

    parser.add_argument("--version", "-V", action="version", version=f"guard {__version__}")
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND")
    first = args_list[0] if args_list else ""
    wanted = MODULES.get(first)
    if first and not wanted and not first.startswith("-"):
        return _unknown(first)
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
        import importlib

        return importlib.import_module(f"guard.cli.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"guard.cli.{name}":
            raise
        return None


def _unknown(name: str) -> int:
    """A subcommand guard does not have: the nearest ones it does, and where the list is."""
    from difflib import get_close_matches

    from guard.printable import escaped

    near = get_close_matches(name, sorted(MODULES), n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(f'`guard {n}`' for n in near)}?" if near else ""
    print(
        f"guard: there is no command {escaped(name)!r}{hint} (`guard --help` lists them)",
        file=sys.stderr,
    )
    return USAGE_ERROR


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, every subcommand loaded: for completion scripts and tests."""
    import argparse

    from guard import __version__

    parser = argparse.ArgumentParser(prog="guard")
    parser.add_argument("--version", "-V", action="version", version=f"guard {__version__}")
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND")
    for name in ALL_MODULES:
        module = _load(name)
        if module is not None:
            module.add_parser(sub)
    return parser
