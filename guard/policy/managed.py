"""The managed policy layer: a machine's policy that its users cannot edit or weaken.

`/etc/guard/policy.toml`, set by an administrator. `GUARD_MANAGED_POLICY` names another file,
but only while the machine has none: a user cannot switch the machine's file off by setting a
variable. The file is used only when the user whose commands are guarded cannot change it:
the file and every directory above it (and above a link that names it) must be owned by root and
writable by no one else (a directory with the sticky bit, such as /tmp, may be writable by
all: no one may replace what root owns in it). Tests, which cannot make files owned by root
when they do not run as root, name the owner uid in `GUARD_MANAGED_OWNER`; it counts only for a
file named by `GUARD_MANAGED_POLICY`.

A file that fails the check is refused with a `guard:` problem, and a policy with a problem
fails closed: everything that would be allowed asks, until an administrator fixes the file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping

from guard.policy.parse import parse_policy
from guard.policy.rules import PolicyFile

SYSTEM_PATH = "/etc/guard/policy.toml"


def managed_policy_path(
    env: Mapping[str, str] | None = None,
    *,
    lstat: Callable[[str], os.stat_result | OSError] | None = None,
) -> str:
    """The machine's file when it exists (or cannot be looked at), else `GUARD_MANAGED_POLICY`,
    else the machine's path (then there is no managed layer). `lstat` looks at the machine's
    file (a long-lived process's kept look), returning an error rather than raising it."""
    env = os.environ if env is None else env
    given = env.get("GUARD_MANAGED_POLICY", "")
    if not given:
        return SYSTEM_PATH
    if lstat is not None:
        return given if isinstance(lstat(SYSTEM_PATH), FileNotFoundError) else SYSTEM_PATH
    try:
        os.lstat(SYSTEM_PATH)
    except FileNotFoundError:
        return given
    except OSError:
        pass
    return SYSTEM_PATH


def owners(path: str, env: Mapping[str, str] | None = None) -> frozenset[int]:
    """The uids that may own the managed file and the directories above it."""
    env = os.environ if env is None else env
    allowed = {0}
    given = env.get("GUARD_MANAGED_OWNER", "")
    if given.isdigit() and path != SYSTEM_PATH and path == env.get("GUARD_MANAGED_POLICY"):
        allowed.add(int(given))
    return frozenset(allowed)


def unsafe_reason(path: str, st: os.stat_result, allowed: frozenset[int]) -> str | None:
    """Why the file (already opened, `st` its status) could be changed by a user, or None."""
    if not stat.S_ISREG(st.st_mode):
        return "it is not a plain file"
    problem = _weak("it", st, allowed)
    if problem:
        return problem
    for directory in checked_directories(path):
        try:
            st = os.stat(directory)
        except OSError as error:
            return f"cannot check {directory} ({error.strerror})"
        problem = _weak(directory, st, allowed, sticky_ok=True)
        if problem:
            return problem
    return None


def checked_directories(
    path: str, realpath: Callable[[str], str] = os.path.realpath
) -> tuple[str, ...]:
    """The directories whose owners and modes decide whether the file at `path` is safe: every
    one above the file, and above the link that names it (whoever may write there could point
    the link elsewhere), nearest first. `realpath` resolves links (a long-lived process's kept
    resolver)."""
    here = realpath(os.path.dirname(os.path.abspath(path)))
    there = os.path.dirname(realpath(path))
    found: list[str] = []
    for directory in dict.fromkeys((here, there)):
        while directory not in found:
            found.append(directory)
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
    return tuple(found)


def _weak(
    what: str, st: os.stat_result, allowed: frozenset[int], *, sticky_ok: bool = False
) -> str:
    if st.st_uid not in allowed:
        return f"{what} is owned by uid {st.st_uid}, not by root"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        if sticky_ok and st.st_mode & stat.S_ISVTX:
            return ""
        return f"{what} is writable by its group or by others (mode {stat.S_IMODE(st.st_mode):o})"
    return ""


def read_managed_layer(
    home: str, env: Mapping[str, str] | None = None, *, path: str | None = None
) -> PolicyFile | None:
    """The managed layer, None when there is none; a refused file is a layer with one problem
    (so the policy fails closed) and no rules."""
    path = path if path is not None else managed_policy_path(env)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as error:
        return _refused(path, f"cannot be read ({error.strerror}); make it readable by all (0644)")
    try:
        st = os.fstat(fd)
        reason = unsafe_reason(path, st, owners(path, env))
        if reason:
            return _refused(
                path, f"refused: {reason}, so a user could change it; make the file and "
                "the directories above it owned by root and writable by root only"
            )
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read()
    except OSError as error:
        return _refused(path, f"cannot be read ({error.strerror}); make it readable by all (0644)")
    finally:
        os.close(fd)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _refused(path, "is not UTF-8 text; save it as UTF-8")
    return parse_policy(text, source=path, kind="managed", workspace=None, home=home)


def _refused(path: str, why: str) -> PolicyFile:
    problem = f"{path}: managed policy {why} (until then, everything that would be allowed asks)"
    return PolicyFile(path, problems=(problem,), kind="managed")
