"""The edge that builds a `Context` from the real world: cwd, environment, workspace, home.

The workspace is `GUARD_WORKSPACE` (colon-separated roots) if set, else the git worktree root
containing the directory, else the directory itself; the policy may add roots. It is never the
home directory, a directory above it, or `/`: there the session has no workspace, and every
path counts as outside (see docs/policy.md, "The workspace"). `GUARD_WORKSPACE` may name such a
directory (it comes from the user's own configuration: a command line that sets it asks), with a
warning.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Callable, Mapping
from typing import NamedTuple

from guard.errors import GuardError
from guard.projection import Context, normalise

AGENT_VARIABLE = "GUARD_AGENT"


class Workspace(NamedTuple):
    """The workspace roots a session works in, and why they were chosen. No roots: none."""

    roots: tuple[str, ...]
    why: str
    warning: str = ""  # a `guard:` line for the session's start (a workspace that is home …)


def too_wide(directory: str, home: str) -> bool:
    """Whether `directory` is `/`, the home directory or a directory above it."""
    home = normalise(home) if home else ""
    if directory == "/" or not home:
        return directory == "/"
    return home == directory or home.startswith(directory.rstrip("/") + "/")


def choose_workspace(
    directory: str,
    env: Mapping[str, str],
    home: str,
    *,
    real: Resolver | None = None,
    exists: Callable[[str], bool] | None = None,
) -> Workspace:
    """The workspace for a session decided in `directory` (symlinks resolved, by `real` when
    given: a long-lived process's kept resolver; `exists` looks for `.git` above it)."""
    resolve = real or _real
    given = env.get("GUARD_WORKSPACE", "")
    real_home = resolve(home) if home else ""
    if given:
        roots = tuple(
            dict.fromkeys(resolve(os.path.join(directory, p)) for p in given.split(":") if p)
        )
        wide = [r for r in roots if too_wide(r, real_home)]
        warning = (
            f"guard: GUARD_WORKSPACE names {', '.join(wide)}, so everything below it counts as the "
            "workspace; protected paths still ask. Name a project directory instead"
            if wide
            else ""
        )
        return Workspace(roots, "GUARD_WORKSPACE", warning)
    here = resolve(directory)
    root = _worktree_root(here, exists or os.path.exists)
    chosen, how = (root, "the git worktree root") if root else (here, "the directory")
    if too_wide(chosen, real_home):
        what = (
            "/"
            if chosen == "/"
            else ("your home directory" if chosen == real_home else "above your home directory")
        )
        why = (
            f"none: {how} {chosen} is {what}, which is never a workspace; every path counts as "
            "outside (start in a project directory, or set GUARD_WORKSPACE)"
        )
        return Workspace((), why)
    return Workspace((chosen,), f"{how} of {here}" if root and root != here else how)


def find_workspace(cwd: str, env: Mapping[str, str]) -> tuple[str, ...]:
    """The workspace roots for a session that starts in `cwd`, symlinks resolved."""
    home = env.get("HOME") or os.path.expanduser("~")
    return choose_workspace(cwd, env, home).roots


def _worktree_root(here: str, exists: Callable[[str], bool]) -> str:
    probe = here
    while True:
        if exists(os.path.join(probe, ".git")):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return ""
        probe = parent


def is_agent(env: Mapping[str, str], *, terminal: bool) -> bool:
    """Whether a session is an agent's: `GUARD_AGENT=1`, or no terminal to a person."""
    flag = env.get(AGENT_VARIABLE, "")
    if flag == "1":
        return True
    if flag == "0":
        return False
    return not terminal


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
        cwd = current_dir(env)
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
        expand=glob_matches,
        below=files_below,
        positional=positional,
        arg0=arg0,
    )


def glob_matches(pattern: str) -> tuple[str, ...]:
    """What a glob matches now (at most 256 paths), each with its symlinks resolved. The walk is
    bounded (guard/projection/bounded_glob.py): one that would list too much raises OverBudget."""
    from guard.projection import matches

    try:
        return tuple(_real(p) for p in matches(pattern, max_matches=256))
    except (OSError, ValueError, RecursionError):
        return ()


BELOW_ENTRIES = 20_000  # a walk below a directory lists at most this many entries
_NOT_WALKED = frozenset({".git", "node_modules"})  # their files are git's and packages'


def files_below(directory: str) -> tuple[str, ...]:
    """The files below `directory` (links not followed into), not below `.git` or
    `node_modules` inside it; () for what is no directory. Past BELOW_ENTRIES entries it
    raises OverBudget: the line asks rather than waits."""
    from guard.projection import OverBudget

    found: list[str] = []
    stack = [directory]
    listed = 0
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as entries:
                for entry in entries:
                    listed += 1
                    if listed > BELOW_ENTRIES:
                        raise OverBudget(
                            f"looking for secrets below {directory} lists more than "
                            f"{BELOW_ENTRIES:,} entries"
                        )
                    try:
                        is_dir = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        is_dir = False
                    if is_dir:
                        if entry.name not in _NOT_WALKED:
                            stack.append(entry.path)
                    else:
                        found.append(entry.path)
        except (OSError, ValueError):  # no directory, or none that can be listed
            continue
    return tuple(sorted(found))


def _real(path: str) -> str:
    return normalise(os.path.realpath(path))


def current_dir(
    env: Mapping[str, str], *, same_file: Callable[[str, str], bool] | None = None
) -> str:
    """The shell's directory: $PWD when it is the process's directory; a deleted one is
    judged where the shell says it is, and without $PWD it cannot be judged. `same_file`
    says whether two paths are one directory (a long-lived process's kept looks)."""
    try:
        here = os.getcwd()
    except OSError as exc:
        if env.get("PWD", "").startswith("/"):
            return env["PWD"]
        raise GuardError(
            f"guard: the current directory cannot be read ({exc.strerror}); "
            "cd to a directory that exists and try again"
        ) from None
    pwd = env.get("PWD")
    if pwd == here:
        return here  # the same either way: no need to look
    if pwd is not None and same_file is not None:
        return pwd if pwd and same_file(pwd, here) else here
    return pwd if pwd is not None and _same_dir(pwd, here) else here


def _same_dir(a: str | None, b: str) -> bool:
    if not a:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


Resolver = Callable[[str], str]
