"""Landlock, through its three system calls: what this kernel offers, and restricting a process.

Only the process that is about to become an enforced line imports this module. It reaches the
kernel through `_ctypes` (the C part of the ctypes package): the package itself costs a fresh
process about 1.5 ms to import, which every enforced command would pay.

The kernel's ABI levels (Documentation/userspace-api/landlock.rst), as far as files go:
1 (Linux 5.13) the thirteen basic rights; 2 (5.19) REFER, renaming and linking across
directories, which ABI 1 always refuses; 3 (6.2) TRUNCATE; 4 (6.7) TCP, no new file right;
5 (6.10) IOCTL_DEV; 6 (6.12) signal and abstract-socket scopes; 7 (6.15) audit-log flags.
A ruleset handles every file right the running ABI offers (up to level 7's); rights a later
kernel adds are left unhandled, so they stay as they were (Landlock's own rule for old code).
"""

from __future__ import annotations

import _ctypes
import errno
import os
import stat
import sys

TYPE_CHECKING = False  # imported before every enforced line's exec: no typing at run time
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

_c: Any = _ctypes  # typeshed knows _ctypes only as ctypes uses it

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15

READ = EXECUTE | READ_FILE | READ_DIR  # what a "read" grant gives: read, list, run
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # all a file's rule may hold
_BASIC = (1 << 13) - 1
RIGHTS_BY_ABI = {1: _BASIC, 2: _BASIC | REFER, 3: _BASIC | REFER | TRUNCATE}
RIGHTS_BY_ABI |= {4: RIGHTS_BY_ABI[3], 5: RIGHTS_BY_ABI[3] | IOCTL_DEV}
RIGHTS_BY_ABI |= {6: RIGHTS_BY_ABI[5], 7: RIGHTS_BY_ABI[5]}
KNOWN_ABI = 7

# the same numbers on x86_64 and aarch64 (and every architecture's unified table)
CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38


class _Long(_c._SimpleCData):  # type: ignore[misc]
    _type_ = "l"


class _Pointer(_c._SimpleCData):  # type: ignore[misc]
    _type_ = "z"  # char *: bytes, or None for NULL


class _Function(_c.CFuncPtr):  # type: ignore[misc]
    _flags_ = _c.FUNCFLAG_CDECL | _c.FUNCFLAG_USE_ERRNO
    _restype_ = _Long


class _Libc:
    _handle = _c.dlopen(None, os.RTLD_NOW)


def _function(name: str, *argtypes: Any) -> Any:
    function = _Function((name, _Libc))
    function.argtypes = argtypes  # converted in C, not by a Python loop per call
    return function


# syscall(2) for each call's arguments; prctl (Linux only) is looked up when used
_CREATE = _function("syscall", _Long, _Pointer, _Long, _Long)
_ADD = _function("syscall", _Long, _Long, _Long, _Pointer, _Long)
_RESTRICT = _function("syscall", _Long, _Long, _Long)


def _call(function: Any, *args: int | bytes | None) -> int:
    """Call a C function that returns -1 and sets errno on failure; raise OSError then."""
    result = int(function(*args))
    if result < 0:
        number = _c.get_errno()
        raise OSError(number, os.strerror(number))
    return result


def abi_version() -> int | str:
    """The kernel's Landlock ABI level, or why there is none (one clause, for a message)."""
    if not sys.platform.startswith("linux"):
        return f"Landlock is a Linux feature, and this system is {sys.platform}"
    try:
        return _call(_CREATE, CREATE_RULESET, None, 0, CREATE_RULESET_VERSION)
    except OSError as exc:
        if exc.errno == errno.ENOSYS:
            return (
                "the kernel says it has no Landlock (older than Linux 5.13, built without it,"
                " or a container's filter hides it)"
            )
        if exc.errno == errno.EOPNOTSUPP:
            return "Landlock is built into this kernel but not enabled (add landlock to lsm=)"
        return f"the kernel refused Landlock's system call ({exc.strerror}; a container's filter?)"


def handled_rights(abi: int) -> int:
    return RIGHTS_BY_ABI[min(max(abi, 1), KNOWN_ABI)]


def create_ruleset(handled: int) -> int:
    """A new ruleset's fd (close-on-exec) that denies every right in `handled` not granted."""
    attr = handled.to_bytes(8, sys.byteorder)  # struct landlock_ruleset_attr's first field
    return _call(_CREATE, CREATE_RULESET, attr, len(attr), 0)


def add_rule(ruleset: int, path: str, rights: int, handled: int) -> bool:
    """Grant `rights` on `path` and below (on a file: its file rights only). False when `path`
    does not exist; raises OSError when it cannot be opened or the kernel refuses the rule."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= FILE_RIGHTS
        rights &= handled
        if rights:
            attr = rights.to_bytes(8, sys.byteorder) + fd.to_bytes(4, sys.byteorder, signed=True)
            _call(_ADD, ADD_RULE, ruleset, RULE_PATH_BENEATH, attr, 0)
    finally:
        os.close(fd)
    return True


def restrict_self(ruleset: int) -> None:
    """Put this process (and all it starts) under the ruleset; no_new_privs first, as an
    unprivileged landlock_restrict_self requires. Closes the ruleset's fd."""
    try:
        prctl = _function("prctl", _Long, _Long, _Long, _Long, _Long)
        _call(prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        _call(_RESTRICT, RESTRICT_SELF, ruleset, 0)
    finally:
        os.close(ruleset)


def ruleset_of(grants: Iterable[tuple[str, str]], abi: int) -> int:
    """A ruleset's fd granting each (access, path): "write" every right the ABI handles,
    anything else READ. A path that cannot be opened stays out: less is granted, never more.
    Raises OSError when the kernel gives no ruleset."""
    handled = handled_rights(abi)
    fd = create_ruleset(handled)
    for access, path in grants:
        rights = handled if access == "write" else READ
        try:  # noqa: SIM105 - contextlib would cost this path an import
            add_rule(fd, path, rights, handled)
        except OSError:
            pass
    return fd


REFUSED = (
    "guard: the kernel refused to enforce this line ({why}); nothing ran. Run guard doctor, or"
    ' set [enforce] mode = "off" to run lines checked only'
)


def hold(ruleset: int) -> bool:
    """`restrict_self`, except that a process already under 16 rulesets (the kernel's limit:
    lines nested in enforced lines) stays held by those: False then. Raises OSError."""
    try:
        restrict_self(ruleset)
    except OSError as exc:
        if exc.errno == errno.E2BIG:
            return False
        raise
    return True
