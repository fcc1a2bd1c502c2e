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
import sys
import time
from collections.abc import Callable

from guard.entry.resident import protocol as wire
from guard.errors import GuardError

REQUEST_SECONDS = 2.0  # for a client to send its request, and to take its answer
TICK_SECONDS = 1.0  # how often an idle checker looks at its socket and the clock
Pairs = list[tuple[str, bytes]]
Answer = list[tuple[str, str | bytes]]


class ResidentChecker:
    """The state one checker keeps between requests."""

    def __init__(self, path: str) -> None:
        from guard.entry.resident.answers import FreshPolicies

        self.path = path
        self.started = time.time()
        self.served = 0
        self.policies = FreshPolicies()
        self.code = CodeWatch(code_folders)
        self.stopping = False

    def answer(self, pairs: Pairs) -> tuple[Answer, Callable[[], None] | None]:
        from guard.entry.resident import answers as answers

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
        if self.code.changed():
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


def code_folders(package: str | None = None) -> tuple[str, ...]:
    """guard's package directory (or `package`) and those of its subpackages, at any depth."""
    package = package or wire.package_dir()
    found = [package]
    for folder, dirs, _files in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d[0] not in "._")
        found += [f"{folder}/{d}" for d in dirs if os.path.isfile(f"{folder}/{d}/__init__.py")]
    return tuple(found)


def code_stamp(folders: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    """The names, sizes and mtimes of guard's modules: an upgrade or an edit changes it."""
    found = []
    for folder in folders:
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith((".py", ".toml")):
                    with contextlib.suppress(OSError):
                        info = entry.stat()
                        found.append((entry.path, info.st_size, info.st_mtime_ns))
    return tuple(sorted(found))


# what changes a module or a folder of them: written, touched, created, removed, renamed; the
# file or folder itself removed or renamed (IN_MODIFY … IN_MOVE_SELF in inotify(7))
WATCHED = 0x2 | 0x4 | 0x8 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800


class CodeWatch:
    """Whether guard's code changed since the checker started, asked before every answer.
    Comparing `code_stamp` costs a stat of each module (a quarter of an answer), so where
    inotify watches the folders, the stamp is compared only after the kernel reported an event
    there: a change written before a request came is always seen by that request."""

    def __init__(self, folders: Callable[[], tuple[str, ...]]) -> None:
        self.folders = folders  # asked again for each comparison: a new subpackage counts
        modules = tuple(path for path, _, _ in code_stamp(folders()))
        # watched first, stamped after: a change made meanwhile is reported; each module
        # itself too, so that one written through another hard link is reported as well
        self.events = _watch((*folders(), *modules))
        self.stamp = code_stamp(folders())
        self.seen = False

    def changed(self) -> bool:
        if self.seen:
            return True
        if self.events is not None:
            try:
                if not _drain(self.events):
                    return False
            except OSError:
                os.close(self.events)
                self.events = None
        self.seen = code_stamp(self.folders()) != self.stamp
        return self.seen


def _watch(paths: tuple[str, ...]) -> int | None:
    """A non-blocking inotify descriptor that reports changes of `paths` (and in each that is
    a folder), or None."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fd = int(libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC))
    except (ImportError, OSError, AttributeError):  # no ctypes, or not Linux
        return None
    if fd < 0:
        return None
    for path in paths:
        if libc.inotify_add_watch(fd, os.fsencode(path), WATCHED) < 0:
            os.close(fd)
            return None
    return fd


def _drain(fd: int) -> bool:
    """Read every event queued on `fd`: whether there were any."""
    seen = False
    while True:
        try:
            if not os.read(fd, 1 << 16):
                return seen
        except BlockingIOError:
            return seen
        seen = True


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
    try:
        started_in = os.getcwd()  # the directory of the client that started it: warmed up
    except OSError:
        started_in = "/"
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
        _already(path)  # another checker serves this socket
        return 0
    try:
        listener = listen(path)
    except OSError as exc:
        os.close(lock)
        raise GuardError(f"guard: the checker cannot listen on {path} ({exc.strerror}); "
                         "check the directory, or set GUARD_RESIDENT=0") from None
    ours = os.stat(path).st_ino
    checker = ResidentChecker(path)
    from guard.verdict import keep_stores_open

    keep_stores_open()
    warm_up(checker, started_in)
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


def _already(path: str) -> None:
    """Say that a checker serves ``path`` already (to a client that started this one, stderr
    is /dev/null; to a human who typed `guard serve --user`, it is the answer)."""
    from guard.entry.resident.client import request

    answer = request([("kind", "status")])
    pid = wire.first(answer, "pid") if answer is not None else ""
    which = f" (pid {pid})" if pid else ""
    with contextlib.suppress(OSError, ValueError):
        print(f"guard: a resident checker is already running{which} on {path}; nothing was "
              "started (`guard serve --user --stop` stops it)", file=sys.stderr)  # fmt: skip


def warm_up(checker: ResidentChecker, directory: str) -> None:
    """Load what answering needs (the modules, the parser, the policy, the enforcement and
    the ruleset of a line in `directory`, with the environment of the client that started the
    checker: most likely the next one's) before the first request, so that it is as fast as the
    next ones; clients that come meanwhile wait. What it keeps is checked as always before use."""
    try:
        from guard.entry import judgement_json  # noqa: F401
        from guard.entry.agents import core, protocols  # noqa: F401
        from guard.entry.check import LineRequest, decide_line
        from guard.kernel import probe, ruleset_for

        line = LineRequest("true", cwd=directory, session=None, use_store=False, agent=True,
                           policy_loader=checker.policies.load)  # fmt: skip
        result = decide_line(line)
        if probe()[0] is not None:
            ruleset_for(result, os.environ)
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


def serve(listener: socket.socket, checker: ResidentChecker, idle: float, ours: int) -> None:
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


def handle(conn: socket.socket, checker: ResidentChecker) -> None:
    """One request from a peer of our uid: answer it; after the client's ACK, the audit row."""
    conn.settimeout(REQUEST_SECONDS)
    try:
        if wire.peer(conn)[1] != os.getuid():
            return
        size = int.from_bytes(_receive(conn, 4), "big")
        if size > wire.MAX_MESSAGE:
            return
        pairs = wire.decode(_receive(conn, size))
    except (OSError, wire.ResidentProtocolError):
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
