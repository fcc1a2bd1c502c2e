"""`guard policy show` and `guard policy check [FILE]`."""

from __future__ import annotations

import argparse
import os
import sys

from guard.cli import summary
from guard.printable import escaped


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("policy", help=summary("policy"))
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    show = verbs.add_parser("show", help="print the effective policy and where each rule came from")
    show.add_argument("--cwd", help="the directory whose workspace counts (default: here)")
    show.set_defaults(run=_show, error_status=1)
    check = verbs.add_parser("check", help="validate a policy file (default: the ones in effect)")
    check.add_argument("file", nargs="?", help="the policy file (default: the ones in effect)")
    check.add_argument("--cwd", help="the directory whose workspace counts (default: here)")
    check.set_defaults(run=_check, error_status=1)
    trust = verbs.add_parser(
        "trust", help="trust this project's .guard.toml as it is now (its allow rules count)"
    )
    trust.add_argument("file", nargs="?", help="the project file (default: the workspace's)")
    trust.add_argument("--cwd", help="the directory whose workspace counts (default: here)")
    trust.set_defaults(run=_trust, error_status=1)


def _show(args: argparse.Namespace) -> int:
    from guard.policy import load_policy, render_policy
    from guard.verdict import build_context

    ctx = build_context(args.cwd)
    root = ctx.workspace[0] if ctx.workspace else None
    sys.stdout.write(render_policy(load_policy(root, home=ctx.home)))
    return 0


def _check(args: argparse.Namespace) -> int:
    from guard.policy import PROJECT_FILE, check_policy_file, user_policy_path
    from guard.verdict import build_context

    if args.file:
        files = [args.file]
    else:
        ctx = build_context(args.cwd)
        project = [os.path.join(root, PROJECT_FILE) for root in ctx.workspace[:1]]
        files = [f for f in (user_policy_path(), *project) if os.path.exists(f)]
    from guard.policy import managed_policy_path, read_managed_layer

    managed = managed_policy_path()
    if not args.file and os.path.lexists(managed):
        files.insert(0, managed)
    problems: list[str] = []
    for f in files:  # the machine's managed file is checked as the managed layer it is
        if os.path.realpath(f) == os.path.realpath(managed):
            layer = read_managed_layer(os.path.expanduser("~"), path=f)
            problems += layer.problems if layer else [f"{f}: no such file; check the path"]
        else:
            problems += check_policy_file(f)
    for p in problems:
        print(escaped(p))
    if not problems:
        print(f"guard: {', '.join(files) or 'no policy files; the shipped default'} — no problems")
    return 1 if problems else 0


def _trust(args: argparse.Namespace) -> int:
    from guard.policy import PROJECT_FILE, check_policy_file
    from guard.verdict import build_context, trust

    roots = build_context(args.cwd).workspace
    if not args.file and not roots:
        print(
            "guard: this directory has no workspace (it is your home directory, above it, or /), "
            "so there is no project file to trust; cd into the project, or name the file",
            file=sys.stderr,
        )
        return 1
    path = args.file or os.path.join(roots[0], PROJECT_FILE)
    problems = check_policy_file(path)
    if not os.path.lexists(path):
        print(
            f"guard: there is no {path} to trust; nothing was changed (without a project file "
            "your own policy applies alone)",
            file=sys.stderr,
        )
        return 1
    if problems:
        for p in problems:
            print(escaped(p))
        print(f"guard: {path} has problems; fix them before trusting it", file=sys.stderr)
        return 1
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:  # what a human reads before trusting it: nothing in it may hide a rule
            print(escaped(line.removesuffix("\n")))
    sha256 = trust(path)
    from guard.verdict import trust_changed

    trust_changed(None, how="policy-trust", what=f"trust {path}",
                  detail={"path": os.path.realpath(path), "sha256": sha256})  # fmt: skip
    print(f"guard: trusted {path} as shown above; a change to it makes it untrusted again")
    return 0
