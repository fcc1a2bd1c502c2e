"""The resident checker's wire format and where its socket lives. Standard library only.

A message is a 4-byte big-endian length and that many bytes of fields; a field is a 4-byte
length and its bytes. Fields come in pairs, KEY then VALUE, and a key may repeat (`env`,
`positional`). The first pair is always `v` and VERSION: a client and a checker of different
versions never use each other's answers (the client checks in-process instead). Change VERSION
whenever what a client must do with an answer changes — say, an enforcement plan it must apply
before it execs bash (issue 17): clients, and native launchers already compiled, built for the
old version then check in-process instead of running the line unenforced.

Request keys: `kind` (check, explain, hook, status, stop), `package` (the client's guard
package directory: a checker of another install answers fallback); for check and explain:
`text`, `cwd` (given with --cwd), `getcwd` (the client's directory), `session`, `terminal` (1
when stdin is a terminal), `prompt`, `origin`, `stdin_code`, `arg0`, `positional` (repeated;
`positional?` 1 when there are any, even none), `env` (repeated NAME=VALUE: the whole
environment); for hook: `agent`, `input` (what the agent wrote on stdin), `getcwd`, `session`
(the parent's, for input without one), `env`. Answer keys: `action` (done: use `status`,
`stdout`, `stderr`; fallback: check in-process, `reason` says why), and for status: `pid`,
`started`, `served`, `socket`.
After a `done` answer the client sends one ACK byte: only then does the checker write the
audit row, so a client that gave up and checked in-process is never recorded twice.
"""

from __future__ import annotations

import _socket
import os
import sys

VERSION = "1"
ACK = b"\x06"
MAX_MESSAGE = 64 << 20  # a hook's input may be 16 MiB; the environment comes on top
SOCKET_NAME = "checker.sock"
LOCK_NAME = "checker.lock"
DEFAULT_IDLE = 600.0
SUN_PATH_MAX = 107  # bytes of a Unix socket path, without its NUL


class ResidentProtocolError(Exception):
    """A message that does not follow the format, or from another version."""


ENCODED = ""  # a pair with this key (no field has an empty name) carries `fields` output as is


def encode(pairs: list[tuple[str, str | bytes]]) -> bytes:
    body = b"\0\0\0\x01v" + len(VERSION).to_bytes(4, "big") + VERSION.encode() + fields(pairs)
    return len(body).to_bytes(4, "big") + body


def fields(pairs: list[tuple[str, str | bytes]]) -> bytes:
    """The pairs' fields, without the version and the length: what a message that sends the
    same pairs again and again (an enforced line's grants) encodes once."""
    parts = []
    for key, value in pairs:
        data = value if isinstance(value, bytes) else value.encode("utf-8", "surrogateescape")
        if key == ENCODED:
            parts.append(data)
            continue
        parts += [len(key).to_bytes(4, "big"), key.encode(), len(data).to_bytes(4, "big"), data]
    return b"".join(parts)


def decode(body: bytes) -> list[tuple[str, bytes]]:
    """The pairs of a message body (its length prefix removed), the version pair checked."""
    fields: list[bytes] = []
    at, end = 0, len(body)
    while at < end:
        if at + 4 > end:
            raise ResidentProtocolError("a field's length is cut off")
        size = int.from_bytes(body[at : at + 4], "big")
        at += 4
        if at + size > end:
            raise ResidentProtocolError("a field is cut off")
        fields.append(body[at : at + size])
        at += size
    if len(fields) % 2 or fields[:2] != [b"v", VERSION.encode()]:
        raise ResidentProtocolError("not a message of this version")
    return [(fields[i].decode("ascii", "replace"), fields[i + 1]) for i in range(2, len(fields), 2)]


def package_dir() -> str:
    """The guard package this process runs: a checker answers only clients of the same one."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def text(value: bytes) -> str:
    return value.decode("utf-8", "surrogateescape")


def first(pairs: list[tuple[str, bytes]], key: str, default: str = "") -> str:
    for name, value in pairs:
        if name == key:
            return text(value)
    return default


def every(pairs: list[tuple[str, bytes]], key: str) -> list[str]:
    return [text(value) for name, value in pairs if name == key]


def enabled(env: dict[str, str] | os._Environ[str]) -> bool:
    """`GUARD_RESIDENT=0` turns the checker off: every call checks in-process. It is off where
    the kernel cannot tell a socket's peer (no SO_PEERCRED: not Linux)."""
    if not hasattr(_socket, "SO_PEERCRED"):
        return False
    return env.get("GUARD_RESIDENT", "").strip().lower() not in ("0", "off", "no", "false")


def resident_dir(env: dict[str, str] | os._Environ[str]) -> str:
    """`$XDG_RUNTIME_DIR/guard` when the runtime dir is there, else `run` in the state dir."""
    runtime = env.get("XDG_RUNTIME_DIR", "").strip()
    if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
        return os.path.join(runtime, "guard")
    state = env.get("GUARD_STATE_DIR", "")
    if not (state and os.path.isabs(state)):
        from guard.dirs import user_state_dir

        state = user_state_dir()
    return os.path.join(state, "run")


def socket_path(env: dict[str, str] | os._Environ[str]) -> str:
    return os.path.join(resident_dir(env), SOCKET_NAME)


def private_problem(path: str, *, directory: bool) -> str:
    """Why `path` is not a safe place to talk to the checker ("" when it is): it must be ours,
    and a directory must be closed to everyone else (0700)."""
    import stat

    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    if info.st_uid != os.getuid():
        return f"{path} belongs to uid {info.st_uid}, not to you"
    if directory and not stat.S_ISDIR(info.st_mode):
        return f"{path} is not a directory"
    if directory and info.st_mode & 0o077:
        return f"{path} is open to others (mode {stat.S_IMODE(info.st_mode):o}, not 700)"
    if not directory and not stat.S_ISSOCK(info.st_mode):
        return f"{path} is not a socket"
    return ""


def peer(sock: _socket.socket) -> tuple[int, int]:
    """The pid and uid of the process at the other end of a connected Unix socket."""
    raw = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    return int.from_bytes(raw[0:4], sys.byteorder, signed=True), int.from_bytes(
        raw[4:8], sys.byteorder
    )


def receive(sock: _socket.socket, size: int, *, other: str) -> bytes:
    """Exactly `size` bytes from `sock`; a ResidentProtocolError when `other` (the checker, the
    client) closes the connection first."""
    chunks, got = [], 0
    while got < size:
        chunk = sock.recv(min(size - got, 1 << 20))
        if not chunk:
            raise ResidentProtocolError(f"the {other} closed the connection")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)
