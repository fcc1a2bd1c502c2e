"""The page's server: aiohttp on a thread of its own, answering through the approver's loop.

The approver (`guard.asking.approver_server`) keeps one thread: its selector loop. This server
runs an asyncio loop on a second thread and never touches the queue. The approver's thread
hands it each new state as JSON text (`publish`); an answer from the page goes back as
(id, key) through a pipe the approver's selector watches (`take_answers`), and the approver's
reply comes back to the waiting request handler. So every answer, from the terminal, from
`guard approve` or from the page, is given on one thread by `Approver.answer`.

Routes: ``GET /pair?code=…`` pairs a browser (once per code), ``GET /`` the page (paired
only), ``GET /events`` its live state (server-sent events), ``POST /answer`` an answer: the
paired cookie, the CSRF token in a header, and an Origin header of this page, or 403.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import socket
import ssl
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aiohttp import web

from guard.asking.web.pairing import SESSION_SECONDS, Pairing

COOKIE = "guard_watch"
HEARTBEAT = 15.0  # seconds between comments on an idle event stream
QUIET = 5.0  # seconds between refusals said at the terminal
HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
Answer = tuple[int, str, bool]  # id, key, confirmed


@dataclass(frozen=True, slots=True)
class Asked:
    """An answer the page gave, waiting for the approver's thread."""

    id: int
    key: str
    confirmed: bool
    reply: Callable[[str], None]  # the approver's word: "" when done, else the problem


class WebServer:
    """The page, served from ``sock`` (bound by the caller) until `stop`."""

    def __init__(
        self,
        sock: socket.socket,
        tls: ssl.SSLContext | None,
        pairing: Pairing,
        *,
        note: Callable[[str], None],
    ) -> None:
        self.sock = sock
        self.tls = tls
        self.pairing = pairing
        self._note = note  # something for the terminal; called on the page's thread
        self._state = json.dumps({"requests": [], "events": []})
        self._asked: queue.SimpleQueue[Asked] = queue.SimpleQueue()
        self.wake_r, self._wake_w = os.pipe()
        os.set_blocking(self.wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._loop = asyncio.new_event_loop()
        self._changed: asyncio.Event | None = None
        self._closing = False
        self._refused_at = -QUIET
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._run, name="guard-watch-web", daemon=True)

    # -- the approver's thread -----------------------------------------------------------------

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(10)
        if self._failed is not None:
            raise self._failed

    def publish(self, state: str) -> None:
        """A new state for the page (JSON text from `snapshot`)."""
        with suppress(RuntimeError):  # the page's loop has stopped: nobody to tell
            self._loop.call_soon_threadsafe(self._update, state)

    def take_answers(self) -> list[Asked]:
        """The answers given at the page since the last call (after the pipe woke us)."""
        try:
            while os.read(self.wake_r, 512):
                pass
        except (BlockingIOError, InterruptedError):
            pass
        found: list[Asked] = []
        while True:
            try:
                found.append(self._asked.get_nowait())
            except queue.Empty:
                return found

    def wake(self) -> None:
        """Have the approver's selector call its reader soon (from any thread)."""
        try:
            os.write(self._wake_w, b"!")
        except (BlockingIOError, InterruptedError):
            pass  # the pipe is full: a wake-up is pending already
        except OSError:
            pass  # stopped

    def stop(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._shutdown)
            self._thread.join(5)
        for fd in (self.wake_r, self._wake_w):
            with suppress(OSError):
                os.close(fd)

    # -- the page's thread ---------------------------------------------------------------------

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        except BaseException as exc:  # reported by start()
            self._failed = exc
            self._ready.set()
            return
        self._ready.set()
        self._loop.run_forever()
        self._loop.close()

    async def _serve(self) -> None:
        self._changed = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024)
        app.on_response_prepare.append(_headers)
        app.router.add_get("/", self._page)
        app.router.add_get("/pair", self._pair)
        app.router.add_get("/events", self._events)
        app.router.add_post("/answer", self._answer)
        app.router.add_get("/page.js", _static("page.js", "text/javascript"))
        app.router.add_get("/page.css", _static("page.css", "text/css"))
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.SockSite(self._runner, self.sock, ssl_context=self.tls, shutdown_timeout=1.0)
        await site.start()

    def _shutdown(self) -> None:
        self._closing = True
        self._wake_streams()

        async def cleanup() -> None:
            if self._runner is not None:
                await self._runner.cleanup()
            self._loop.stop()

        self._loop.create_task(cleanup())

    def _update(self, state: str) -> None:
        self._state = state
        self._wake_streams()

    def _wake_streams(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    def _refusal(self, text: str) -> None:
        """Say a refusal at the terminal, at most one every few seconds (a loop of refused
        requests must not bury the requests)."""
        now = time.monotonic()
        if now - self._refused_at >= QUIET:
            self._refused_at = now
            self._note(text)

    def _session(self, request: web.Request) -> Any:
        return self.pairing.session(request.cookies.get(COOKIE), time.time())

    async def _pair(self, request: web.Request) -> web.StreamResponse:
        peer = request.remote or "?"
        paired = self.pairing.pair(request.query.get("code", ""), time.time(), peer)
        if paired.session is None:
            self._refusal(f"{paired.problem.removeprefix('guard: ')} (from {peer})")
            return _refused(paired.problem)
        self._note(f"paired a browser at {peer}; that pairing link no longer works")
        response = web.Response(status=303, headers={"Location": "/"})
        response.set_cookie(
            COOKIE,
            paired.session.token,
            max_age=int(SESSION_SECONDS),
            path="/",
            httponly=True,
            samesite="Strict",
            secure=self.tls is not None,
        )
        return response

    async def _page(self, request: web.Request) -> web.StreamResponse:
        s = self._session(request)
        if s is None:
            return _refused("guard: this browser is not paired with guard watch")
        text = _read("page.html").replace("{csrf}", s.csrf)
        return web.Response(text=text, content_type="text/html")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        if self._session(request) is None:
            return web.json_response({"error": "guard: not paired"}, status=403)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        sent = ""
        while not self._closing and self._changed is not None:
            if self._session(request) is None:
                break  # the session expired
            if self._state != sent:
                sent = self._state
                await response.write(f"data: {sent}\n\n".encode())
            waiting = self._changed
            try:
                await asyncio.wait_for(waiting.wait(), HEARTBEAT)
            except TimeoutError:
                await response.write(b": still here\n\n")
        return response

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        now = time.time()
        origin = request.headers.get("Origin", "")
        expected = f"{'https' if self.tls else 'http'}://{request.host}"
        if not self.pairing.may_answer(
            request.cookies.get(COOKIE), request.headers.get("X-CSRF-Token"), now
        ) or origin != expected:
            peer = request.remote or "?"
            self._refusal(f"refused an answer without a paired browser's cookie and token "
                          f"from {peer}")  # fmt: skip
            return web.json_response(
                {"error": "guard: refused: answers come only from a paired browser's page"},
                status=403,
            )
        try:
            body = await request.json()
            request_id, key = body["id"], body["key"]
            confirmed = body.get("confirmed") is True
            if not isinstance(request_id, int) or not isinstance(key, str):
                raise TypeError
        except (ValueError, KeyError, TypeError, AttributeError):
            return web.json_response({"error": "guard: an answer is {id, key}"}, status=400)
        done: asyncio.Future[str] = self._loop.create_future()

        def reply(problem: str) -> None:  # on the approver's thread
            with suppress(RuntimeError):  # the page's loop has stopped
                self._loop.call_soon_threadsafe(_settle, done, problem)

        self._asked.put(Asked(request_id, key, confirmed, reply))
        self.wake()
        try:
            problem = await asyncio.wait_for(done, 10)
        except TimeoutError:
            problem = "guard: the approver did not take the answer; answer at the terminal"
        if problem:
            return web.json_response({"error": problem}, status=409)
        return web.json_response({"said": f"answered #{request_id} with [{key}]"})


def _settle(future: asyncio.Future[str], problem: str) -> None:
    if not future.done():
        future.set_result(problem)


async def _headers(_request: web.Request, response: web.StreamResponse) -> None:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)


def _refused(message: str) -> web.Response:
    text = _read("refused.html").replace("{message}", _html(message))
    return web.Response(text=text, content_type="text/html", status=403)


def _static(name: str, kind: str) -> Callable[[web.Request], Any]:
    async def handler(_request: web.Request) -> web.Response:
        return web.Response(text=_read(name), content_type=kind)

    return handler


def _read(name: str) -> str:
    return resources.files("guard.asking.web").joinpath("static", name).read_text("utf-8")


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
