"""`guard watch`'s page and notices: `--web`, `--listen`, `--cert`/`--key`, `--https`, and the
`[approver] notify` webhook. The page's modules (and aiohttp) are imported only with `--web`.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from guard.errors import GuardError

if TYPE_CHECKING:
    from guard.asking import Approver, Event, Notifier, WebApprover

EXTRA = "guard: --web needs guard's web extra; install it: pip install 'guard-shell[web]'"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--web",
        action="store_true",
        help="also serve the requests on a page for your phone (prints a one-time pair: link)",
    )
    p.add_argument(
        "--listen",
        metavar="HOST:PORT",
        help="where the page listens (default 127.0.0.1 and a free port); beyond loopback "
        "it is HTTPS only",
    )
    p.add_argument("--cert", help="the page's certificate (PEM) instead of a self-signed one")
    p.add_argument("--key", help="the private key of --cert (PEM)")
    p.add_argument("--https", action="store_true", help="HTTPS on loopback too")


def check_arguments(args: argparse.Namespace) -> None:
    if not args.web and (args.listen or args.cert or args.key or args.https):
        raise GuardError("guard: --listen, --cert, --key and --https go with --web; add --web")


def start_web(
    approver: Approver, args: argparse.Namespace, say: Callable[..., None], env: Mapping[str, str]
) -> WebApprover:
    try:
        from guard.asking import DEFAULT_LISTEN, WebApprover
    except ImportError as exc:
        raise GuardError(f"{EXTRA} ({exc})") from None
    web = WebApprover(
        approver,
        listen=args.listen or DEFAULT_LISTEN,
        cert=args.cert,
        key=args.key,
        force_tls=args.https,
        say=say,
        env=env,
    )
    web.start()
    return web


def notifier(env: Mapping[str, str]) -> Notifier | None:
    """The `[approver] notify` webhook of the user's (or the managed) policy, if any."""
    from guard.policy import load_policy, setting

    home = env.get("HOME") or os.path.expanduser("~")
    url = setting(load_policy(None, home=home, trust_project=False).settings, "approver.notify")
    if not isinstance(url, str):
        return None
    from guard.asking import Notifier

    return Notifier(url)


def fan_out(
    approver: Callable[[], Approver | None],
    first: Callable[[Event], None],
    web: Callable[[], WebApprover | None],
    notice: Notifier | None,
) -> Callable[[Event], None]:
    """One approver event to the terminal, the page and the webhook."""

    def on_event(e: Event) -> None:
        first(e)
        page = web()
        if page is not None:
            page.event(e)
        a = approver()
        if notice is not None and e.kind == "arrived" and a is not None:
            w = next((w for w in a.queue if w.id == e.id), None)
            if w is not None:
                notice.page = page.base if page is not None else ""
                notice.arrived(w.id, w.ask)

    return on_event
