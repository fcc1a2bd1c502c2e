"""Starting the per-user checker (`guard serve --user`) when a client finds none: detached, once
the client is done, so its start-up never slows the check that found it missing.

On every agent's line: the standard library's cheap part only (os, sys; atexit when needed).
"""

from __future__ import annotations

import os
import sys

from guard.entry.resident import protocol as wire

# The checker waits a moment before it loads guard: the client that started it, and the
# command it runs, should not share the CPU with the checker's start-up (~60 ms of imports).
CHECKER_CODE = (
    "import sys, time; time.sleep(0.05); sys.path.insert(0, sys.argv[3]); "
    "from guard.entry.resident.server import main; "
    "raise SystemExit(main(sys.argv[1], float(sys.argv[2])))"
)


_pending: list[str] = []


def start_later(path: str) -> None:
    """Start a checker for `path` once this process is done (at exit, or before guarded-bash
    execs bash): its start-up must not slow down the check this process is about to make."""
    if not _pending:
        import atexit

        atexit.register(start_pending)
    _pending[:] = [path]


def start_pending() -> None:
    if _pending:
        start_checker(_pending.pop())


def start_checker(path: str) -> None:
    """Start `guard serve --user` for `path`, detached: a session of its own, stdio on
    /dev/null (it closes every other fd it inherits), Python settings ignored (-I)."""
    idle = os.environ.get("GUARD_RESIDENT_IDLE", "")
    try:
        idle = str(float(idle)) if idle else str(wire.DEFAULT_IDLE)
    except ValueError:
        idle = str(wire.DEFAULT_IDLE)
    package = os.path.dirname(wire.package_dir())
    argv = [sys.executable, "-I", "-c", CHECKER_CODE, path, idle, package]
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDWR, 0),
        (os.POSIX_SPAWN_DUP2, 0, 1),
        (os.POSIX_SPAWN_DUP2, 0, 2),
    ]
    try:  # noqa: SIM105 - contextlib would cost this path an import
        os.posix_spawn(sys.executable, argv, os.environ, file_actions=actions, setsid=True)
    except OSError:
        pass
