"""The one line an interactive guarded-bash says on stderr before the shell starts: where the
workspace is, which policy applies, and who answers questions. ``GUARD_QUIET=1`` silences it."""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping

from guard.printable import escaped

QUIET_OFF = ("", "0", "false", "no")


def quiet(env: Mapping[str, str]) -> bool:
    return env.get("GUARD_QUIET", "").strip().lower() not in QUIET_OFF


def banner(env: Mapping[str, str]) -> str:
    """``guard: guarded bash — workspace ~/src/app; policy: shipped default + ~/.config/…;
    questions: this terminal (no approver running)``."""
    from guard.asking import approver_mode
    from guard.policy import PROJECT_FILE, user_policy_path
    from guard.projection import display
    from guard.verdict import build_context

    ctx = build_context(None, env)
    home = ctx.home
    roots = ctx.workspace
    where = ", ".join(display(r, home) for r in roots) if roots and roots[0] else "none"
    files = ["shipped default"]
    for path in (user_policy_path(), os.path.join(roots[0], PROJECT_FILE) if roots else ""):
        if path and os.path.isfile(path):
            files.append(display(path, home))
    listening = _approver_listening(env)
    mode = approver_mode(env)
    if mode == "always":
        asks = "the approver (`guard watch`)" + ("" if listening else ", which is not running")
    elif mode == "never":
        asks = "this terminal (GUARD_APPROVER=never)"
    else:
        asks = "this terminal" + (
            "; the approver when there is none" if listening else " (no approver running)"
        )
    return escaped(
        f"guard: guarded bash — workspace {where}; policy: {' + '.join(files)}; "
        f"questions: {asks}. GUARD_QUIET=1 hides this line"
    )


def _approver_listening(env: Mapping[str, str]) -> bool:
    from guard.asking import paths
    from guard.errors import GuardError

    try:
        where = paths(env).request
    except GuardError:
        return False
    if not os.path.exists(where):
        return False
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    probe.settimeout(0.2)
    try:
        probe.connect(where)
    except OSError:
        return False
    finally:
        probe.close()
    return True
