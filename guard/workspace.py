"""The edge that builds a `Context` from the real world: cwd, environment, workspace, home.

The workspace is `GUARD_WORKSPACE` (colon-separated roots) if set, else the git worktree root
containing the directory, else the directory itself; the policy may add roots.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Mapping

from guard.errors import GuardError
from guard.paths import normalise
from guard.scope import Context


def find_workspace(cwd: str, env: Mapping[str, str]) -> tuple[str, ...]:
    """The workspace roots for a session that starts in `cwd`, symlinks resolved."""
    given = env.get("GUARD_WORKSPACE", "")
    if given:
        return tuple(_real(os.path.join(cwd, p)) for p in given.split(":") if p)
    here = _real(cwd)
    probe = here
    while True:
        if os.path.exists(os.path.join(probe, ".git")):
            return (probe,)
        parent = os.path.dirname(probe)
        if parent == probe:
            return (here,)
        probe = parent


def user_home(name: str) -> str | None:
    try:
        return pwd.getpwnam(name).pw_dir
    except (KeyError, OSError):
        return None


def build_context(
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    *,
    workspace: tuple[str, ...] | None = None,
    extra_roots: tuple[str, ...] = (),
    positional: tuple[str, ...] | None = None,
    arg0: str | None = None,
) -> Context:
    env = dict(os.environ if env is None else env)
    if cwd is None:
        cwd = _current_dir(env)
    cwd = normalise(os.path.abspath(cwd))
    roots = workspace if workspace is not None else find_workspace(cwd, env)
    roots = tuple(dict.fromkeys(roots + tuple(_real(r) for r in extra_roots)))
    home = env.get("HOME") or os.path.expanduser("~")
    return Context(
        cwd=cwd,
        env=env,
        workspace=roots,
        home=home,
        resolve=_real,
        user_home=user_home,
        expand=_matches,
        positional=positional,
        arg0=arg0,
    )


def _matches(pattern: str) -> tuple[str, ...]:
    """What a glob matches now (at most 256 paths), each with its symlinks resolved."""
    import glob
    import itertools

    try:
        found = itertools.islice(glob.iglob(pattern), 256)
        return tuple(_real(p) for p in found)
    except (OSError, ValueError, RecursionError):
        return ()


def _real(path: str) -> str:
    return normalise(os.path.realpath(path))


def _current_dir(env: Mapping[str, str]) -> str:
    """The shell's directory: $PWD when it is the process's directory; a deleted one is
    judged where the shell says it is, and without $PWD it cannot be judged."""
    try:
        here = os.getcwd()
    except OSError as exc:
        if env.get("PWD", "").startswith("/"):
            return env["PWD"]
        raise GuardError(
            f"guard: the current directory cannot be read ({exc.strerror}); "
            "cd to a directory that exists and try again"
        ) from None
    return env["PWD"] if _same_dir(env.get("PWD"), here) else here


def _same_dir(a: str | None, b: str) -> bool:
    if not a:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
