"""The approver's server: the queue of waiting requests, the sockets, the answers.

One process (`guard watch`) holds a lock next to the request socket, listens on the request and
control sockets, and keeps the waiting requests in arrival order. Each request waits until a
human answers it, its timeout passes (deny), or its requester goes away (withdrawn). Every
answer is one row of the audit log, written here (the requester writes none of its own for it);
what an answer grants is stored here, on the human's side.
"""

from __future__ import annotations

import json
import os
import selectors
import socket
import time
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from guard.asking.approver import (
    REFUSED,
    SEND_SECONDS,
    STOPPED,
    STRANGER,
    Ask,
    Invalid,
    Lines,
    Paths,
    encode,
    peer,
    read_ask,
)
from guard.asking.approver_checks import approved, checked
from guard.asking.approver_queue import Event, Waiting, waiting_summary
from guard.asking.approver_sockets import listen_at, lock_socket, make_socket_dir
from guard.errors import GuardError
from guard.verdict import LineCache

if TYPE_CHECKING:
    from guard.verdict import Store

Kind = Literal["request", "control"]


@dataclass(slots=True)
class _Conn:
    sock: socket.socket
    kind: Kind
    pid: int
    lines: Lines = field(default_factory=Lines)
    waiting: int = 0  # the request's id once it has asked


class Approver:
    """The human's side: both listening sockets, the queue in arrival order, the answers."""

    def __init__(
        self,
        where: Paths,
        lock_fd: int,
        listeners: list[tuple[socket.socket, Kind, int]],
        store: Store,
        *,
        timeout: float,
        on_event: Callable[[Event], None],
        env: Mapping[str, str],
    ) -> None:
        self.paths = where
        self.timeout = timeout
        self.queue: list[Waiting] = []
        self._lock_fd = lock_fd
        self._listeners = listeners
        self._store = store
        self._on_event = on_event
        self._env = env
        self._cache = LineCache()  # only its approvals, read from self._store
        self._sel = selectors.DefaultSelector()
        for sock, kind, _inode in listeners:
            self._sel.register(sock, selectors.EVENT_READ, ("listen", kind))

    @classmethod
    def start(
        cls,
        where: Paths,
        *,
        timeout: float,
        on_event: Callable[[Event], None],
        env: Mapping[str, str],
    ) -> Approver:
        """Take the lock, replace stale socket files, listen. GuardError when another approver
        runs, a path is taken by something else, or the store cannot be opened."""
        from guard.verdict import Store

        for path in (where.request, where.control):
            make_socket_dir(os.path.dirname(path))
        lock_fd = lock_socket(where.lock)
        listeners: list[tuple[socket.socket, Kind, int]] = []
        try:
            store = Store.open()
            try:
                store.abandon_pending("the approver that held it stopped")
                for path, kind, variable in (
                    (where.request, "request", "GUARD_APPROVER_SOCKET"),
                    (where.control, "control", "GUARD_APPROVER_CONTROL"),
                ):
                    sock, inode = listen_at(path, variable)
                    listeners.append((sock, kind, inode))  # type: ignore[arg-type]
            except BaseException:
                store.close()
                raise
        except BaseException:
            for sock, _kind, _inode in listeners:
                sock.close()
            os.close(lock_fd)
            raise
        return cls(where, lock_fd, listeners, store, timeout=timeout, on_event=on_event, env=env)

    # -- the loop ------------------------------------------------------------------------------

    def add_reader(self, fd: int, callback: Callable[[], None]) -> None:
        """Call ``callback`` whenever ``fd`` (the human's terminal) has input."""
        self._sel.register(fd, selectors.EVENT_READ, ("fd", callback))

    def step(self, wait: float) -> None:
        """Handle whatever is ready within ``wait`` seconds, then deny what has timed out."""
        if self.queue:
            soonest = min(w.deadline for w in self.queue) - time.monotonic()
            wait = max(0.0, min(wait, soonest))
        for key, _mask in self._sel.select(wait):
            role, what = key.data
            if role == "listen":
                self._accept(key.fileobj, what)  # type: ignore[arg-type]
            elif role == "conn":
                self._read(what)
            else:
                what()
        now = time.monotonic()
        for w in [w for w in self.queue if w.deadline <= now]:
            shown = f"{self._timeout_for(w.ask):g}"
            self._settle(w, False, "", "timeout", f"guard: denied: no answer within {shown} s")

    def answer(
        self, request_id: int, key: str, *, by: Literal["watch", "control", "web"]
    ) -> str:
        """Answer a waiting request with the choice under ``key``; "" or what went wrong."""
        w = next((w for w in self.queue if w.id == request_id), None)
        if w is None:
            return f"guard: no request #{request_id} is waiting"
        choice = next((c for c in w.ask.question.choices if c.key == key), None)
        if choice is None:
            keys = "/".join(c.key for c in w.ask.question.choices)
            return f"guard: request #{request_id} has no answer {key!r}; its keys are {keys}"
        problems: list[str] = []
        if choice.scope in ("session", "always"):
            from guard.asking.confirmation import save_grant

            workspace = w.ask.workspace[0] if w.ask.workspace else ""
            via = {"watch": "guard watch", "web": "guard watch --web"}.get(by, "guard approve")
            problems = save_grant(
                w.ask.command,
                workspace,
                w.ask.session,
                choice,
                list(w.ask.grants.get(key, ())),
                granted_by=f"human via {via}",
                store=self._store,
            )
        for problem in problems:
            self._tell("problem", w.id, problem)
        how = {"watch": "approver", "web": "approver-web"}.get(by, "approver-control")
        denied = "" if choice.scope != "deny" else "guard: denied by the human at the approver"
        self._settle(w, choice.scope != "deny", key, how, denied)
        return ""

    def close(self) -> None:
        """Deny everything still waiting, stop listening, remove the socket files."""
        for w in list(self.queue):
            self._settle(w, False, "", "approver-stopped", STOPPED)
        for key in list(self._sel.get_map().values()):
            if key.data[0] == "conn":
                self._drop(key.data[1])
        self._sel.close()
        for sock, _kind, inode in self._listeners:
            path = sock.getsockname()
            sock.close()
            try:
                if os.lstat(path).st_ino == inode:  # ours still: not replaced by someone else
                    os.unlink(path)
            except OSError:
                pass
        self._store.close()
        os.close(self._lock_fd)

    # -- connections ---------------------------------------------------------------------------

    def _accept(self, listener: socket.socket, kind: Kind) -> None:
        try:
            sock, _ = listener.accept()
        except (BlockingIOError, InterruptedError, ConnectionAbortedError):
            return
        sock.settimeout(SEND_SECONDS)
        who = peer(sock)
        if who is None or who[1] not in (os.geteuid(), 0):
            self._reply(sock, {"type": "refused", "message": STRANGER})
            sock.close()
            what = "uid unknown" if who is None else f"pid {who[0]}, uid {who[1]}"
            self._refused(f"a connection from another user ({what}) on the {kind} socket")
            return
        conn = _Conn(sock, kind, who[0])
        self._sel.register(sock, selectors.EVENT_READ, ("conn", conn))

    def _read(self, conn: _Conn) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError, TimeoutError):
            return
        except OSError:
            data = b""
        if not data:
            self._gone(conn)
            return
        try:
            messages = conn.lines.feed(data)
        except Invalid as exc:
            self._error(conn, f"guard: refused: {exc}")
            return
        for message in messages:
            if conn.sock.fileno() < 0:
                return
            if conn.kind == "control":
                self._control(conn, message)
            else:
                self._request(conn, message)

    def _request(self, conn: _Conn, message: object) -> None:
        kind = message.get("type") if isinstance(message, dict) else None
        if kind != "ask" or conn.waiting:
            self._reply(conn.sock, {"type": "refused", "message": REFUSED})
            self._refused(f"a {kind!r} message on the request socket (pid {conn.pid})")
            w = next((w for w in self.queue if w.id == conn.waiting), None)
            if w is not None:
                self._settle(w, False, "", "refused", REFUSED)
            self._drop(conn)
            return
        try:
            ask = read_ask(message)
        except Invalid as exc:
            self._error(conn, f"guard: the approver could not read the request: {exc}")
            return
        self._arrive(conn, checked(ask))

    def _arrive(self, conn: _Conn, ask: Ask) -> None:
        approval = approved(ask, self._cache, self._store, self._env, self._tell)
        if approval:
            self._audit(ask, "allow", "approval", {"approval": approval, "pid": conn.pid})
            self._tell("allowed", 0, f"allowed by session approval #{approval} — {ask.command}")
            answer = {"type": "answer", "id": 0, "allowed": True, "key": "", "how": "approval"}
            self._reply(conn.sock, answer)
            self._drop(conn)
            return
        projection = json.dumps(
            {"cwd": ask.cwd, "workspace": ask.workspace, "lines": ask.question.lines}
        )
        try:
            request_id = self._store.add_pending(
                session=ask.session, command=ask.command, projection=projection, created=time.time()
            )
        except GuardError as exc:
            self._error(conn, f"{exc} (the request was denied: it could not be queued)")
            return
        now = time.monotonic()
        timeout = self._timeout_for(ask)
        w = Waiting(request_id, ask, conn.sock, conn.pid, now, now + timeout)
        conn.waiting = request_id
        self.queue.append(w)
        self._reply(conn.sock, {"type": "queued", "id": request_id, "timeout": timeout})
        self._tell("arrived", request_id, ask.command)

    def _control(self, conn: _Conn, message: object) -> None:
        d = message if isinstance(message, dict) else {}
        kind = d.get("type")
        if kind == "list":
            now = time.monotonic()
            self._reply(
                conn.sock,
                {"type": "list", "requests": [waiting_summary(w, now) for w in self.queue]},
            )
        elif kind in ("answer", "deny") and isinstance(d.get("id"), int):
            w = next((w for w in self.queue if w.id == d["id"]), None)
            key = d.get("key")
            if kind == "deny" and w is not None:
                key = next(c.key for c in w.ask.question.choices if c.scope == "deny")
            problem = self.answer(d["id"], key if isinstance(key, str) else "", by="control")
            self._reply(
                conn.sock, {"type": "error", "message": problem} if problem else {"type": "done"}
            )
        else:
            self._reply(conn.sock, {"type": "error", "message": f"guard: unknown request {kind!r}"})
        self._drop(conn)

    def _gone(self, conn: _Conn) -> None:
        w = next((w for w in self.queue if w.id == conn.waiting), None)
        if w is not None:
            self._settle(w, False, "", "withdrawn", "")
        self._drop(conn)

    def _error(self, conn: _Conn, message: str) -> None:
        self._reply(conn.sock, {"type": "error", "message": message})
        self._tell("problem", conn.waiting, message)
        self._gone(conn)

    def _drop(self, conn: _Conn) -> None:
        self._forget(conn.sock)

    def _forget(self, sock: socket.socket) -> None:
        with suppress(KeyError, ValueError):
            self._sel.unregister(sock)
        sock.close()

    # -- answers -------------------------------------------------------------------------------

    def _settle(self, w: Waiting, allowed: bool, key: str, how: str, message: str) -> None:
        """Leave the queue, record the answer, send it (unless withdrawn), tell the human."""
        if w in self.queue:
            self.queue.remove(w)
        state = "allowed" if allowed else ("withdrawn" if how == "withdrawn" else "denied")
        try:
            self._store.settle_pending(w.id, state, key or how)
        except GuardError as exc:
            self._tell("problem", w.id, str(exc))
        waited = round(w.waited(time.monotonic()), 1)
        detail = {"request": w.id, "pid": w.pid, "key": key, "waited": waited}
        self._audit(w.ask, "allow" if allowed else "deny", how, detail)  # the decision's one row
        if how != "withdrawn":
            answer = {"type": "answer", "id": w.id, "allowed": allowed, "key": key, "how": how}
            self._reply(w.sock, {**answer, "message": message})
        self._forget(w.sock)
        if allowed:
            from guard.asking.prompt import Answer, summary

            choice = next(c for c in w.ask.question.choices if c.key == key)
            said = summary(Answer(choice, "key")).removeprefix("guard: ")
            self._tell("allowed", w.id, f"{said} — {w.ask.command}")
        elif how == "withdrawn":
            self._tell(
                "withdrawn", w.id, f"withdrawn: its requester stopped waiting — {w.ask.command}"
            )
        else:
            said = (message or "denied").removeprefix("guard: ")
            self._tell("denied", w.id, f"{said} — {w.ask.command}")

    def _timeout_for(self, ask: Ask) -> float:
        return min(self.timeout, ask.question.timeout)

    def _reply(self, sock: socket.socket, message: Mapping[str, object]) -> None:
        with suppress(OSError):  # the requester is gone or stuck; it denies on its own
            sock.sendall(encode(message))

    def _refused(self, what: str) -> None:
        self._tell("refused", 0, f"refused {what}")
        record = {"origin": "approver", "refused": what}
        try:
            self._store.record(
                time=time.time(), session="", cwd="", command="", decision="deny",
                reasons=(what,), how="refused", detail=record,
            )  # fmt: skip
        except GuardError as exc:
            self._tell("problem", 0, str(exc))

    def _audit(self, ask: Ask, decision: str, how: str, detail: Mapping[str, object]) -> None:
        try:
            self._store.record(
                time=time.time(),
                session=ask.session,
                cwd=ask.cwd,
                command=ask.command,
                decision=decision,
                reasons=ask.reasons or ask.question.lines,
                how=how,
                detail={"origin": "approver", "asked_by": ask.origin, **detail},
            )
        except GuardError as exc:
            self._tell("problem", 0, f"{exc} (not written to the audit log)")

    def _tell(self, kind: str, request_id: int, text: str) -> None:
        self._on_event(Event(kind, request_id, text))  # type: ignore[arg-type]
