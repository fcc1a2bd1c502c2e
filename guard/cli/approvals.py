"""`guard approvals list|grant|revoke|clear`."""

from __future__ import annotations

import argparse
import json
import sys
import time

from guard.requests import SURFACES

PAGE = 100  # approvals a plain `guard approvals list` shows

def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("approvals", help="list, grant, revoke or clear approvals")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    ls = verbs.add_parser("list", help="the approvals in the store")
    ls.add_argument("--session")
    ls.add_argument("--json", action="store_true")
    ls.add_argument(
        "--limit",
        type=int,
        help=f"at most this many (default {PAGE} for the list, all with --json; 0: all)",
    )
    ls.add_argument("--offset", type=int, default=0, help="skip this many first (by id)")
    ls.set_defaults(run=_list, error_status=1)
    grant = verbs.add_parser("grant", help="grant an approval by hand")
    grant.add_argument("--session", required=True)
    grant.add_argument(
        "--surface", required=True, choices=SURFACES
    )
    grant.add_argument("--pattern", required=True)
    grant.add_argument("--access", choices=("read", "write", "execute", "chdir"))
    grant.add_argument("--always", action="store_true", help="for every session, until revoked")
    grant.set_defaults(run=_grant, error_status=1)
    revoke = verbs.add_parser("revoke", help="revoke one approval by its id")
    revoke.add_argument("id", type=int)
    revoke.set_defaults(run=_revoke, error_status=1)
    clear = verbs.add_parser("clear", help="revoke all approvals (of one session)")
    clear.add_argument("--session")
    clear.set_defaults(run=_clear, error_status=1)


def _list(args: argparse.Namespace) -> int:
    from guard.store import Store

    limit = args.limit if args.limit is not None else (0 if args.json else PAGE)
    offset = max(args.offset, 0)
    with Store.open() as store:
        rows = store.list_approvals(args.session, limit=limit or None, offset=offset)
        total = store.count_approvals(args.session) if limit and len(rows) == limit else 0
    if args.json:
        print(json.dumps([r._asdict() for r in rows]))
        return 0
    if not rows:
        print("no approvals" if not offset else f"no approvals after the first {offset}")
    for r in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.granted_at))
        access = f" [{r.access}]" if r.access else ""
        owner = r.session if r.scope == "session" else "always"
        print(
            f"#{r.id:<5} {owner:<24} {r.surface:<18} {r.pattern}{access}  ({r.granted_by}, {when})"
        )
    if total > offset + len(rows):
        print(
            f"guard: showed {offset + 1}-{offset + len(rows)} of {total} approvals; "
            f"--offset {offset + len(rows)} for the next page, --limit 0 for all",
            file=sys.stderr,
        )
    return 0


def _grant(args: argparse.Namespace) -> int:
    from guard.store import Store

    if args.always and not _always_allowed():
        print("guard: the managed policy turns off lasting approvals ([approvals] always = "
              "false); grant for one session with --session, or ask the machine's "
              "administrator", file=sys.stderr)
        return 1
    with Store.open() as store:
        new = store.grant(
            session=args.session,
            scope="always" if args.always else "session",
            surface=args.surface,
            pattern=args.pattern,
            access=args.access,
            granted_by="cli",
            command="",
            now=time.time(),
        )
    print(f"granted #{new}")
    return 0


def _always_allowed() -> bool:
    import os

    from guard.managed import read_managed_layer
    from guard.policy_settings import combine_settings, setting

    layer = read_managed_layer(os.path.expanduser("~"))
    if layer is None:
        return True
    if layer.problems:
        return False  # a refused or broken managed file: fail closed
    found = combine_settings([("managed", layer.source, layer.settings)]).settings
    return setting(found, "approvals.always") is not False


def _revoke(args: argparse.Namespace) -> int:
    from guard.store import Store

    with Store.open() as store:
        done = store.revoke(args.id)
    if not done:
        print(f"guard: no approval #{args.id}; see guard approvals list", file=sys.stderr)
        return 1
    print(f"revoked #{args.id}")
    return 0


def _clear(args: argparse.Namespace) -> int:
    from guard.store import Store

    with Store.open() as store:
        count = store.clear(args.session)
    print(f"revoked {count} approval{'s' if count != 1 else ''}")
    return 0
