"""`guard log`: the audit log, newest first."""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("log", help="the audit log, newest first")
    p.add_argument("--session")
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:
    from guard.store import Store

    with Store.open() as store:
        rows = store.log(args.session, args.limit)
    if args.json:
        print(json.dumps([asdict(r) for r in rows]))
        return 0
    for r in rows:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(r.time))
        print(f"{when}  {r.decision:<5} {r.how:<10} {r.session}  {r.command}")
        for reason in r.reasons:
            print(f"{'':21}{reason}")
    return 0
