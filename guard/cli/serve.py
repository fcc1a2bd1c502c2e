"""`guard serve`: the resident checker a shell hook starts on its pipes (guard/hook_server.py)."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve", help="the resident checker the shell hooks start (not for use by hand)"
    )
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:
    from guard.hook_server import serve

    return serve(0, 1)
