"""`guard serve --user`: one resident checker per user, on a Unix socket in a private directory.

It listens on `checker.sock` in the resident dir (`$XDG_RUNTIME_DIR/guard`, else `run` in the
state dir; 0700, the user's own, or it does not start) and holds `checker.lock` there with
flock, so one checker serves one socket: a second one exits at once, and the one holding the
lock may replace a socket left behind by a checker that died. It answers only peers of its own
uid (SO_PEERCRED), one request at a time, and exits after `idle` seconds without a request, on
SIGTERM, on a `stop` request, when its socket is removed or replaced, or when guard's code
changed under it (the next client then starts a fresh one). It writes nothing to a terminal.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import socket
import time
from collections.abc import Callable

from guard.entry import resident_protocol as wire
from guard.errors import GuardError

REQUEST_SECONDS = 2.0  # for a client to send its request, and to take its answer
TICK_SECONDS = 1.0  # how often an idle checker looks at its socket and the clock
Pairs = list[tuple[str, bytes]]
Answer = list[tuple[str, str | bytes]]


class Checker:
    """The state one checker keeps between requests."""

    def __init__(self, path: str) -> None:
        from guard.entry.resident_answers import FreshPolicies

        self.path = path
        self.started = time.time()
        self.served = 0
        self.policies = FreshPolicies()
        self.code = code_stamp()
        self.stopping = False

    def answer(self, pairs: Pairs) -> tuple[Answer, Callable[[], None] | None]:
        from guard.entry import resident_answers as answers

        kind = wire.first(pairs, "kind")
        if kind == "status":
            return [
                ("action", "done"),
                ("pid", str(os.getpid())),
                ("started", repr(self.started)),
                ("served", str(self.served)),
                ("socket", self.path),
            ], None
        if kind == "stop":
            self.stopping = True
            return [("action", "done"), ("pid", str(os.getpid()))], None
        if wire.first(pairs, "package") != wire.package_dir():
            return answers.fallback("a client of another guard install"), None
        if code_stamp() != self.code:
            self.stopping = True
            return answers.fallback("guard's code changed since this checker started"), None
        if kind == "check":
            self.served += 1
            return answers.check(pairs, self.policies)
        if kind == "explain":
            self.served += 1
            return answers.explain(pairs, self.policies)
        if kind == "hook":
            self.served += 1
            return answers.hook(pairs, self.policies)
        return answers.fallback(f"unknown request kind {kind!r}"), None


def code_stamp() -> tuple[tuple[str, int, int], ...]:
    """The names, sizes and mtimes of guard's modules: an upgrade or an edit changes it."""
    package = wire.package_dir()
    found = []
    folders = [package]
    with contextlib.suppress(OSError), os.scandir(package) as top:
        folders += [e.path for e in top if e.is_dir() and e.name[0] not in "._"]
    for folder in folders:
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith((".py", ".toml")):
                    with contextlib.suppress(OSError):
                        info = entry.stat()
                        found.append((entry.path, info.st_size, info.st_mtime_ns))
    return tuple(sorted(found))


def private_dir(path: str) -> None:
    """Make `path` (0700) when it is missing; raise GuardError unless it is ours and private."""
    with contextlib.suppress(FileExistsError):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.mkdir(path, 0o700)
    problem = wire.private_problem(path, directory=True)
    if problem:
        raise GuardError(f"guard: the checker's directory is not safe: {problem}; "
                         "remove it, or set GUARD_RESIDENT=0")


def main(path: str, idle: float = wire.DEFAULT_IDLE) -> int:
    """Serve on `path` until idle, stopped or replaced; 0 also when another checker has it.
    Raises GuardError when it cannot serve there."""
    os.closerange(3, 1 << 16)  # nothing its client had open stays open for 10 minutes
    os.umask(0o077)
    with contextlib.suppress(OSError):
        os.chdir("/")
    directory = os.path.dirname(path)
    if len(os.fsencode(path)) > wire.SUN_PATH_MAX:
        raise GuardError(f"guard: the checker's socket path {path} is too long for a Unix socket;"
                         " set XDG_RUNTIME_DIR to a shorter directory, or GUARD_RESIDENT=0")
    try:
        private_dir(directory)
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
        lock = os.open(os.path.join(directory, wire.LOCK_NAME), flags, 0o600)
    except OSError as exc:
        raise GuardError(f"guard: the checker cannot use {directory} ({exc.strerror}); "
                         "check its owner and mode, or set GUARD_RESIDENT=0") from None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(lock)
        return 0  # another checker serves this socket
    try:
        listener = listen(path)
    except OSError as exc:
        os.close(lock)
        raise GuardError(f"guard: the checker cannot listen on {path} ({exc.strerror}); "
                         "check the directory, or set GUARD_RESIDENT=0") from None
    ours = os.stat(path).st_ino
    checker = Checker(path)
    from guard.approvals.store import keep_stores_open

    keep_stores_open()
    warm_up(checker)
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)  # ^C, when it runs in the foreground by hand
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        serve(listener, checker, idle, ours)
    except _Stopped:
        pass
    finally:
        with contextlib.suppress(OSError):
            if os.stat(path).st_ino == ours:
                os.unlink(path)
        listener.close()
        os.close(lock)
    return 0


def warm_up(checker: Checker) -> None:
    """Load what answering needs (the modules, the parser, the policy) before the first
    request, so that it is as fast as the next ones; clients that come meanwhile wait."""
    try:
        from guard.approvals.judgement import judge
        from guard.entry import agent_core, agent_protocols, check, judgement_json  # noqa: F401

        judge("true", cwd="/", session=None, use_store=False, agent=True,
              policy_loader=checker.policies.load)  # fmt: skip
    except Exception:  # a line that fails here fails again, and is answered, when it comes
        return


def listen(path: str) -> socket.socket:
    """Bind `path`, replacing a socket a dead checker left (we hold the lock: none lives)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # a link or a file is removed itself, never what it points to
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)
    listener.listen(64)
    return listener


class _Stopped(BaseException):
    """SIGTERM: not an Exception, so that no handler of a request's errors swallows it."""


def _stop(signum: int, frame: object) -> None:
    raise _Stopped


def serve(listener: socket.socket, checker: Checker, idle: float, ours: int) -> None:
    last = time.monotonic()
    while not checker.stopping:
        left = idle - (time.monotonic() - last)
        if left <= 0:
            return
        listener.settimeout(min(left, TICK_SECONDS))
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            if not _still_ours(checker.path, ours):
                return
            continue
        with conn:
            handle(conn, checker)
        last = time.monotonic()


def _still_ours(path: str, ours: int) -> bool:
    try:
        return os.stat(path).st_ino == ours
    except OSError:
        return False


def handle(conn: socket.socket, checker: Checker) -> None:
    """One request from a peer of our uid: answer it; after the client's ACK, the audit row."""
    conn.settimeout(REQUEST_SECONDS)
    try:
        if wire.peer(conn)[1] != os.getuid():
            return
        size = int.from_bytes(_receive(conn, 4), "big")
        if size > wire.MAX_MESSAGE:
            return
        pairs = wire.decode(_receive(conn, size))
    except (OSError, wire.ProtocolError):
        with contextlib.suppress(OSError):
            conn.sendall(wire.encode([("action", "fallback"), ("reason", "a bad request")]))
        return
    try:
        answer, after = checker.answer(pairs)
    except Exception as exc:  # the client checks in-process, and meets the same problem there
        answer, after = [("action", "fallback"), ("reason", f"{type(exc).__name__}: {exc}")], None
    try:
        conn.sendall(wire.encode(answer))
        if after is not None and conn.recv(1) == wire.ACK:
            after()
    except OSError:
        return
    except Exception:  # a lost audit row must not stop the checker
        return


def _receive(conn: socket.socket, size: int) -> bytes:
    return wire.receive(conn, size, other="client")
