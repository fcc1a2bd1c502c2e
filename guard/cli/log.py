"""`guard log`: the audit log, newest first; `--follow` prints it oldest first and streams new
rows as they are written (one JSON object per line with `--json`)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from guard.store import AuditRow, Store


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("log", help="the audit log, newest first")
    p.add_argument("--session")
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--follow", "-f", action="store_true", help="keep printing new rows as they are written"
    )
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:
    from guard.store import Store

    if args.follow:
        return follow(args.session, args.limit, as_json=args.json)
    with Store.open() as store:
        rows = store.log(args.session, args.limit)
    if args.json:
        print(json.dumps([r._asdict() for r in rows]))
        return 0
    for r in rows:
        _show(r)
    return 0


def _show(r: AuditRow) -> None:
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(r.time))
    print(f"{when}  {r.decision:<5} {r.how:<10} {r.session}  {r.command}")
    for reason in r.reasons:
        print(f"{'':21}{reason}")


def follow(session: str | None, limit: int, *, as_json: bool, poll: float = 0.25) -> int:
    """The last ``limit`` rows, then every new one as it is written, until interrupted."""
    from guard.store import Store

    with Store.open() as store:
        rows = tuple(reversed(store.log(session, limit)))
        last = rows[-1].id if rows else _newest(store)
        try:
            while True:
                for r in rows:
                    if as_json:
                        print(json.dumps(r._asdict()))
                    else:
                        _show(r)
                    last = r.id
                sys.stdout.flush()
                time.sleep(poll)
                rows = store.log_since(last, session)
        except KeyboardInterrupt:
            return 0


def _newest(store: Store) -> int:
    newest = store.log(None, 1)
    return newest[0].id if newest else 0
