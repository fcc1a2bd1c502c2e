"""The client side of the resident checker (`guard serve --user`): ask it, or say "check here".

guarded-bash, `guard check`, `guard explain --json` and `guard hook AGENT` call this
before they import anything heavy. It imports only the standard library's cheapest parts
(`_socket`, `os`). Every function returns None whenever the checker cannot answer — turned off
(`GUARD_RESIDENT=0`), no runtime dir, a directory or socket that is not the user's own or is
open to others, a peer of another uid, a refused or dropped connection, a protocol error,
another version, a timeout — and the caller then checks in-process, with the same verdict.
None never means allow.

A missing checker (no socket, or nobody listening on it) is started, detached, and this call is
still answered in-process: nobody waits for the checker to come up.
"""

from __future__ import annotations

import _socket
import os

from guard.entry.resident import protocol as wire
from guard.entry.resident.start import start_later

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

ANSWER_SECONDS = 3.0  # a checker slower than this is taken for hung, and stopped


def check(
    command: str,
    *,
    session: str,
    cwd: str | None = None,
    prompt: bool = True,
    positional: tuple[str, ...] | None = None,
    arg0: str | None = None,
    origin: str = "guard check",
    stdin_code: bool = False,
    login: bool = False,
) -> int | None:
    """The exit status `guard check` would give (its messages printed on stderr), or None.
    `login`: guarded-bash runs a login shell, whose profile runs under the line's ruleset."""
    pairs: list[tuple[str, str | bytes]] = [("kind", "check"), ("text", command)]
    if cwd is not None:
        pairs.append(("cwd", os.path.abspath(cwd)))
    pairs += [("session", session), ("terminal", _flag(_isatty(0))), ("prompt", _flag(prompt))]
    pairs += [("origin", origin), ("stdin_code", _flag(stdin_code))]
    if arg0 is not None:
        pairs.append(("arg0", arg0))
    if positional is not None:
        pairs.append(("positional?", "1"))
        pairs += [("positional", p) for p in positional]
    meanwhile = None
    if origin == "guarded-bash":
        pairs.append(("enforce_capable", "1"))  # this client applies a ruleset it is sent
        pairs.append(("login", _flag(login)))
        agent = os.environ.get("GUARD_AGENT", "") == "1" or not (
            _isatty(0) or os.environ.get("GUARD_AGENT", "") == "0"
        )  # as guard.workspace is_agent: agents' lines run held, by default
        meanwhile = _load_landlock if agent else None
    answer = exchange(pairs, meanwhile=meanwhile)
    if answer is None:
        return None
    try:
        status = int(wire.first(answer, "status"))
    except ValueError:
        return None
    mode = wire.first(answer, "enforce")
    if status == 0 and mode:
        refused = _hold(mode, [wire.text(v) for k, v in answer if k == "grant"])
        if refused:
            write_fd(2, wire.first(answer, "stderr") + refused + "\n")
            return 126
    write_fd(2, wire.first(answer, "stderr"))
    return status


_held: list[int] = []  # the ruleset to restrict this process to, right before exec


def _load_landlock() -> None:
    """Import the system calls' module while the checker judges a guarded-bash line (most are
    agents' lines, which run held): the half millisecond it takes overlaps the checker's work."""
    try:  # noqa: SIM105 - contextlib would cost this path an import
        from guard.kernel import landlock  # noqa: F401
    except (ImportError, AttributeError, OSError):
        pass  # _hold meets the same failure, and says what it means for the line


def _hold(mode: str, grants: list[str]) -> str:
    """Build the kernel ruleset the checker planned (guarded-bash applies it before exec);
    a message when the line must be refused (enforcement required, and not possible here)."""
    try:
        from guard.kernel import landlock

        abi = landlock.abi_version()
    except (ImportError, AttributeError, OSError) as exc:
        abi = f"this Python cannot make the system calls ({exc})"
    if not isinstance(abi, int) or not grants:
        if mode == "require":
            why = abi if isinstance(abi, str) else "the checker sent no ruleset"
            return (
                f"guard: enforcement is required, but {why}; nothing ran. Run it where the"
                ' kernel offers Landlock, or set [enforce] mode = "landlock" (see guard doctor)'
            )
        return ""
    try:
        fd = landlock.ruleset_of((tuple(g.split(" ", 1)) for g in grants), abi)  # type: ignore[misc]
    except OSError as exc:
        return f"guard: cannot create a Landlock ruleset ({exc.strerror}); nothing ran"
    _held.append(fd)
    return ""


def apply_held() -> None:
    """Right before exec: restrict this process to the ruleset the checker planned."""
    while _held:
        from guard.kernel import landlock

        try:
            landlock.hold(_held.pop())
        except OSError as exc:
            from guard.errors import GuardError

            raise GuardError(landlock.REFUSED.format(why=exc.strerror)) from None


def fast_cli(argv: list[str]) -> int | None:
    """`guard check -- LINE` and `guard explain --json -- LINE` through the checker, before
    argparse is imported; None: run the command line as usual (nothing of it was done).
    Agents' hooks: guard/entry/agents/resident_hook.py."""
    if not wire.enabled(os.environ):
        return None
    explaining = argv[:1] == ["explain"]
    parsed = fast_arguments(argv, "explain", "--json") if explaining else check_arguments(argv)
    if parsed is None or (explaining and "--json" not in parsed[0]):
        return None
    options, words = parsed
    from guard.verdict import current_session

    session = options.get("--session") or current_session()
    if explaining:
        return explain(" ".join(words), session=session, cwd=options.get("--cwd"))
    return check(
        " ".join(words), session=session, cwd=options.get("--cwd"),
        prompt="--no-prompt" not in options,
    )  # fmt: skip


def explain(command: str, *, session: str, cwd: str | None = None) -> int | None:
    """`guard explain --json`: its output and status, or None."""
    pairs: list[tuple[str, str | bytes]] = [("kind", "explain"), ("text", command)]
    if cwd is not None:
        pairs.append(("cwd", os.path.abspath(cwd)))
    pairs += [("session", session), ("terminal", _flag(_isatty(0)))]
    answer = exchange(pairs)
    if answer is None:
        return None
    write_fd(2, wire.first(answer, "stderr"))
    write_fd(1, wire.first(answer, "stdout"))
    return 0


def check_arguments(argv: list[str]) -> tuple[dict[str, str], list[str]] | None:
    """`check [--session S] [--cwd D] [--no-prompt] -- WORDS…` read as argparse reads it; None
    for anything else (--json, no `--`, another `--`, -h …), which argparse then reads."""
    return fast_arguments(argv, "check", "--no-prompt")


def fast_arguments(
    argv: list[str], command: str, flag: str
) -> tuple[dict[str, str], list[str]] | None:
    """`COMMAND [--session S] [--cwd D] [FLAG] -- WORDS…`, else None."""
    if argv[:1] != [command] or "--" not in argv:
        return None
    at = argv.index("--")
    words = argv[at + 1 :]
    if not words or "--" in words:
        return None
    options: dict[str, str] = {}
    rest = argv[1:at]
    while rest:
        name, eq, value = rest.pop(0).partition("=")
        if name == flag and not eq:
            options[name] = ""
        elif name in ("--session", "--cwd") and eq:
            options[name] = value
        elif name in ("--session", "--cwd") and rest and not rest[0].startswith("-"):
            options[name] = rest.pop(0)
        else:
            return None
    return options, words


def exchange(
    pairs: list[tuple[str, str | bytes]], *, meanwhile: Callable[[], None] | None = None
) -> list[tuple[str, bytes]] | None:
    """Send a request with this process's directory and environment; the checker's `done`
    answer, or None (and a checker started when there was none). `meanwhile` runs once the
    request is sent, before the answer is read."""
    env = os.environ
    if not wire.enabled(env):
        return None
    try:
        here = os.getcwd()
    except OSError:
        return None  # the in-process path says what is wrong with the directory
    pairs = [*pairs, ("getcwd", here), ("package", wire.package_dir())]
    pairs += [("env", f"{name}={value}") for name, value in env.items()]
    path = wire.socket_path(env)
    sock = connect(path, start=True)
    if sock is None:
        return None
    try:
        answer = _ask(sock, wire.encode(pairs), meanwhile)
    except (OSError, wire.ResidentProtocolError, UnicodeError):
        sock.close()
        return None
    if answer is None or wire.first(answer, "action") != "done":
        sock.close()
        return None
    try:  # taken: the checker may write the audit row (one that needs none has hung up)
        sock.sendall(wire.ACK)
    except OSError:
        pass
    finally:
        sock.close()
    return answer


def request(pairs: list[tuple[str, str | bytes]]) -> list[tuple[str, bytes]] | None:
    """A status or stop request to a running checker (none is started)."""
    sock = connect(wire.socket_path(os.environ), start=False)
    if sock is None:
        return None
    try:
        return _ask(sock, wire.encode(pairs))
    except (OSError, wire.ResidentProtocolError):
        return None
    finally:
        sock.close()


def connect(path: str, *, start: bool) -> _socket.socket | None:
    """A connection to the checker at `path` once the directory, the socket and the peer
    are the user's own; else None, after starting a checker when `start` and none runs."""
    directory = os.path.dirname(path)
    if len(os.fsencode(path)) > wire.SUN_PATH_MAX:
        return None
    if not os.path.lexists(path):
        if not start:
            return None
        if os.path.lexists(directory):
            usable = not wire.private_problem(directory, directory=True)
        else:  # it makes the directory: not where it could not (a read-only state dir)
            parent = os.path.dirname(directory)
            usable = os.access(parent, os.W_OK) or not os.path.lexists(parent)
        if usable:
            start_later(path)
        return None
    if wire.private_problem(directory, directory=True) or wire.private_problem(
        path, directory=False
    ):
        return None
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM | _socket.SOCK_CLOEXEC)
    try:
        sock.settimeout(ANSWER_SECONDS)
        sock.connect(path)
        if wire.peer(sock)[1] != os.getuid():
            sock.close()
            return None
    except OSError as exc:
        sock.close()
        import errno

        if start and exc.errno in (errno.ECONNREFUSED, errno.ENOENT):
            start_later(path)  # a socket nobody listens on: its checker has gone
        return None
    return sock


def _ask(
    sock: _socket.socket, data: bytes, meanwhile: Callable[[], None] | None = None
) -> list[tuple[str, bytes]] | None:
    try:
        sock.sendall(data)
        if meanwhile is not None:
            meanwhile()
        size = int.from_bytes(_receive(sock, 4), "big")
        if size > wire.MAX_MESSAGE:
            raise wire.ResidentProtocolError("an answer over the size limit")
        return wire.decode(_receive(sock, size))
    except TimeoutError:
        _stop_hung(sock)
        return None


def _receive(sock: _socket.socket, size: int) -> bytes:
    return wire.receive(sock, size, other="checker")


def _stop_hung(sock: _socket.socket) -> None:
    """A checker that took longer than ANSWER_SECONDS is stopped; the next call starts one."""
    import signal

    try:
        pid = wire.peer(sock)[0]
        if pid > 1:
            os.kill(pid, signal.SIGTERM)
    except OSError:
        return


def read_stdin(limit: int) -> bytes:
    chunks, got = [], 0
    while got < limit:
        try:
            chunk = os.read(0, min(limit - got, 1 << 16))
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def write_fd(fd: int, text: str) -> None:
    data = text.encode("utf-8", "backslashreplace")  # as guard's own streams write
    try:
        while data:
            data = data[os.write(fd, data) :]
    except OSError:
        return


def _flag(value: bool) -> str:
    return "1" if value else "0"


def _isatty(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False
