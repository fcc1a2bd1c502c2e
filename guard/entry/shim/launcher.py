"""The launchers that start guarded-bash, and how guarded-bash recognises one of its own.

A `#!` console script cannot see its argv[0]: the kernel hands the interpreter the script's path
instead, so a login shell's leading `-` (how sshd, `login` and `su -` ask for one) is lost. The
native launcher (`launcher.c`, compiled by `guard install-shell`) passes its argv[0] on in
`GUARD_ARGV0=<pid>:<argv0>`; exec keeps the pid, so a value whose pid is not ours was inherited
from some other process and is ignored. Where there is no C compiler, a `#!/bin/sh` launcher
does the same with its own `$0`, which is already the launcher's path, so the `-` stays lost.

guarded-bash must never exec itself as "the real bash" (an endless exec loop): `is_guard_shim`
tells a console script, a launcher or a file that is guarded-bash itself, by identity or by the
marks every one of them carries.
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # guarded-bash imports this module on every start: no typing there
if TYPE_CHECKING:
    from collections.abc import MutableMapping

ARGV0_VAR = "GUARD_ARGV0"
SNIFF_BYTES = 64 * 1024
# Text every guard launcher and console script holds; a real shell holds none of it.
MARKS = (ARGV0_VAR.encode(), b"guard.entry.shim", b"guarded-bash")
SCRIPT_HEADER = "#!/bin/sh\n# guard: bash launcher written by `guard install-shell`.\n"


def recovered_argv0(env: MutableMapping[str, str], pid: int, fallback: str) -> str:
    """argv[0] as the launcher saw it when `GUARD_ARGV0` names this process, else `fallback`.
    The variable is removed either way: it must not reach the real bash or its children."""
    value = env.pop(ARGV0_VAR, None)
    if value is None:
        return fallback
    owner, sep, argv0 = value.partition(":")
    return argv0 if sep and owner == str(pid) else fallback


def is_guard_shim(path: str, *, own: str) -> bool:
    """Whether `path` would start guarded-bash again: the same file as `own` (our console
    script), or a file carrying a guard launcher's marks. Unreadable counts as not ours: exec
    then fails, or runs something that is not guard."""
    try:
        target = os.stat(path)
    except OSError:
        return False
    try:
        mine = os.stat(own)
    except OSError:
        mine = None
    if mine is not None and (target.st_dev, target.st_ino) == (mine.st_dev, mine.st_ino):
        return True
    if not stat.S_ISREG(target.st_mode):
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError:
        return False
    if head.startswith(b"#!"):
        return any(mark in head for mark in MARKS)
    return MARKS[0] in head  # a native launcher names GUARD_ARGV0


def source_text() -> str:
    """The launcher's C source, shipped inside the package: the resident checker's fast path
    (launcher_resident.c), then the launcher."""
    from importlib import resources

    files = resources.files("guard")
    return "".join(
        files.joinpath(name).read_text(encoding="utf-8")
        for name in ("launcher_resident.c", "launcher.c")
    )


def c_string(text: str) -> str:
    """`text` as a C string literal: printable ASCII kept, every other byte as an octal escape."""
    out = []
    for byte in os.fsencode(text):
        char = chr(byte)
        if char in '"\\' or not 32 <= byte < 127 or char == "?":
            out.append(f"\\{byte:03o}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def native_source(target: str) -> str:
    """The launcher's source with the absolute path of guarded-bash built in."""
    # the checker answers this install only: the guard package, as resident/protocol.py names it
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return (
        f"#define GUARD_TARGET {c_string(target)}\n#define GUARD_PACKAGE {c_string(package)}\n"
        + source_text()
    )


def script_text(target: str) -> str:
    """A `#!/bin/sh` launcher: `$0` is its own path here, never the caller's argv[0]."""
    import shlex

    return (
        SCRIPT_HEADER
        + "# It cannot see a login shell's leading '-' in argv[0]; the native launcher can.\n"
        + f'{ARGV0_VAR}="$$:$0"\nexport {ARGV0_VAR}\nexec {shlex.quote(target)} "$@"\n'
    )
