"""The edge that builds a `Context` from the real world: cwd, environment, workspace, home.

The workspace is `GUARD_WORKSPACE` (colon-separated roots) if set, else the git worktree root
containing the directory, else the directory itself; the policy may add roots.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Mapping

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
        cwd = env.get("PWD") if _same_dir(env.get("PWD"), os.getcwd()) else None
        cwd = cwd or os.getcwd()
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
    """What a glob matches now (at most 256 paths), each with its symlinks resolved. The walk is
    bounded (guard/bounded_glob.py): one that would list too much raises OverBudget."""
    from guard.bounded_glob import matches

    try:
        return tuple(_real(p) for p in matches(pattern, max_matches=256))
    except (OSError, ValueError, RecursionError):
        return ()


def _real(path: str) -> str:
    return normalise(os.path.realpath(path))


def _same_dir(a: str | None, b: str) -> bool:
    if not a:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
