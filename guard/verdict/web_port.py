"""The approver's web page, as the checker sees it: a line that talks to its port asks.

`guard watch --web` writes the port it listens on to ``<request socket>.web`` (next to the
socket an agent needs to ask at all, so an agent that points guard elsewhere cannot ask
either). A line whose text names that port, whatever the host, gets an `effect` request
``approver:web``, which the default policy asks about: only the human answers at the page, and
an agent that tries is shown to the human. This is a second line of defence; the page's own
(a paired cookie and a CSRF token on every answer) is the first. A port computed at run time
is not seen here: see docs/agents.md, "Approving from a phone".

The port is read with a line's surroundings (judgement.py): a long-lived process keeps it with
the looks it took (the file's lstat and stat, so a page that starts, stops or moves counts on the
next line) instead of looking on every line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import lru_cache

from guard.dirs import environ_get
from guard.projection import Projection, Request

TYPE_CHECKING = False  # typing costs an import the checker's fast path does not make

if TYPE_CHECKING:
    from guard.verdict.cache.resolved_paths import Links

REASON = "talks to the approver's web page (port {port}): only the human answers there"


def listen_file(env: Mapping[str, str]) -> str:
    """Where `guard watch --web` says its port: beside the approver's request socket."""
    request = env.get("GUARD_APPROVER_SOCKET", "")
    if not request:
        return _beside_runtime(environ_get("XDG_RUNTIME_DIR"), environ_get("HOME"))
    return request + ".web"


@lru_cache(maxsize=8)
def _beside_runtime(runtime: str, home: str) -> str:
    """The file in guard's runtime directory, which follows these two (asked on every line)."""
    from guard.dirs import user_runtime_dir

    return os.path.join(user_runtime_dir(), "approver.sock") + ".web"


def listening_port(env: Mapping[str, str], links: Links | None = None) -> int | None:
    """The port the approver's page listens on, None when no page is served (asked with an
    `access` first: a failed open raises, which costs five times the look). With `links` (a
    long-lived process's looks), the file's lstat and stat are its questions: what was read is
    kept while both answer the same (a file younger than a second is read again)."""
    path = listen_file(env)
    if links is not None:
        if isinstance(links.lstat(path), OSError) or isinstance(links.stat(path), OSError):
            return None
    elif not _there(path):
        return None
    try:
        with open(path, "rb") as f:
            text = f.read(32)
    except OSError:
        return None
    try:
        port = int(text.strip() or b"0")
    except ValueError:
        return None
    return port if 0 < port < 65536 else None


def _there(path: str) -> bool:
    try:
        return os.access(path, os.F_OK, effective_ids=os.access in os.supports_effective_ids)
    except (ValueError, OSError):  # a NUL in a path from the environment: open says why
        return True


def reaching(projection: Projection, port: int | None) -> Projection:
    """The projection with an ``approver:web`` effect where the line names the page's `port`
    (listening_port's answer); the same object when it does not, or no page is served."""
    if port is None or str(port) not in projection.command:
        return projection
    found = re.search(rf"(?<![0-9]){port}(?![0-9])", projection.command)
    if found is None:
        return projection
    start = len(projection.command[: found.start()].encode("utf-8", "surrogateescape"))
    request = Request(
        surface="effect",
        span=(start, start + len(str(port))),  # a byte span, as every request's
        reason=REASON.format(port=port),
        kind="approver",
        target="web",
    )
    return projection._replace(requests=(*projection.requests, request))
