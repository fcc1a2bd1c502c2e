"""`guard approve ID` / `guard deny ID`: answer a request waiting at `guard watch` from another
terminal, through the approver's control socket (never handed to agents).

`guard approve` without an ID (or with ``--list``) lists what waits.
"""

from __future__ import annotations

import argparse
import os
import socket
from collections.abc import Mapping
from contextlib import suppress

from guard.cli import summary
from guard.errors import GuardError

SECONDS = 5.0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    a = sub.add_parser("approve", help=summary("approve"))
    a.add_argument("id", nargs="?", type=int, help="the request's number, as guard watch shows it")
    a.add_argument(
        "--key",
        default="y",
        help="which answer: y once (the default), s this session, a always … as guard watch "
        "lists them for that request",
    )
    a.add_argument("--list", action="store_true", help="list the waiting requests")
    a.set_defaults(run=run_approve, error_status=1)
    d = sub.add_parser("deny", help=summary("deny"))
    d.add_argument("id", type=int, help="the request's number, as guard watch shows it")
    d.set_defaults(run=run_deny, error_status=1)


def run_approve(args: argparse.Namespace) -> int:
    if args.list or args.id is None:
        return _list(control({"type": "list"}, os.environ))
    reply = control({"type": "answer", "id": args.id, "key": args.key}, os.environ)
    _check(reply)
    print(f"guard: answered request #{args.id} with [{args.key}]")
    return 0


def run_deny(args: argparse.Namespace) -> int:
    _check(control({"type": "deny", "id": args.id}, os.environ))
    print(f"guard: denied request #{args.id}")
    return 0


def control(message: Mapping[str, object], env: Mapping[str, str]) -> dict[str, object]:
    """Send one message to the approver's control socket and return its reply."""
    from guard.asking import Invalid, Lines, encode, paths

    where = paths(env).control
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(SECONDS)
    try:
        try:
            sock.connect(where)
        except OSError as exc:
            raise GuardError(
                f"guard: no approver is listening on {where} ({exc.strerror}); start "
                "`guard watch` first (with the same GUARD_APPROVER_CONTROL)"
            ) from None
        lines = Lines()
        with suppress(OSError):  # refused at once: the reason is waiting to be read
            sock.sendall(encode(message))
        while True:
            data = sock.recv(65536)
            if not data:
                raise GuardError("guard: the approver closed the connection without a reply")
            found = lines.feed(data)
            if found and isinstance(found[0], dict):
                return found[0]
    except (OSError, Invalid) as exc:
        raise GuardError(f"guard: talking to the approver on {where} failed ({exc})") from None
    finally:
        sock.close()


def _check(reply: Mapping[str, object]) -> None:
    if reply.get("type") != "done":
        text = str(reply.get("message") or "guard: the approver refused")
        if "no request" in text:
            text += "; `guard approve --list` shows the waiting ones"
        raise GuardError(text)


def _list(reply: Mapping[str, object]) -> int:
    from guard.asking import visible

    _requests = reply.get("requests")
    requests = _requests if isinstance(_requests, list) else []
    if reply.get("type") != "list":
        _check(reply)
    if not requests:
        print("guard: no request is waiting")
        return 0
    for r in requests:
        if not isinstance(r, dict):
            continue
        keys = " ".join(
            f"[{c.get('key')}] {c.get('label')}"
            for c in r.get("choices", [])
            if isinstance(c, dict)
        )
        print(
            f"#{r.get('id')}  waited {r.get('waited')} s, denied in {r.get('left')} s  "
            f"{visible(str(r.get('origin')))} in session {visible(str(r.get('session')))}"
        )
        print(f"    {visible(str(r.get('command')))}")
        print(f"    {keys}")
    return 0
