"""Paths: made absolute against the tracked directory, normalised, and compared with the workspace.

Pure string work; resolving symlinks is a function passed in by the edge.
"""

from __future__ import annotations

import posixpath
import re

# Never accesses: the shell's own plumbing.
_PLUMBING = frozenset(
    {
        "/dev/null",
        "/dev/stdin",
        "/dev/stdout",
        "/dev/stderr",
        "/dev/tty",
        "/dev/zero",
        "/dev/random",
        "/dev/urandom",
        "/dev/full",
    }
)
_FD = re.compile(r"^/(?:dev|proc/self)/fd/\d+$")
_DOTS = re.compile(r"/\.\.?(?:/|\Z)")


def normalise(path: str) -> str:
    """`a/./b/../c` → `a/c`; `//x` → `/x`; no trailing slash."""
    if (
        path[:1] == "/"
        and "//" not in path
        and (path[-1] != "/" or path == "/")
        and ("/." not in path or _DOTS.search(path) is None)
    ):
        return path  # already normal: the common case, without normpath's work
    norm = posixpath.normpath(path)
    if norm.startswith("//"):
        norm = "/" + norm.lstrip("/")
    return norm


def absolute(path: str, cwd: str) -> str:
    if path[:1] == "/":
        return normalise(path)
    return normalise(cwd + "/" + path if cwd != "/" else "/" + path)


def is_plumbing(path: str) -> bool:
    """`/dev/null`, `/dev/stdout`, `/dev/fd/3` …: not file accesses."""
    return path in _PLUMBING or (path[:5] in ("/dev/", "/proc") and bool(_FD.match(path)))


def inside(path: str, root: str) -> bool:
    """Whether `path` is `root` or below it, by components (`/srv/app2` is not in `/srv/app`)."""
    if root == "/":
        return True
    return path == root or path.startswith(root + "/")


def inside_any(path: str, roots: tuple[str, ...]) -> bool:
    for root in roots:  # a loop, not any(): this runs for every path of every line  # noqa: SIM110
        if path == root or root == "/" or path.startswith(root + "/"):
            return True
    return False


def display(path: str, home: str) -> str:
    """A path as a human reads it: `~/.bashrc` for paths under the home directory."""
    if home and home != "/" and inside(path, home):
        return "~" + path[len(home) :]
    return path
