"""What a policy read from disk depends on besides `load_policy`'s arguments, as one value.

A long-lived process (the resident checker) keeps the policies it read; it may use one again
only while a fresh process would read the same policy now. `load_policy` reads three files:
the user's, the project's and the managed one. Each counts by its bytes (whatever its times
say: a file written twice within one tick of the kernel's clock keeps its stamp) and by its
mode, owner, group and inode. For the managed file more counts (guard/policy/managed.py):
which file it is (the machine's while it exists, else `GUARD_MANAGED_POLICY`), the owner the
tests name for root (`GUARD_MANAGED_OWNER`), and who may change each directory above it and
above the link that names it — a `chmod 666`, a `chown`, a directory opened to others or a link
pointed elsewhere refuses it, with the very same bytes.

None of these carries a clock: two values are equal exactly when the files say the same.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from guard.policy.rules import PROJECT_FILE

Look = os.stat_result | OSError  # what a stat found


def owners_of(look: Look) -> object:
    """Who may change the file: None when there is none, an errno when it cannot be looked at,
    else its mode, owner, group, inode and device."""
    if isinstance(look, FileNotFoundError):
        return None
    if isinstance(look, OSError):
        return look.errno
    return (look.st_mode, look.st_uid, look.st_gid, look.st_ino, look.st_dev)


def policy_inputs(
    workspace: str | None, env: Mapping[str, str] | None = None
) -> tuple[object, ...]:
    """Everything `load_policy(workspace, …)` reads of the disk and the environment now."""
    from guard.policy.files import user_policy_path
    from guard.policy.managed import checked_directories, managed_policy_path

    env = os.environ if env is None else env
    project = os.path.join(workspace, PROJECT_FILE) if workspace else ""
    managed = managed_policy_path(env)
    found = _file(managed)
    above: tuple[object, ...] = ()
    if found[0] is not None:  # there, or not to be looked at: its directories decide
        above = tuple((d, owners_of(_stat(d))) for d in checked_directories(managed))
    return (
        _file(user_policy_path()),
        _file(project) if project else None,
        (managed, env.get("GUARD_MANAGED_OWNER", ""), found, above),
    )


def _file(path: str) -> tuple[object, object]:
    """Who may change the file (None when there is none), and its bytes (or an errno)."""
    look = _stat(path)
    if isinstance(look, FileNotFoundError):
        return None, None
    try:
        with open(path, "rb") as handle:
            data: object = handle.read()
    except OSError as exc:
        data = exc.errno
    return owners_of(look), data


def _stat(path: str) -> Look:
    try:
        return os.stat(path)
    except OSError as exc:
        return exc
