"""The approver's web page, as the checker sees it: a line that talks to its port asks.

`guard watch --web` writes the port it listens on to ``<request socket>.web`` (next to the
socket an agent needs to ask at all, so an agent that points guard elsewhere cannot ask
either). A line whose text names that port, whatever the host, gets an `effect` request
``approver:web``, which the default policy asks about: only the human answers at the page, and
an agent that tries is shown to the human. This is a second line of defence; the page's own
(a paired cookie and a CSRF token on every answer) is the first. A port computed at run time
is not seen here: see docs/agents.md, "Approving from a phone".
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from guard.projection.requests import Projection, Request

REASON = "talks to the approver's web page (port {port}): only the human answers there"


def listen_file(env: Mapping[str, str]) -> str:
    """Where `guard watch --web` says its port: beside the approver's request socket."""
    request = env.get("GUARD_APPROVER_SOCKET", "")
    if not request:
        from guard.dirs import user_runtime_dir

        request = os.path.join(user_runtime_dir(), "approver.sock")
    return request + ".web"


def listening_port(env: Mapping[str, str]) -> int | None:
    """The port the approver's page listens on, None when no page is served."""
    try:
        with open(listen_file(env), "rb") as f:
            text = f.read(32)
    except OSError:
        return None
    try:
        port = int(text.strip() or b"0")
    except ValueError:
        return None
    return port if 0 < port < 65536 else None


def reaching(projection: Projection, env: Mapping[str, str]) -> Projection:
    """The projection with an ``approver:web`` effect where the line names the page's port;
    the same object when it does not (or no page is served)."""
    port = listening_port(env)
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
