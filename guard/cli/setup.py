"""`guard setup AGENT|--all [--project] [--dry-run] [--uninstall]` and `guard setup --detect`.

Writes guard's hook into the agent's configuration (guard/entry/agents/setup.py does the merging),
says what changed, and what is still to do in the agent itself. Exit 0 when done (or nothing
was to do), 1 on a problem.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from guard.cli import summary
from guard.entry import AGENTS, config_path, fail_closed_text, guard_call
from guard.errors import GuardError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("setup", help=summary("setup"))
    p.add_argument("agent", nargs="?", choices=list(AGENTS), help="the agent to set up")
    p.add_argument(
        "--project", action="store_true", help="this project's configuration, not your own"
    )
    p.add_argument("--dry-run", action="store_true", help="say what would change; write nothing")
    p.add_argument("--uninstall", action="store_true", help="remove what setup added")
    p.add_argument("--detect", action="store_true", help="list the agents found here")
    p.add_argument(
        "--all",
        action="store_true",
        help="every agent found here (--detect lists them); with --uninstall, every agent "
        "guard's hook is in",
    )
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:

    if args.detect:
        return _detect(project_dir() if args.project else None)
    if args.all and args.agent is not None:
        raise GuardError(f"guard: name an agent or give --all, not both (guard setup "
                         f"{args.agent}, or guard setup --all)")  # fmt: skip
    if args.all:
        return every_agent(args)
    if args.agent is None:
        raise GuardError(
            "guard: name an agent (guard setup codex), or set up every agent found here with "
            "guard setup --all (guard setup --detect lists them)"
        )
    return one_agent(args)


def one_agent(args: argparse.Namespace) -> int:
    from guard.entry import setup as agent_setup

    project = project_dir() if args.project else None
    if args.uninstall:
        change = agent_setup.plan_uninstall(args.agent, project=project)
    else:
        change = agent_setup.plan_install(args.agent, project=project)
    verb = _verb(change.action, uninstall=args.uninstall)
    if args.dry_run:
        print(f"would {verb[0]}: {change.path} (dry run: nothing written)")
        if change.text is not None and change.action != "unchanged":
            print(change.text, end="" if change.text.endswith("\n") else "\n")
        return 0
    agent_setup.apply(change, args.agent)
    print(f"{verb[1]}: {change.path}")
    if args.uninstall or change.action == "unchanged":
        return 0
    cfg = AGENTS[args.agent]
    print(f"  hook: {cfg.event}: {guard_call(args.agent)}")
    print(f"  fails closed: {fail_closed_text(args.agent)}")
    gap = agent_setup.status(args.agent, project=project).note
    if gap:
        print(f"  warning: {gap}")
    if project is not None and cfg.project_note:
        print(f"  note: {cfg.project_note}")
    for step in cfg.steps:
        print(f"  next: {step}")
    return 0


def every_agent(args: argparse.Namespace) -> int:
    """`--all`: each agent found here (with --uninstall, each agent guard's hook is in) set up
    as `guard setup AGENT` would, one after the other; then one summary. A problem with one
    agent is reported and the others go on; the status is 1 when any had one."""
    import contextlib
    import io
    import sys

    from guard.entry import setup as agent_setup

    project = project_dir() if args.project else None
    if args.uninstall:
        agents = [a for a in AGENTS if agent_setup.status(a, project=project).installed]
    else:
        agents = agent_setup.detected(project)
    if not agents:
        print("guard's hook is in no agent's configuration; nothing to remove" if args.uninstall
              else "no agents found (looked for their configuration directories and programs); "
              "name one to set it up anyway: guard setup AGENT")  # fmt: skip
        return 0
    summary_lines, failed = [], 0
    for agent in agents:
        print(f"{agent}:")
        one = argparse.Namespace(**{**vars(args), "agent": agent, "all": False})
        said = io.StringIO()
        try:
            with contextlib.redirect_stdout(said):
                one_agent(one)
        except GuardError as exc:
            failed += 1
            print(f"  {exc}", file=sys.stderr)
            summary_lines.append(f"  {agent:<12} not done: {str(exc).removeprefix('guard: ')}")
            continue
        for line in said.getvalue().splitlines():
            print(f"  {line}")
        line, closed = _outcome(agent, project, args)
        failed += 0 if closed else 1
        summary_lines.append(f"  {agent:<12} {line}")
    print("summary:" if not args.dry_run else "summary (dry run: nothing written):")
    print("\n".join(summary_lines))
    return 1 if failed else 0


def _outcome(agent: str, project: str | None, args: argparse.Namespace) -> tuple[str, bool]:
    """One line for the summary (where the hook is now, whether it fails closed), and whether
    that is as it should be."""
    from guard.entry import setup as agent_setup

    path = config_path(agent, project=project)
    if args.dry_run:
        return (f"would remove guard's hook from {path}" if args.uninstall
                else f"would put guard's hook in {path}"), True  # fmt: skip
    s = agent_setup.status(agent, project=project)
    if args.uninstall:
        return (f"still in {path}", False) if s.installed else (f"removed from {path}", True)
    if not s.installed:
        return f"not installed in {path}", False
    closed = "fails closed" if s.fail_closed else "does NOT fail closed"
    return f"installed in {path}; {closed}" + (f" ({s.note})" if s.note else ""), s.fail_closed


def _verb(action: str, *, uninstall: bool) -> tuple[str, str]:
    if action == "unchanged":
        return "change nothing (guard's hook is already there)", "unchanged (already set up)"
    if action == "absent":
        return "change nothing (guard's hook is not there)", "nothing to remove"
    if uninstall:
        if action == "restored":
            return "restore the original", "restored the original"
        return "remove guard's hook", "removed guard's hook"
    if action == "updated":
        return "update guard's hook", "updated guard's hook"
    return "add guard's hook", "added guard's hook"


def _detect(project: str | None) -> int:
    from guard.entry import setup as agent_setup

    found = agent_setup.detected(project)
    if not found:
        print("no agents found (looked for their configuration directories and programs)")
    for agent in found:
        s = agent_setup.status(agent, project=project)
        if not s.installed:
            print(f"{agent:<12} found; guard's hook is not installed: guard setup {agent}")
            continue
        closed = "fails closed" if s.fail_closed else "does not fail closed"
        gap = f" ({s.note})" if s.note else ""
        print(f"{agent:<12} guard's hook installed in {s.path}; {closed}{gap}")
    return 0


def project_dir(directory: str | None = None) -> str:
    """The project of a directory (the current one): its git worktree root, else itself."""
    here = Path(directory or os.getcwd())
    for probe in (here, *here.parents):
        if (probe / ".git").exists():
            return str(probe)
    return str(here)
