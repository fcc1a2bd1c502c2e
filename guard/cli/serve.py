"""`guard serve`: the checker a shell hook starts on its pipes (guard/entry/shell_hooks/server.py),
and with `--user` the per-user resident checker on a Unix socket (guard/entry/resident/server.py).
"""

from __future__ import annotations

import argparse
import os
import sys

from guard.cli import summary


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help=summary("serve"))
    p.add_argument("--user", action="store_true", help="the per-user checker on a Unix socket")
    p.add_argument("--stop", action="store_true", help="with --user: stop the running checker")
    p.add_argument(
        "--idle", type=float, help="with --user: exit after this many seconds without a request"
    )
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:
    if not args.user and (args.stop or args.idle is not None):
        print("guard: --stop and --idle go with --user: guard serve --user --stop", file=sys.stderr)
        return 2
    if not args.user:
        from guard.entry import serve

        return serve(0, 1)
    from guard.entry import protocol as wire

    if args.stop:
        return stop()
    idle = args.idle if args.idle is not None else wire.DEFAULT_IDLE
    from guard.entry import main

    return main(wire.socket_path(os.environ), idle)


def stop() -> int:
    """Stop the checker that serves this user's socket, and wait until it has gone."""
    import time

    from guard.entry import protocol as wire
    from guard.entry import request

    answer = request([("kind", "stop")])
    if answer is None or wire.first(answer, "action") != "done":
        print(f"guard: no resident checker answers on {wire.socket_path(os.environ)}")
        return 0
    pid = wire.first(answer, "pid")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.02)
    print(f"guard: stopped the resident checker (pid {pid})", file=sys.stdout)
    return 0


def _alive(pid: str) -> bool:
    """Whether process `pid` still runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[-1].split()[:1] != [b"Z"]
    except FileNotFoundError:
        return False
    except OSError:  # no /proc here: ask the kernel
        try:
            os.kill(int(pid), 0)
        except (OSError, ValueError):
            return False
        return True
