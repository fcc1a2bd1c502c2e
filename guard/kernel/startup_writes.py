"""What a shell's start-up files write that its enforced line may not: said before bash starts.

`bash -l` reads `/etc/profile`, then the first of `~/.bash_profile`, `~/.bash_login` and
`~/.profile` (the user's are read here), and a non-interactive bash the file `$BASH_ENV` names
(bash(1), INVOCATION). Under enforcement they run held to the line's ruleset, so a write they
make outside it fails with a bare `Permission denied` on every line, which says nothing of
guard. guarded-bash reads those files, projects them as it projects any line (and the files
they `source` by a name it can know, a few deep), and for each write the ruleset does not grant
says one `guard:` line: which file writes what, and how to let lines write it
(`[enforce] write`).

This explains; it decides nothing: the line runs as it would, and what the files do that the
projection cannot see (`eval "$(tool init -)"`) is not named. The version managers' own state
is granted already (enforcement.TOOL_STATE).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from guard.kernel.ruleset import Ruleset
from guard.projection import Context, display, project

PROFILES = ("~/.bash_profile", "~/.bash_login", "~/.profile")  # the first that exists
MAX_DEPTH = 3  # files sourced from files sourced from a profile
MAX_BYTES = 64 * 1024


def startup_files(
    env: Mapping[str, str], home: str, *, login: bool, noprofile: bool = False
) -> tuple[str, ...]:
    """The user's files bash reads before the line, in order."""
    found: list[str] = []
    if login and not noprofile:  # /etc/profile too, but a system file writes nothing of
        for name in PROFILES:  # the user's, and projecting it would cost every login line
            path = home.rstrip("/") + name[1:]
            if os.path.isfile(path):
                found.append(path)
                break
    given = env.get("BASH_ENV", "")
    if given and not login:
        found.append(os.path.join(env.get("PWD", "/"), os.path.expanduser(given)))
    return tuple(found)


def held_writes(
    ctx: Context, files: Sequence[str], writable: list[str], policy_file: str
) -> list[str]:
    """One `guard:` line for each write `files` make outside the `writable` paths."""
    said: list[str] = []
    named: list[str] = []
    seen: set[str] = set()
    stack = [(path, 0) for path in reversed(files)]
    while stack:
        path, depth = stack.pop()
        if path in seen:
            continue
        seen.add(path)
        text = _text(path)
        if text is None:
            continue
        sourced: list[str] = []
        for kind, where, line in _accesses(path, text, ctx):
            if kind == "source" and depth < MAX_DEPTH:
                sourced.append(where)
            elif kind == "write" and not _granted(where, writable + named):
                said.append(_message(path, line, where, ctx.home, policy_file))
                named.append(where)  # what is below it is said with it
        stack += [(p, depth + 1) for p in reversed(sourced)]
    return list(dict.fromkeys(said))


_KEPT: dict[tuple[object, ...], tuple[tuple[str, str, int], ...]] = {}


def _accesses(path: str, text: str, ctx: Context) -> tuple[tuple[str, str, int], ...]:
    """The files `text` writes and sources, each with its line: the projection's, kept for
    the same text in the same context (the resident checker answers a login line each time)."""
    key = (path, text, ctx.cwd, ctx.home, ctx.workspace, frozenset(ctx.env.items()))
    kept = _KEPT.get(key)
    if kept is not None:
        return kept
    found: list[tuple[str, str, int]] = []
    for request in project(text, ctx).requests:
        where, access = request.path, request.access
        if not where or request.surface == "protected":  # said as external_directory too
            continue
        line = text.count("\n", 0, request.span[0]) + 1
        if access == "execute" and request.via in ("source", "."):
            found.append(("source", where, line))
        elif access == "write":
            found.append(("write", where, line))
    if len(_KEPT) > 64:
        _KEPT.clear()
    _KEPT[key] = tuple(found)
    return _KEPT[key]


def _text(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_BYTES:
        return None
    return data.decode("utf-8", "replace")


def _granted(path: str, writable: Sequence[str]) -> bool:
    return any(path == w or path.startswith(w.rstrip("/") + "/") for w in writable)


def _message(source: str, line: int, path: str, home: str, policy_file: str) -> str:
    """The grant named is the path itself: Landlock grants only what exists, so a new file or
    directory is made once by hand first (a grant of its directory would open more)."""
    shown, grant, policy = display(source, home), display(path, home), display(policy_file, home)
    if not os.path.lexists(path):
        return (
            f"guard: {shown} line {line} writes {grant}, which an enforced line may not "
            f"create (Permission denied); to let lines write it, create it once yourself, "
            f'then add "{grant}" to [enforce] write in {policy}'
        )
    return (
        f"guard: {shown} line {line} writes {grant}, which an enforced line may not write "
        f'(Permission denied); to let lines write it, add "{grant}" to [enforce] write in '
        f"{policy}"
    )


def startup_notes(
    ctx: Context,
    ruleset: Ruleset,
    env: Mapping[str, str],
    *,
    login: bool,
    noprofile: bool = False,
) -> list[str]:
    """The `guard:` lines for what the start-up files of this bash write outside `ruleset`."""
    files = startup_files(env, ctx.home, login=login, noprofile=noprofile)
    if not files:
        return []
    from guard.policy import user_policy_path

    writable = [g.path for g in ruleset.grants if g.access == "write"]
    return held_writes(ctx, files, writable, user_policy_path())
