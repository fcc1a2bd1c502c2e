"""`guard check`: the hook-facing call. Exit 0 allow, 1 deny, 2 usage, 3 ask (with --no-prompt).

On ask it prompts on the terminal when there is one in the foreground; without one, ask means
deny with a message that says what to do. Every verdict goes to the audit log.
"""

from __future__ import annotations

import argparse
import sys

from guard.cli import summary
from guard.entry import ALLOW, ASK, DENY, check_line, how_decided

USAGE = 2
_how = how_decided  # the shell hooks' resident checker imported it from here
__all__ = ["ALLOW", "ASK", "DENY", "USAGE", "add_parser", "check_line", "how_decided", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("check", help=summary("check"))
    p.add_argument("--session", help="the session whose approvals count")
    p.add_argument("--cwd", help="the directory the line would run in")
    p.add_argument("--json", action="store_true", help="also print the verdict as JSON")
    p.add_argument(
        "--no-prompt", action="store_true", help="never ask: exit 3 when the verdict is ask"
    )
    p.add_argument(
        "--ask-because",
        default="",
        metavar="REASON",
        help="ask even if the policy allows, for this reason (the hooks: checker timed out)",
    )
    p.add_argument(
        "--shell",
        choices=("bash", "fish"),
        default="bash",
        help="the shell the line is for (fish: a line fish reads otherwise than bash asks)",
    )
    p.add_argument("command", nargs="*", help="the command line (quote it, or put it after --)")
    p.set_defaults(run=run, error_status=DENY)


def run(args: argparse.Namespace) -> int:
    from guard.verdict import current_session

    if not args.command:
        print("guard: check needs a command line: guard check -- 'COMMAND'", file=sys.stderr)
        return USAGE
    session = args.session or current_session()
    command = " ".join(args.command)
    return check_line(
        command,
        session=session,
        cwd=args.cwd,
        as_json=args.json,
        prompt=not args.no_prompt,
        ask_because=args.ask_because,
        shell=args.shell,
    )


