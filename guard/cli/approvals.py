"""`guard approvals list|grant|revoke|clear`. Every change of trust is an audit row."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from guard.cli import summary
from guard.errors import GuardError
from guard.printable import escaped
from guard.projection import ACCESSES, SURFACES
from guard.projection import display as display_path

if TYPE_CHECKING:
    from guard.policy import AppendedRule

PATH_SURFACES = ("external_directory", "protected")

PAGE = 100  # approvals a plain `guard approvals list` shows

def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("approvals", help=summary("approvals"))
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    ls = verbs.add_parser(
        "list", help="the approvals in the store, and the rules `a` and `p` answers wrote"
    )
    ls.add_argument("--session", help="the always approvals and this session's own")
    ls.add_argument("--json", action="store_true", help="print them as one JSON list")
    ls.add_argument(
        "--limit",
        type=int,
        help=f"at most this many (default {PAGE} for the list, all with --json or --ids; 0: all)",
    )
    ls.add_argument("--offset", type=int, default=0, help="skip this many first (by id)")
    ls.add_argument(
        "--ids", action="store_true", help="only the ids, one a line (what completion offers)"
    )
    ls.set_defaults(run=_list, error_status=1)
    grant = verbs.add_parser("grant", help="grant an approval by hand")
    grant.add_argument("--session", help="the session it is for (--always: every session)")
    grant.add_argument("--surface", required=True, choices=SURFACES, help="what it approves")
    grant.add_argument(
        "--pattern",
        required=True,
        help="a command pattern (`git push *`), or an absolute path pattern (`/srv/data/**`)",
    )
    grant.add_argument("--access", choices=ACCESSES, help="only this access to a path")
    grant.add_argument("--always", action="store_true", help="for every session, until revoked")
    grant.set_defaults(run=_grant, error_status=1)
    revoke = verbs.add_parser(
        "revoke",
        help="revoke one approval, or take out a rule an `a` or `p` answer wrote, by its id",
        description="Revoke an approval (#12, or 12), or take an allow rule that an `a` or `p` "
        "answer wrote out of its policy file (r4c1e2; the file as it was is kept as FILE.bak). "
        "`guard approvals list` shows both kinds of id.",
    )
    revoke_id = revoke.add_argument(
        "id", type=approval_id, help="the id `guard approvals list` shows: #12, 12 or r4c1e2"
    )
    setattr(revoke_id, "complete", "approvals")  # noqa: B010 (guard/cli/completion.py reads it)
    revoke.set_defaults(run=_revoke, error_status=1)
    clear = verbs.add_parser("clear", help="revoke all approvals (of one session)")
    clear.add_argument("--session", help="only this session's approvals")
    clear.add_argument(
        "--yes", "-y", action="store_true", help="do not ask for confirmation on a terminal"
    )
    clear.set_defaults(run=_clear, error_status=1)


def _list(args: argparse.Namespace) -> int:
    from guard.verdict import Store

    limit = args.limit if args.limit is not None else (0 if args.json or args.ids else PAGE)
    offset = max(args.offset, 0)
    with Store.open() as store:
        rows = store.list_approvals(args.session, limit=limit or None, offset=offset)
        total = store.count_approvals(args.session) if limit and len(rows) == limit else 0
    if args.json:
        print(json.dumps([r._asdict() for r in rows]))
        return 0
    try:
        rules = written_rules() if not offset else ()
    except GuardError as exc:  # the store's approvals are still worth seeing
        print(f"{exc} (its rules are not listed)", file=sys.stderr)
        rules = ()
    if args.ids:
        print("".join(f"{i}\n" for i in (*(r.id for r in rules), *(r.id for r in rows))), end="")
        return 0
    for rule in rules:
        access = f" [{rule.access}]" if rule.access else ""
        where = f"{display(rule.path)}:{rule.line}"
        print(f"{rule.id:<6} {'always (a rule)':<24} {rule.surface:<18} "
              f"{escaped(rule.pattern)}{access}  (asked by: {escaped(rule.asked_by)}, "
              f"{rule.approved}; {escaped(where)})")  # fmt: skip
    if not rows and not rules:
        print("no approvals" if not offset else f"no approvals after the first {offset}")
    for r in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.granted_at))
        access = f" [{r.access}]" if r.access else ""
        owner = escaped(r.session or "") if r.scope == "session" else "always"
        print(
            f"#{r.id:<5} {owner:<24} {r.surface:<18} {escaped(r.pattern)}{access}  "
            f"({escaped(r.granted_by)}, {when})"
        )
    if total > offset + len(rows):
        print(
            f"guard: showed {offset + 1}-{offset + len(rows)} of {total} approvals; "
            f"--offset {offset + len(rows)} for the next page, --limit 0 for all",
            file=sys.stderr,
        )
    return 0


def _grant(args: argparse.Namespace) -> int:
    from guard.verdict import Store, trust_changed

    if args.always and not _always_allowed():
        print("guard: the managed policy turns off lasting approvals ([approvals] always = "
              "false); grant for one session with --session, or ask the machine's "
              "administrator", file=sys.stderr)
        return 1
    if not (args.always or args.session):
        print(
            "guard: approvals grant needs --session ID (for one session) or --always (for every "
            "session)",
            file=sys.stderr,
        )
        return 2
    pattern = args.pattern
    if args.surface in PATH_SURFACES and not _absolute(pattern):
        print(
            f"guard: path pattern {escaped(pattern)!r} is relative, and an approval holds for "
            f"every directory; write the absolute path: --pattern {_suggest(pattern)!r}",
            file=sys.stderr,
        )
        return 2
    scope = "always" if args.always else "session"
    with Store.open() as store:
        new = store.grant(
            session=args.session,
            scope=scope,
            surface=args.surface,
            pattern=pattern,
            access=args.access,
            granted_by="cli",
            command="",
            now=time.time(),
        )
        detail = {"id": new, "scope": scope, "surface": args.surface, "pattern": pattern,
                  "access": args.access}  # fmt: skip
        trust_changed(store, how="grant", what=_what("grant", detail), detail=detail,
                      session=args.session or "")  # fmt: skip
    print(f"granted #{new}")
    return 0


def _always_allowed() -> bool:
    import os

    from guard.policy import combine_settings, read_managed_layer, setting

    layer = read_managed_layer(os.path.expanduser("~"))
    if layer is None:
        return True
    if layer.problems:
        return False  # a refused or broken managed file: fail closed
    found = combine_settings([("managed", layer.source, layer.settings)]).settings
    return setting(found, "approvals.always") is not False


def _absolute(pattern: str) -> bool:
    return pattern.startswith("/") or pattern == "~" or pattern.startswith("~/")


def _suggest(pattern: str) -> str:
    try:
        here = os.getcwd()
    except OSError:
        here = "/"
    head, star, tail = pattern.partition("*")
    return os.path.normpath(os.path.join(here, head)) + ("/" if head.endswith("/") else "") + (
        star + tail
    )


def _what(verb: str, detail: Mapping[str, object]) -> str:
    """The line a trust row shows in `guard log`: `grant session command git push *`."""
    access = f" [{detail['access']}]" if detail.get("access") else ""
    return f"{verb} {detail['scope']} {detail['surface']} {detail['pattern']}{access}"


def approval_id(text: str) -> int | str:
    """`#12` or `12` (an approval), `r4c1e2` or `#r4c1e2` (a rule guard wrote)."""
    bare = text.strip().removeprefix("#")
    if bare.isascii() and bare.isdigit():
        return int(bare)
    if len(bare) == 7 and bare[0] == "r" and all(c in "0123456789abcdef" for c in bare[1:]):
        return bare
    raise argparse.ArgumentTypeError(
        f"{text!r} is not an id: give one `guard approvals list` shows, as #12 (an approval) "
        "or r4c1e2 (a rule guard wrote)"
    )


def display(path: str) -> str:
    return display_path(path, os.path.expanduser("~"))


def written_rules() -> tuple[AppendedRule, ...]:
    """The rules `a` (your policy file) and `p` (this project's) answers wrote, still there."""
    from guard.policy import appended_rules

    return tuple(rule for path in _rule_files() for rule in appended_rules(path))


def _rule_files() -> list[str]:
    from guard.policy import project_policy_path, user_policy_path
    from guard.verdict import find_workspace

    files = [user_policy_path()]
    try:
        roots = find_workspace(os.getcwd(), os.environ)
    except OSError:
        roots = ()
    if roots:
        files.append(project_policy_path(roots[0]))
    return list(dict.fromkeys(files))


def _revoke_rule(rule_id: str) -> int:
    """Take rule ``rule_id`` out of the policy file that holds it (a trusted project file stays
    trusted: only an allow rule went)."""
    from guard.policy import remove_appended
    from guard.verdict import is_trusted, trust, trust_changed

    path = next((r.path for r in written_rules() if r.id == rule_id), None)
    if path is None:
        print(f"guard: no approval or rule {rule_id}; see guard approvals list", file=sys.stderr)
        return 1
    project = path != _rule_files()[0]
    trusted = project and is_trusted(path)[0]
    rule, backup = remove_appended(path, rule_id)
    if trusted:
        trust(path)
    detail = {"id": rule.id, "scope": "always-rule", "surface": rule.surface,
              "pattern": rule.pattern, "access": rule.access, "path": path,
              "backup": backup}  # fmt: skip
    access = f" [{rule.access}]" if rule.access else ""
    trust_changed(None, how="revoke", what=f"revoke rule in {path}: {rule.surface} "
                  f"{rule.pattern}{access}", detail=detail)  # fmt: skip
    print(f"revoked {rule.id}: took the rule out of {display(path)} (as it was: "
          f"{display(backup)})")  # fmt: skip
    return 0


def _revoke(args: argparse.Namespace) -> int:
    from guard.verdict import Store, trust_changed

    if isinstance(args.id, str):
        return _revoke_rule(args.id)
    with Store.open() as store:
        gone = next((r for r in store.list_approvals() if r.id == args.id), None)
        done = store.revoke(args.id)
        if done and gone is not None:
            detail = {"id": gone.id, "scope": gone.scope, "surface": gone.surface,
                      "pattern": gone.pattern, "access": gone.access}  # fmt: skip
            trust_changed(store, how="revoke", what=_what("revoke", detail), detail=detail,
                          session=gone.session or "")  # fmt: skip
    if not done:
        print(f"guard: no approval #{args.id}; see guard approvals list", file=sys.stderr)
        return 1
    print(f"revoked #{args.id}")
    return 0


def _clear(args: argparse.Namespace) -> int:
    from guard.verdict import Store, trust_changed

    whose = f"session {escaped(args.session)}'s" if args.session else "all"
    if not args.yes:
        if not (sys.stdin.isatty() and sys.stderr.isatty()):
            print(
                f"guard: approvals clear revokes {whose} approvals; add --yes to do it "
                "without a terminal to confirm on",
                file=sys.stderr,
            )
            return 2
        sys.stderr.write(f"guard: revoke {whose} approvals? [y/N] ")
        sys.stderr.flush()
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            print("guard: nothing revoked", file=sys.stderr)
            return 1
    with Store.open() as store:
        count = store.clear(args.session)
        detail = {"session": args.session, "count": count}
        what = f"clear {count} approval{'s' if count != 1 else ''}"
        what += f" of session {args.session}" if args.session else ""
        trust_changed(store, how="clear", what=what, detail=detail, session=args.session or "")
    print(f"revoked {count} approval{'s' if count != 1 else ''}")
    return 0
