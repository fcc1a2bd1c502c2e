"""Session identity: which shell or agent run a command line belongs to.

``GUARD_SESSION`` names the session when it is set (the shell hooks pass theirs explicitly).
Otherwise the session is the parent process: an agent that runs ``bash -c`` again and again is
one session, because every call has the same parent. A process id alone is reused by the kernel,
so the id also carries the parent's start time and, on Linux, the boot it started in:
``ppid-12345-987654-3f1c0a2b``. Where neither /proc nor ``ps`` can tell the start time the id is
``ppid-12345`` — a later process that gets the same pid would then inherit the session until it
goes idle; that is the documented caveat of such systems.

A session's approvals end once it has been idle (no command checked) for `idle_seconds`.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # every guarded-bash start asks for its session: no typing imported
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

IDLE_SECONDS = 12 * 3600


def session_id(env: Mapping[str, str], ppid: int, read_stamp: Callable[[int], str | None]) -> str:
    """The session of a process whose environment is ``env`` and whose parent is ``ppid``.
    ``read_stamp`` tells when a process started (None when it cannot)."""
    given = env.get("GUARD_SESSION", "")
    if given:
        return given
    stamp = read_stamp(ppid)
    return f"ppid-{ppid}-{stamp}" if stamp else f"ppid-{ppid}"


def stat_start_time(stat: str) -> str | None:
    """Field 22 (starttime, clock ticks after boot) of a ``/proc/<pid>/stat`` line.

    Field 2 is the command name in parentheses, and that name may itself hold spaces and
    parentheses (a process can name itself ``a) b (c``), so fields are counted after the *last*
    closing parenthesis, where field 3 begins."""
    close = stat.rfind(")")
    if close < 0:
        return None
    fields = stat[close + 1 :].split()
    if len(fields) < 20:
        return None
    value = fields[19]  # fields[0] is field 3
    return value if value.isascii() and value.isdigit() else None


def process_stamp(pid: int, proc: str = "/proc") -> str | None:
    """When process ``pid`` started, as text that differs between processes that share a pid:
    start ticks and boot id on Linux, ``ps``'s start time where there is no ``proc`` file
    system; None when unknown."""
    try:
        with open(f"{proc}/{pid}/stat", "rb") as handle:
            stat = handle.read().decode("latin-1")
    except FileNotFoundError:
        return None if os.path.isdir(f"{proc}/self") else _ps_start(pid)
    except OSError:
        return None
    start = stat_start_time(stat)
    if start is None:
        return None
    boot = _boot_id(proc)
    return f"{start}-{boot}" if boot else start


def _boot_id(proc: str) -> str:
    try:  # read as bytes: a text file would import the ascii codec on every guarded-bash start
        with open(f"{proc}/sys/kernel/random/boot_id", "rb") as handle:
            return handle.read().decode("ascii").strip().replace("-", "")[:8]
    except (OSError, ValueError):
        return ""


def _ps_start(pid: int) -> str | None:
    """``ps -o lstart=`` (macOS, the BSDs): the start time to the second, spaces as ``_``."""
    import subprocess  # only where there is no /proc

    try:
        done = subprocess.run(
            ["ps", "-o", "lstart=", "-p", str(pid)],
            capture_output=True,
            text=True,
            timeout=5,
            env={**os.environ, "LC_ALL": "C"},
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    words = done.stdout.split()
    return "_".join(words) if done.returncode == 0 and words else None


def current_session() -> str:
    """The session of this process: ``GUARD_SESSION``, else its parent process."""
    return session_id(os.environ, os.getppid(), process_stamp)


def idle_seconds(env: Mapping[str, str]) -> float:
    raw = env.get("GUARD_SESSION_IDLE", "")
    try:
        return float(raw) if raw else IDLE_SECONDS
    except ValueError:
        return IDLE_SECONDS
