"""Audit rows also sent to the system log, for the log pipeline a machine already runs.

Configured by `[audit] journald = true` (journald's native protocol over its datagram socket,
one structured field per column) or `[audit] syslog = true` (RFC 5424 over `/dev/log`), in the
user's or the managed policy; a string instead of `true` is the socket's path. Only the
standard library is used, and the socket module only when a target is configured.

The local store stays the record: a row is written there first, and a socket that is missing
or refuses the message costs one `guard:` warning per process and target, never the row.
"""

from __future__ import annotations

import os
import sys
from typing import NamedTuple

from guard.policy import Value, setting
from guard.verdict.store.schema import AuditRow

JOURNALD_SOCKET = "/run/systemd/journal/socket"
SYSLOG_SOCKET = "/dev/log"
FACILITY = 10  # authpriv: command lines may hold secrets, so they go where auth logs go
PRIORITY = {"deny": 4, "ask": 5, "allow": 6}  # warning, notice, info; anything else notice
SD_ID = "guard@32473"  # 32473: the enterprise number RFC 5612 sets aside for such use
SEND_TIMEOUT = 0.25  # seconds: a stuck log daemon must not hold up the shell


class Target(NamedTuple):
    kind: str  # "journald" or "syslog"
    path: str  # the socket


def targets(settings: tuple[tuple[str, Value, str], ...]) -> tuple[Target, ...]:
    """The system-log targets the effective settings name."""
    out: list[Target] = []
    for kind, default in (("journald", JOURNALD_SOCKET), ("syslog", SYSLOG_SOCKET)):
        value = setting(settings, f"audit.{kind}")
        if value is True:
            out.append(Target(kind, default))
        elif isinstance(value, str) and value:
            out.append(Target(kind, value))
    return tuple(out)


_CACHE: dict[tuple[object, ...], tuple[Target, ...]] = {}
_WARNED: set[Target] = set()


def configured_targets() -> tuple[Target, ...]:
    """The targets the managed and the user's policy set; re-read when either file changes."""
    from guard.policy import load_policy, managed_policy_path, user_policy_path

    paths = (managed_policy_path(), user_policy_path())
    key = tuple(_status(path) for path in paths)
    if all(k is None for k in key):
        return ()
    if key not in _CACHE:
        _CACHE.clear()
        # most files have no [audit]: do not parse them again for every row to find that out
        named = any(b"audit" in _head(path) for path, k in zip(paths, key, strict=True) if k)
        _CACHE[key] = targets(load_policy(None).settings) if named else ()
    return _CACHE[key]


def _head(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(1 << 20)
    except OSError:
        return b""


def _status(path: str) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def send(event: AuditRow, to: tuple[Target, ...]) -> None:
    """Send `event` to each target; a failure warns once per target and process."""
    for target in to:
        try:
            if target.kind == "journald":
                _send_journal(journal_message(event), target.path)
            else:
                _send_syslog(event, target.path)
        except (OSError, ValueError) as error:
            _warn(target, error)


def _warn(target: Target, error: BaseException) -> None:
    if target in _WARNED:
        return
    _WARNED.add(target)
    why = getattr(error, "strerror", None) or str(error) or type(error).__name__
    daemon = "systemd-journald" if target.kind == "journald" else "the syslog daemon"
    print(
        f"guard: cannot send the audit log to {target.kind} at {target.path} ({why}); it is "
        f"kept in the local store only (`guard log`) — start {daemon}, or change "
        f"[audit] {target.kind} in your policy",
        file=sys.stderr,
    )


# ---- journald ---------------------------------------------------------------------------------


def journal_fields(event: AuditRow) -> list[tuple[str, str]]:
    return [
        ("MESSAGE", f"guard: {event.decision}: {one_line(event.command)}"),
        ("PRIORITY", str(PRIORITY.get(event.decision, 5))),
        ("SYSLOG_FACILITY", str(FACILITY)),
        ("SYSLOG_IDENTIFIER", "guard"),
        ("SYSLOG_PID", str(os.getpid())),
        ("GUARD_DECISION", event.decision),
        ("GUARD_SESSION", event.session),
        ("GUARD_COMMAND", event.command),
        ("GUARD_CWD", event.cwd),
        ("GUARD_REASONS", "\n".join(event.reasons)),
        ("GUARD_HOW", event.how),
        ("GUARD_DETAIL", event.detail),
        ("GUARD_AUDIT_ID", str(event.id)),
        ("GUARD_TIME", f"{event.time:.6f}"),
    ]


def journal_message(event: AuditRow) -> bytes:
    """journald's native format: `NAME=value\\n`, or, for a value holding a newline,
    `NAME\\n`, its length as 64-bit little-endian, the bytes, `\\n`."""
    out = bytearray()
    for name, value in journal_fields(event):
        data = value.encode("utf-8", "surrogateescape")
        if b"\n" in data:
            out += name.encode("ascii") + b"\n" + len(data).to_bytes(8, "little") + data + b"\n"
        else:
            out += name.encode("ascii") + b"=" + data + b"\n"
    return bytes(out)


def _send_journal(data: bytes, path: str) -> None:
    import errno

    try:
        _send_datagram(data, path)
    except OSError as error:
        if error.errno not in (errno.EMSGSIZE, errno.ENOBUFS):
            raise
        _send_memfd(data, path)  # too large for one datagram: pass a sealed memfd, as sd does


def _send_memfd(data: bytes, path: str) -> None:
    import array
    import fcntl
    import socket

    fd = os.memfd_create("guard-journal", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        os.write(fd, data)
        seals = fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SEAL
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, seals)
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.settimeout(SEND_TIMEOUT)
            rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]).tobytes())]
            sock.sendmsg([], rights, 0, path)
    finally:
        os.close(fd)


# ---- syslog (RFC 5424) ------------------------------------------------------------------------


def syslog_message(event: AuditRow, *, hostname: str | None = None) -> bytes:
    """`<PRI>1 TIMESTAMP HOST guard PID MSGID [guard@32473 …] MSG`, MSG one line."""
    from datetime import UTC, datetime

    if hostname is None:
        import socket

        hostname = socket.gethostname()
    pri = FACILITY * 8 + PRIORITY.get(event.decision, 5)
    stamp = datetime.fromtimestamp(event.time, UTC).isoformat(timespec="microseconds")
    stamp = stamp.replace("+00:00", "Z")
    msgid = event.decision if event.decision.isascii() and event.decision.isalnum() else "-"
    params = [
        ("decision", event.decision),
        ("session", event.session),
        ("command", event.command),
        ("cwd", event.cwd),
        ("reasons", "\n".join(event.reasons)),
        ("how", event.how),
        ("detail", event.detail),
        ("id", str(event.id)),
    ]
    data = " ".join(f'{name}="{_sd_escape(value)}"' for name, value in params)
    host = _header_word(hostname)
    message = f"guard: {event.decision}: {one_line(event.command)}"
    line = f"<{pri}>1 {stamp} {host} guard {os.getpid()} {msgid} [{SD_ID} {data}] {message}"
    return line.encode("utf-8", "backslashreplace")


SYSLOG_COMMAND_LIMIT = 16384  # characters kept of a command too large for one datagram


def _send_syslog(event: AuditRow, path: str) -> None:
    import errno

    try:
        _send_datagram(syslog_message(event), path)
    except OSError as error:
        if error.errno not in (errno.EMSGSIZE, errno.ENOBUFS):
            raise
        # syslog has no way to pass more: keep the start and say how long it was
        cut = event.command[:SYSLOG_COMMAND_LIMIT]
        cut += f"… ({len(event.command)} characters; the whole line is in the local store)"
        _send_datagram(syslog_message(event._replace(command=cut)), path)


def _sd_escape(value: str) -> str:
    """RFC 5424 PARAM-VALUE: `"`, `\\` and `]` are escaped with a backslash."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("]", "\\]")


def _header_word(value: str) -> str:
    word = "".join(c for c in value if "!" <= c <= "~")[:255]
    return word or "-"


def one_line(text: str) -> str:
    """The command for a one-line MESSAGE: newlines and other controls written as `\\n`, `\\x1b`."""
    if text.isprintable():
        return text
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return "".join(c if c.isprintable() else named.get(c, _hex(c)) for c in text)


def _hex(c: str) -> str:
    return f"\\x{ord(c):02x}" if ord(c) < 256 else c.encode("unicode_escape").decode("ascii")


def _send_datagram(data: bytes, path: str) -> None:
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.settimeout(SEND_TIMEOUT)
        sock.sendto(data, path)
