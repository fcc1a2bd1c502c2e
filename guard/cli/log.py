"""`guard log`: the audit log, newest first; `--follow` prints it oldest first and streams new
rows as they are written (one JSON object per line with `--json`)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from guard.cli import summary
from guard.printable import escaped

if TYPE_CHECKING:
    from guard.verdict import AuditRow, Store


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("log", help=summary("log"))
    p.add_argument("--session", help="only the rows of this session")
    p.add_argument(
        "--limit", type=int, default=50, metavar="N", help="at most N rows (default: 50)"
    )
    p.add_argument(
        "--json", action="store_true", help="one JSON object per row and line (JSON Lines)"
    )
    p.add_argument(
        "--follow", "-f", action="store_true", help="keep printing new rows as they are written"
    )
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:
    from guard.verdict import Store

    if args.limit < 0:
        print(f"guard: --limit counts rows; give 0 or more, not {args.limit}", file=sys.stderr)
        return 2
    if args.follow:
        return follow(args.session, args.limit, as_json=args.json)
    with Store.open() as store:
        rows = store.log(args.session, args.limit)
    widths = Widths.of(rows)
    for r in rows:
        if args.json:
            print(as_json_line(r))
        else:
            _show(r, widths)
    return 0


def as_json_line(r: AuditRow) -> str:
    """One row as one JSON object on one line; ``detail`` an object (``{}`` when none)."""
    row = r._asdict()
    try:
        detail = json.loads(r.detail) if r.detail else {}
    except ValueError:
        detail = {"text": r.detail}  # written by hand or by an older guard: kept, as text
    row["detail"] = detail if isinstance(detail, dict) else {"value": detail}
    row["reasons"] = list(r.reasons)
    return json.dumps(row, ensure_ascii=True)


@dataclass(frozen=True, slots=True)
class Widths:
    """The columns' widths: each as wide as its longest value among the rows shown, and never
    narrower than the values guard writes most (a row streamed later that is wider still
    keeps one space between columns)."""

    how: int = 16  # "approver-control", "approver-stopped"
    session: int = 8

    @classmethod
    def of(cls, rows: Sequence[AuditRow]) -> Widths:
        least = cls()
        return cls(
            max([least.how, *(len(r.how) for r in rows)]),
            max([least.session, *(len(escaped(r.session)) for r in rows)]),
        )


def _show(r: AuditRow, widths: Widths) -> None:
    """One row: time, decision, how, session, command; its reasons below, one a line."""
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(r.time))
    what = escaped(r.command)
    how, session = escaped(r.how), escaped(r.session)
    print(f"{when}  {r.decision:<5} {how:<{widths.how}} {session:<{widths.session}}  {what}")
    for reason in r.reasons:
        print(f"{'':21}{escaped(reason)}")


def follow(session: str | None, limit: int, *, as_json: bool, poll: float = 0.25) -> int:
    """The last ``limit`` rows, then every new one as it is written, until interrupted."""
    from guard.verdict import Store

    with Store.open() as store:
        rows = tuple(reversed(store.log(session, limit)))
        last = rows[-1].id if rows else _newest(store)
        widths = Widths.of(rows)
        try:
            while True:
                for r in rows:
                    if as_json:
                        print(as_json_line(r))
                    else:
                        _show(r, widths)
                    last = r.id
                sys.stdout.flush()
                time.sleep(poll)
                rows = store.log_since(last, session)
        except KeyboardInterrupt:
            return 0


def _newest(store: Store) -> int:
    newest = store.log(None, 1)
    return newest[0].id if newest else 0
