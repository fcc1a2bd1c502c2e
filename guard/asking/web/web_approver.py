"""`guard watch --web`: the approver's requests on a page, for a phone or another computer.

Ties the page's server (server.py) to the approver: binds the address, chooses HTTP or HTTPS
(HTTPS only beyond loopback), prints the `pair: URL` line with its QR code and the
certificate's fingerprint, hands each new state to the page, gives the page's answers to the
approver on its own thread, and says at the terminal what happened at the page (a browser
paired, an answer refused). Writes the port beside the request socket
(guard/verdict/web_port.py) so that an agent's line naming it asks.
"""

from __future__ import annotations

import io
import ipaddress
import os
import queue
import socket
import time
from collections.abc import Callable, Mapping
from contextlib import suppress

from guard.asking.approver_queue import Event
from guard.asking.approver_server import Approver
from guard.asking.prompt import needs_confirming
from guard.asking.terminal_device import visible
from guard.asking.web import tls
from guard.asking.web.pairing import Pairing
from guard.asking.web.server import WebServer
from guard.asking.web.snapshot import snapshot
from guard.errors import GuardError
from guard.verdict import listen_file

DEFAULT_LISTEN = "127.0.0.1:0"
Say = Callable[..., None]  # prints lines at the terminal, on the approver's thread


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6; port 0: a free one)."""
    host, sep, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise GuardError(
            f"guard: --listen takes HOST:PORT (127.0.0.1:8765, [::1]:0), not {text!r}; fix it"
        )
    return host, int(port)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def needs_tls(host: str, *, cert: str | None, force: bool) -> bool:
    """HTTPS beyond loopback always; on loopback when asked or with a certificate named."""
    return force or bool(cert) or not is_loopback(host)


class WebApprover:
    """The page of one `guard watch`, from `start` to `close`."""

    def __init__(
        self,
        approver: Approver,
        *,
        listen: str,
        cert: str | None,
        key: str | None,
        force_tls: bool,
        say: Say,
        env: Mapping[str, str],
    ) -> None:
        self.approver = approver
        self.host, self.port = parse_listen(listen)
        self._cert, self._key, self._force = cert, key, force_tls
        self._say = say
        self._env = env
        self.pairing = Pairing()
        self._notes: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._events: list[str] = []
        self._server: WebServer | None = None
        self._listen_file = listen_file(env)
        self.base = ""

    def start(self) -> None:
        sock = _bind(self.host, self.port)
        try:
            shown = self.host if self.host not in ("0.0.0.0", "::") else socket.gethostname()
            context, fingerprint = None, ""
            if needs_tls(self.host, cert=self._cert, force=self._force):
                made = tls.certificate(shown, cert=self._cert, key=self._key)
                context, fingerprint = tls.context(made), made.fingerprint
            port = sock.getsockname()[1]
            host = f"[{shown}]" if ":" in shown else shown
            self.base = f"{'https' if context else 'http'}://{host}:{port}/"
            server = WebServer(sock, context, self.pairing, note=self._note)
            server.start()
        except BaseException:
            sock.close()
            raise
        self._server = server
        self.approver.add_reader(server.wake_r, self.on_wake)
        _write_port(self._listen_file, port)
        lines = [f"guard watch: the page is at {self.base} (paired browsers only)"]
        if fingerprint:
            lines.append(f"  its certificate's SHA-256 fingerprint: {fingerprint}")
            lines.append("  compare it with what your browser shows before you trust it")
        self._say(*lines)
        self._pair_line(time.time())
        self.publish()

    def event(self, e: Event) -> None:
        """An approver event: kept for the page's list, and a new state for the page."""
        if e.kind != "arrived":
            self._events.append((f"#{e.id} " if e.id else "") + visible(e.text))
            del self._events[:-20]
        self.publish()

    def publish(self) -> None:
        if self._server is not None:
            state = snapshot(self.approver.queue, self._events, time.monotonic())
            self._server.publish(state)

    def on_wake(self) -> None:
        """The page's thread has answers or notes for this thread."""
        if self._server is None:
            return
        for asked in self._server.take_answers():
            asked.reply(self._answer(asked.id, asked.key, asked.confirmed))
        notes: list[str] = []
        while True:
            try:
                notes.append("guard: page: " + self._notes.get_nowait())
            except queue.Empty:
                break
        if notes:
            self._say(*notes)

    def tick(self) -> None:
        """Each turn of the approver's loop: a new pairing code when the last one expired
        unused and no browser is paired."""
        now = time.time()
        if self.pairing.code_expired(now) and not self.pairing.paired():
            self._pair_line(now)

    def close(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None
        with suppress(OSError):
            os.unlink(self._listen_file)

    def _answer(self, request_id: int, key: str, confirmed: bool) -> str:
        w = next((w for w in self.approver.queue if w.id == request_id), None)
        choice = None if w is None else next(
            (c for c in w.ask.question.choices if c.key == key), None
        )
        if choice is not None and needs_confirming(choice) and not confirmed:
            return f"guard: [{key}] outlasts this session: tap it twice to confirm it"
        return self.approver.answer(request_id, key, by="web")

    def _note(self, text: str) -> None:  # on the page's thread
        self._notes.put(text)
        if self._server is not None:
            self._server.wake()

    def _pair_line(self, now: float) -> None:
        code = self.pairing.new_code(now)
        url = f"{self.base}pair?code={code.text}"
        minutes = round((code.expires - now) / 60)
        self._say(
            f"pair: {url}",
            f"  open it (or scan the code below) on your phone within {minutes} minutes; "
            "it works once",
            *_qr(url),
        )


def _bind(host: str, port: int) -> socket.socket:
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        if host == "localhost":
            host = "127.0.0.1"
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(32)
        sock.setblocking(False)
    except OSError as exc:
        raise GuardError(
            f"guard: cannot listen on {host}:{port} ({exc.strerror or exc}); "
            "choose another --listen HOST:PORT"
        ) from None
    return sock


def _write_port(path: str, port: int) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(f"{port}\n")
    except OSError as exc:
        problem = f"guard: cannot write {path} ({exc.strerror}); check its directory"
        raise GuardError(problem) from None


def _qr(url: str) -> list[str]:
    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue().splitlines()
