"""The approver: a human answers agents' requests from a terminal the agents do not share.

`guard watch` serves two Unix sockets, both mode 0600 and both checked for the peer's user:

- the *request* socket, used by `guarded-bash` and `guard check` when they cannot ask on a
  terminal: one ``ask`` message per connection, then one ``answer`` once a human gives it. It
  can only ask: a message that tries to answer is refused and logged. It is the only socket an
  agent's sandbox is given.
- the *control* socket, for `guard approve ID` / `guard deny ID` and the list of waiting
  requests: the human's side only, never handed to agents.

This module holds the protocol: where the sockets are, the messages (JSON objects, one per line)
and how a request is checked. What the human is shown for each choice is built here from the
approvals that choice would store, never from the requester's labels, so the words on the screen
are exactly what an answer grants. The server is `guard.asking.approver_server`, the requesting side
`guard.asking.approver_client`.
"""

from __future__ import annotations

import json
import math
import os
import socket
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, get_args

from guard.asking.prompt import Choice, Question, problem_with
from guard.errors import GuardError
from guard.projection import ACCESSES, SURFACES, DynamicRole, Request
from guard.verdict import Grant, granted, offers_for

PROTOCOL = 1
MAX_MESSAGE = 4 << 20  # bytes in one message line
SEND_SECONDS = 2.0  # a requester that does not read its answer cannot hold the approver longer
# What each scope is called on the screen; describe() adds an always answer's policy file
LABELS = {
    "once": "allow once",
    "session": "allow for this session",
    "always": "always",
    "deny": "deny",
}
STOPPED = (
    "guard: denied: the approver stopped before anyone answered; start `guard watch` again, "
    "then run the command again"
)
REFUSED = (
    "guard: refused: the request socket can only ask; answers come from the human at "
    "`guard watch`, or from `guard approve ID` on the control socket"
)
STRANGER = "guard: refused: this approver answers only its own user's requests"

# ---- the protocol ------------------------------------------------------------------------------


class Invalid(Exception):
    """A message that does not follow the protocol; the text says what is wrong."""


@dataclass(frozen=True, slots=True)
class Ask:
    """A request as the approver received it, checked, with the question it shows."""

    session: str
    command: str
    cwd: str
    workspace: tuple[str, ...]
    home: str
    origin: str  # what sent it: "guard check", "claude-code" …
    question: Question  # labels and covers built from the grants
    grants: Mapping[str, tuple[Grant, ...]]  # key -> what that answer stores
    asking: tuple[Request, ...]  # the requests that asked
    approvable: bool  # False when the requester's policy has problems: approvals do not apply
    reasons: tuple[str, ...] = ()  # the requester's verdict, as its own audit rows word it


def ask_message(
    *,
    session: str,
    command: str,
    cwd: str,
    workspace: Sequence[str],
    home: str,
    origin: str,
    question: Question,
    grants: Mapping[str, Sequence[Grant]],
    asking: Sequence[Request],
    approvable: bool,
    reasons: Sequence[str] = (),
) -> dict[str, object]:
    """The ``ask`` message a requester sends; ``reasons`` (its verdict's) go into the audit
    row the approver writes for the answer, worded as every other row."""
    return {
        "type": "ask",
        "protocol": PROTOCOL,
        "session": session,
        "command": command,
        "cwd": cwd,
        "workspace": list(workspace),
        "home": home,
        "origin": origin,
        "timeout": question.timeout,
        "marks": [list(m) for m in question.marks],
        "lines": list(question.lines),
        "choices": [
            {
                "key": c.key,
                "scope": c.scope,
                "target": c.target,
                "grants": [
                    {"surface": g.surface, "pattern": g.pattern, "access": g.access}
                    for g in grants.get(c.key, ())
                ],
            }
            for c in question.choices
        ],
        "asking": [_request_json(r) for r in asking],
        "approvable": approvable,
        "reasons": list(reasons),
    }


def encode(message: Mapping[str, object]) -> bytes:
    """One message as a line. ASCII only, so no byte inside can end the line early."""
    return json.dumps(message, ensure_ascii=True).encode("ascii") + b"\n"


class Lines:
    """Splits what arrives on a socket into messages; Invalid on garbage or an endless line."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[object]:
        self._buffer += data
        found: list[object] = []
        while (end := self._buffer.find(b"\n")) >= 0:
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            try:
                found.append(json.loads(line))
            except ValueError as exc:
                raise Invalid(f"a message is not JSON ({exc})") from None
        if len(self._buffer) > MAX_MESSAGE:
            raise Invalid(f"a message is longer than {MAX_MESSAGE} bytes")
        return found


def read_ask(data: object) -> Ask:
    """Check an ``ask`` message and build what the human will be shown; Invalid if it is not
    one. Labels and covers come from the scope and the grants, not from the requester."""
    d = _object(data, "the message")
    if d.get("type") != "ask":
        raise Invalid(f"expected an ask message, not {d.get('type')!r}")
    if d.get("protocol") != PROTOCOL:
        raise Invalid(f"protocol {d.get('protocol')!r} is not {PROTOCOL}; use one guard version")
    for raw in _list(d, "choices"):  # the requester's own offer is checked, then not used
        c = _object(raw, "a choice")
        _one_of(c, "scope", ("once", "session", "always", "deny"))
        for g in _list(c, "grants"):
            _grant(g)
    asking = tuple(_request(r) for r in _list(d, "asking"))
    choices, grants = server_choices(asking)
    timeout = d.get("timeout")
    if not isinstance(timeout, int | float) or not math.isfinite(timeout) or timeout <= 0:
        raise Invalid("timeout must be a positive number of seconds")
    marks = tuple(_span(m) for m in _list(d, "marks"))
    lines = tuple(_text(d, "lines", item) for item in _list(d, "lines"))
    command = _text(d, "command")
    question = Question(command, marks, lines, tuple(choices), timeout=float(timeout))
    problem = problem_with(question)
    if problem:
        raise Invalid(problem.removeprefix("guard: denied: "))
    workspace = tuple(_text(d, "workspace", w) for w in _list(d, "workspace"))
    if not all(os.path.isabs(w) for w in workspace):
        raise Invalid("workspace roots must be absolute paths")
    session = _text(d, "session")
    if not session:
        raise Invalid("a request needs a session")
    return Ask(
        session=session,
        command=command,
        cwd=_text(d, "cwd"),
        workspace=workspace,
        home=_text(d, "home"),
        origin=_text(d, "origin"),
        question=question,
        grants=grants,
        asking=asking,
        approvable=d.get("approvable") is True,
        reasons=tuple(_text(d, "reasons", r) for r in _list(d, "reasons")),
    )


def server_choices(
    asking: Sequence[Request],
) -> tuple[list[Choice], dict[str, tuple[Grant, ...]]]:
    """The answers the human is offered, made here from the requests that ask — never from the
    requester's choices: keys mean the same every time (`n` is always deny), what a key grants
    is what guard itself would offer for those requests (never `/**` or a bare interpreter),
    and "always" writes only the human's own policy file (a requester could name any
    workspace as its project)."""
    offers = offers_for(asking, home=os.path.expanduser("~"), is_dir=os.path.isdir)
    choices = [
        Choice(
            o.key,
            LABELS[o.scope],
            o.scope,  # type: ignore[arg-type]
            tuple(dict.fromkeys(grant_text(g) for g in o.grants)),
            o.target,  # type: ignore[arg-type]
            confirm=o.sure,
        )
        for o in offers
    ]
    return choices, granted(offers)


def grant_text(g: Grant) -> str:
    """What a stored approval covers, in the words the approver shows."""
    if g.surface in ("external_directory", "protected"):
        return f"{g.access or 'use'} {g.pattern}"
    return g.pattern


def _object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Invalid(f"{what} must be a JSON object")
    return value


def _list(d: Mapping[str, Any], name: str) -> list[Any]:
    value = d.get(name, [])
    if not isinstance(value, list):
        raise Invalid(f"{name} must be a list")
    return value


def _text(d: Mapping[str, Any], name: str, value: object = None) -> str:
    value = d.get(name, "") if value is None else value
    if not isinstance(value, str):
        raise Invalid(f"{name} must be text")
    return value


def _one_of(d: Mapping[str, Any], name: str, allowed: tuple[str | None, ...]) -> Any:
    value = d.get(name, "" if "" in allowed else None)
    if value not in allowed:
        raise Invalid(f"{name} must be one of {allowed}, not {value!r}")
    return value


def _span(value: object) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise Invalid("a mark must be [start, end]")
    return value[0], value[1]


def _grant(value: object) -> Grant:
    g = _object(value, "a grant")
    surface = _one_of(g, "surface", SURFACES)
    access = _one_of(g, "access", (None, *ACCESSES))
    pattern = _text(g, "pattern")
    if not pattern:
        raise Invalid("a grant needs a pattern")
    return Grant(surface, pattern, access, pattern)


def _request_json(r: Request) -> dict[str, object]:
    return {
        "surface": r.surface,
        "span": list(r.span),
        "reason": r.reason,
        "argv": list(r.argv),
        "path": r.path,
        "access": r.access,
        "text": r.text,
        "role": r.role,
        "via": r.via,
        "kind": r.kind,
        "target": r.target,
    }


def _request(value: object) -> Request:
    r = _object(value, "a request")
    argv = tuple(_text(r, "argv", a) for a in _list(r, "argv"))
    return Request(
        surface=_one_of(r, "surface", SURFACES),
        span=_span(r.get("span")),
        reason=_text(r, "reason"),
        argv=argv,
        path=_text(r, "path"),
        access=_one_of(r, "access", (None, *ACCESSES)),
        text=_text(r, "text"),
        role=_one_of(r, "role", (None, *get_args(DynamicRole))),
        via=_text(r, "via"),
        kind=_text(r, "kind"),
        target=_text(r, "target"),
    )


def peer(sock: socket.socket) -> tuple[int, int] | None:
    """The (pid, uid) of the process at the other end of a Unix socket, None when the system
    will not say. The pid is -1 where only the user is told (macOS, the BSDs)."""
    try:
        if hasattr(socket, "SO_PEERCRED"):  # Linux
            raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
            pid, uid, _gid = struct.unpack("3i", raw)
            return pid, uid
        if hasattr(socket, "LOCAL_PEERCRED"):  # struct xucred: version, then the uid
            raw = sock.getsockopt(0, socket.LOCAL_PEERCRED, 76)
            _version, uid = struct.unpack_from("=Ii", raw)
            return -1, uid
    except OSError:
        return None
    return None


@dataclass(frozen=True, slots=True)
class Paths:
    """Where the approver listens: the request socket (agents) and the control socket (you)."""

    request: str
    control: str

    @property
    def lock(self) -> str:
        return self.request + ".lock"


def paths(env: Mapping[str, str]) -> Paths:
    """``GUARD_APPROVER_SOCKET`` and ``GUARD_APPROVER_CONTROL``, else ``approver.sock`` and
    ``approver-control.sock`` in the user's runtime directory."""
    request = env.get("GUARD_APPROVER_SOCKET", "")
    control = env.get("GUARD_APPROVER_CONTROL", "")
    if not (request and control):
        from guard.dirs import user_runtime_dir

        base = user_runtime_dir()
        request = request or os.path.join(base, "approver.sock")
        control = control or os.path.join(base, "approver-control.sock")
    for name, value in (("GUARD_APPROVER_SOCKET", request), ("GUARD_APPROVER_CONTROL", control)):
        if not os.path.isabs(value):
            raise GuardError(f"guard: {name} must be an absolute path, not {value!r}; fix it")
    return Paths(request, control)
