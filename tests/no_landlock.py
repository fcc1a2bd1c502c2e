"""Run a program as a container that blocks Landlock would: its three calls fail with ENOSYS.

Usage: python tests/no_landlock.py PROGRAM [ARGS...]. Installs a seccomp filter (after
no_new_privs, as an unprivileged filter needs) that answers landlock_create_ruleset,
landlock_add_rule and landlock_restrict_self (444-446) with ENOSYS, then execs PROGRAM.
Used by tests/kernel/enforce_kernel_test.py to see guard degrade on the real kernel.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
LD_W_ABS, JGE_K, JGT_K, RET_K = 0x20, 0x35, 0x25, 0x06
ERRNO_ENOSYS, ALLOW = 0x00050000 | 38, 0x7FFF0000
PROGRAM = [
    (LD_W_ABS, 0, 0, 0),  # the syscall number (seccomp_data.nr)
    (JGE_K, 0, 2, 444),  # below 444: allow
    (JGT_K, 1, 0, 446),  # above 446: allow
    (RET_K, 0, 0, ERRNO_ENOSYS),
    (RET_K, 0, 0, ALLOW),
]


def main() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    filters = b"".join(struct.pack("=HBBI", *op) for op in PROGRAM)
    buffer = ctypes.create_string_buffer(filters)
    prog = struct.pack("@HP", len(PROGRAM), ctypes.addressof(buffer))
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise SystemExit(f"no_new_privs: {os.strerror(ctypes.get_errno())}")
    fprog = ctypes.create_string_buffer(prog)
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, fprog, 0, 0) != 0:
        raise SystemExit(f"seccomp: {os.strerror(ctypes.get_errno())}")
    os.execv(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    main()
