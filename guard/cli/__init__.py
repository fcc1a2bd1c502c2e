"""`guard`'s command line: parse, dispatch, map errors to exit codes; a module per subcommand.

Only the module of the subcommand asked for is imported: `guard check` runs on every line a
shell hook or guarded-bash sees, and importing every subcommand would cost it time. `guard
check -- LINE` and `guard explain --json -- LINE` first ask the
resident checker, before argparse is imported (guard/entry/resident/client.py).
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
DESCRIPTION = "Projects shell command lines onto what they would do; asks before they run."
# subcommand -> (its module in guard.cli, the line `guard --help` shows for it); a module may
# register several subcommands. `guard --help` is printed from here, no module imported.
COMMANDS = {
    "explain": ("explain", "show what a command line would do and the verdict"),
    "check": ("check", "decide a command line (exit 0 allow, 1 deny, 3 ask)"),
    "policy": ("policy", "show or check policy files"),
    "approvals": ("approvals", "list, grant, revoke or clear approvals"),
    "log": ("log", "the audit log, newest first"),
    "init": ("init", 'print the shell hook: eval "$(guard init bash)" in ~/.bashrc (or zsh, '
             "~/.zshrc; guard init fish | source in config.fish)"),
    "doctor": ("doctor", "check the shell hook, policy files, store and terminal"),
    "serve": ("serve", "the resident checkers: the shell hooks' (not for use by hand), --user"),
    "hook": ("hook", "answer an agent's own permission hook"),
    "install-shell": ("install_shell", "put a launcher named bash, which starts guarded-bash, "
                      "in a directory"),
    "watch": ("watch", "answer agents' requests from this terminal (the approver for agents)"),
    "approve": ("watch", "allow a request waiting at `guard watch`"),
    "deny": ("watch", "deny a request waiting at `guard watch`"),
    "completion": ("completion", "print a completion script for bash or zsh"),
    "setup": ("setup", "install guard's hook in an agent (claude-code, codex, …)"),
}  # fmt: skip
MODULES = {name: module for name, (module, _summary) in COMMANDS.items()}
ALL_MODULES = tuple(dict.fromkeys(MODULES.values()))


def summary(name: str) -> str:
    """The one line `guard --help` shows for subcommand `name` (its module registers it)."""
    return COMMANDS[name][1]


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a line may hold bytes that are not UTF-8
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    args_list = list(sys.argv[1:] if argv is None else argv)
    if len(args_list) <= 1 and args_list[:1] in ([], ["-h"], ["--help"], ["-V"], ["--version"]):
        return _at_once(args_list)  # no subcommand: nothing to import, not even argparse
    if args_list[:1] in (["check"], ["hook"], ["explain"]):
        if args_list[0] == "hook":  # agents' hooks: the checker answers what needs no human
            from guard.entry import fast_hook as fast_cli
        else:
            from guard.entry import fast_cli

        try:
            status = fast_cli(args_list)
        except KeyboardInterrupt:
            print("guard: interrupted", file=sys.stderr)
            return 130
        if status is not None:
            return status
    import argparse

    parser = argparse.ArgumentParser(prog="guard", description=DESCRIPTION)
    from guard import __version__

    parser.add_argument(
        "--version", "-V", action="version", version=f"guard {__version__}",
        help="show guard's version and exit",
    )  # fmt: skip
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND")
    first = args_list[0] if args_list else ""
    wanted = MODULES.get(first)
    if first and not wanted and not first.startswith("-"):
        return _unknown(first)
    modules = [_load(wanted)] if wanted else [_load(name) for name in ALL_MODULES]
    for module in modules:
        if module is not None:
            module.add_parser(sub)
    # a module may read its own words first (`guard explain ls -la`: the line needs no --)
    arguments = getattr(modules[0], "arguments", None) if wanted else None
    if arguments is not None:
        try:
            args_list = arguments(args_list)
        except GuardError as exc:
            print(str(exc), file=sys.stderr)
            return USAGE_ERROR
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


def _at_once(args: Sequence[str]) -> int:
    """`guard --version`, `guard --help`, and `guard` alone (the help on stderr, status 2)."""
    if args and args[0] in ("-V", "--version"):
        from guard import __version__

        print(f"guard {__version__}")
        return 0
    (sys.stdout if args else sys.stderr).write(help_text())
    return 0 if args else USAGE_ERROR


def help_text(width: int = 0) -> str:
    """`guard --help`, laid out as argparse lays out its help, from COMMANDS."""
    import os

    if not width:
        try:
            width = int(os.environ.get("COLUMNS", "")) - 2
        except ValueError:
            width = 0
    width = max(width or 78, 40)
    column = 2 + max(len(name) for name in COMMANDS) + 2
    lines = ["usage: guard [-h] [--version] COMMAND ...", "", *_wrapped(DESCRIPTION, width, 0)]
    lines += ["", "commands:"]
    for name, (_module, text) in COMMANDS.items():
        lines += _wrapped(text, width, column, f"  {name}")
    lines += ["", "options:", "  -h, --help     show this help message and exit",
              "  --version, -V  show guard's version and exit", ""]  # fmt: skip
    lines += _wrapped("`guard COMMAND --help` says more about each command.", width, 0)
    return "\n".join(lines) + "\n"


def _wrapped(text: str, width: int, indent: int, head: str = "") -> list[str]:
    """``text`` in lines of at most ``width``, each indented by ``indent``; the first starts
    with ``head`` (on a line of its own when it is wider than the indent)."""
    lines: list[str] = []
    line = head if len(head) < indent else ""
    if head and not line:
        lines.append(head)
    for word in text.split():
        if len(line) > indent and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = ""
        line = (line.ljust(indent) if len(line) <= indent else line + " ") + word
    lines.append(line)
    return lines


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
    parser.add_argument(
        "--version", "-V", action="version", version=f"guard {__version__}",
        help="show guard's version and exit",
    )  # fmt: skip
    sub = parser.add_subparsers(dest="subcommand", metavar="COMMAND")
    for name in ALL_MODULES:
        module = _load(name)
        if module is not None:
            module.add_parser(sub)
    return parser
