"""The approver's files: the directory for its sockets, the lock that lets one approver run per
socket, and the listening sockets (mode 0600), which replace a stale socket file a dead approver
left but never a live one or another kind of file.
"""

from __future__ import annotations

import fcntl
import os
import socket
import stat

from guard.errors import GuardError


def make_socket_dir(directory: str) -> None:
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError as exc:
        raise GuardError(
            f"guard: cannot create {directory} for the approver's sockets ({exc.strerror}); "
            "point GUARD_APPROVER_SOCKET and GUARD_APPROVER_CONTROL at a directory you own"
        ) from exc


def lock_socket(path: str) -> int:
    """Hold ``path`` locked for as long as this approver runs: one approver per socket."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise GuardError(
            f"guard: cannot open {path} ({exc.strerror}); make its directory yours"
        ) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(fd, 32).decode("ascii", "replace").strip()
        os.close(fd)
        who = f" (pid {holder})" if holder.isdigit() else ""
        raise GuardError(
            f"guard: another `guard watch`{who} is already answering requests on "
            f"{path.removesuffix('.lock')}; use that one, or stop it first"
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode("ascii"))
    return fd


def listen_at(path: str, variable: str) -> tuple[socket.socket, int]:
    """A listening socket at ``path``, mode 0600; a stale socket file there is replaced."""
    _claim(path, variable)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        sock.bind(path)
    except OSError as exc:
        sock.close()
        raise GuardError(
            f"guard: cannot listen on {path} ({exc.strerror or exc}); point {variable} at a "
            "shorter path in a directory you own"
        ) from exc
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    sock.listen(64)
    sock.setblocking(False)
    return sock, os.lstat(path).st_ino


def _claim(path: str, variable: str) -> None:
    """Make room for a socket at ``path``: a socket nobody answers on is stale and removed; a
    live one, or any other kind of file, stops us."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise GuardError(
            f"guard: {path} exists and is not a socket; move it away, or point {variable} elsewhere"
        )
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(1.0)
    try:
        probe.connect(path)
    except (ConnectionRefusedError, FileNotFoundError):
        os.unlink(path)  # stale: its approver died without cleaning up
        return
    except OSError as exc:
        raise GuardError(
            f"guard: cannot check {path} ({exc.strerror or exc}); remove it if stale"
        ) from exc
    finally:
        probe.close()
    raise GuardError(
        f"guard: another `guard watch` is already answering on {path}; use that one, or stop "
        "it first"
    )
