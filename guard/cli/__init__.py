"""`guard`'s command line: parse, dispatch, map errors to exit codes; a module per subcommand."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from guard.errors import GuardError

USAGE_ERROR = 2


def main(argv: Sequence[str] | None = None) -> int:
    from guard.cli import approvals, check, explain, log, policy

    parser = argparse.ArgumentParser(
        prog="guard",
        description="Projects shell command lines onto what they would do; asks before they run.",
    )
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND")
    for module in (explain, check, policy, approvals, log):
        module.add_parser(sub)
    _add_lazy(sub)
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
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


def _add_lazy(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Subcommands that live in modules added by later features, when present."""
    import importlib

    for name in ("init", "doctor", "hook", "install_shell", "watch", "serve"):
        try:
            module = importlib.import_module(f"guard.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"guard.cli.{name}":
                raise
            continue
        module.add_parser(sub)
