"""sshd's file-transfer servers, run through the user's login shell.

When guarded-bash is a user's login shell, sshd runs `scp -t/-f`, `rsync --server`,
`git-upload-pack`, `git-receive-pack` and `sftp-server` through it with `-c`. Their paths come
from the remote user who has just authenticated as this user: guard lets them through when,
and only when, the shim's parent is sshd itself and the line is exactly one such command.
Anyone else asking for the same line (an agent running `scp -t ~/.bashrc` to write a file
through scp's protocol) is judged like any other line.
"""

from __future__ import annotations

import os

_SERVERS = {
    "scp": ("-t", "-f"),
    "rsync": ("--server",),
    "git-upload-pack": (),
    "git-receive-pack": (),
    "git-upload-archive": (),
    "sftp-server": (),
    "internal-sftp": (),
}
_SSHD_NAMES = frozenset({"sshd", "sshd-session"})
_SSHD_DIRS = frozenset({"/usr/sbin", "/sbin", "/usr/lib/openssh", "/usr/libexec/openssh",
                        "/usr/libexec", "/usr/local/sbin", "/usr/lib/ssh"})
_SHELL_SYNTAX = set(";&|<>()$`\\\n*?[]{}~#!")


def is_transfer_command(command: str) -> bool:
    """One simple command that is an sshd transfer server, with no shell syntax around it."""
    unquoted = command.replace("'", "").replace('"', "")
    if _SHELL_SYNTAX & set(unquoted):
        return False
    # without a backslash, the first word shlex finds is a run of `unquoted`: a line that names
    # no server there needs no shlex (it imports re: milliseconds on every guarded-bash line)
    if not any(name in unquoted for name in _SERVERS):
        return False
    import shlex

    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    if not argv:
        return False
    name = os.path.basename(argv[0])
    if name not in _SERVERS:
        return False
    needed = _SERVERS[name]
    return not needed or any(flag in argv[1:] for flag in needed)


def parent_is_sshd(proc: str = "/proc", ppid: int | None = None) -> bool:
    """Whether this process was started by sshd: the program its parent runs (the kernel's
    link to it, not the name it was started under: a link named `sshd` to any program fooled
    a check of the name) is an sshd in a system directory."""
    parent = os.getppid() if ppid is None else ppid
    try:
        exe = os.readlink(os.path.join(proc, str(parent), "exe"))
    except OSError:
        return False
    directory, _, name = exe.removesuffix(" (deleted)").rpartition("/")
    return name in _SSHD_NAMES and directory in _SSHD_DIRS
