"""The resident checkers running for a test: found by their socket's path in /proc."""

from __future__ import annotations

import os


def checker_pids(path: str) -> list[int]:
    """The processes serving (or about to serve) the socket at `path`; zombies are not."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
            with open(f"/proc/{entry}/stat", "rb") as handle:
                zombie = handle.read().rsplit(b")", 1)[-1].split()[0] == b"Z"
        except OSError:
            continue
        ours = b"guard.entry.resident.server" in b" ".join(argv) and path.encode() in argv
        if ours and not zombie:
            found.append(int(entry))
    return found
