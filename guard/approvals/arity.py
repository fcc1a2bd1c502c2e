"""What an approval covers: the scopes a human may pick when a request asks.

A command approval remembers a prefix chosen with knowledge of the tool: the words that name
*what* the tool does (`git push`, `npm run build`, `docker compose up`) followed by ` *`, so
approving `git push --force origin main` covers later `git push`es but not `git reset`.
Interpreters, shells, wrappers and destructive tools get no prefix at all: approving
`python3 x.py` or `rm -rf build` remembers exactly that argv, never `python3 *` or `rm *`.
How many words name what a tool does is its record's `arity` (guard/knowledge/commands/, its
family's `COMMANDS`). A tool whose record says none gets its name and first argument
(`make-release build *`) when that argument is a plain word, and the exact argv otherwise.

A path approval is this path exactly, or its directory and everything below it (`DIR/**`);
for a directory itself (a `cd`, or `is_dir`) the second choice is that directory and below.
The root directory and the home directory are never offered as "and below".
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from guard.knowledge import EXACT, command_for
from guard.projection import (
    Access,
    Request,
    Surface,
    command_name,
    display,
    escape_command,
    escape_path,
    escape_text,
    inside,
    render_argv,
    vital,
)

_VERSIONED = re.compile(r"(python|pypy|ruby|perl|php|lua|node)[0-9.]*|mkfs(\..*)?")
_PLAIN_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@-]*")


@dataclass(frozen=True, slots=True)
class Choice:
    """One scope an approval may remember: what the prompt shows as `label`."""

    surface: Surface
    pattern: str
    access: Access | None
    label: str


def approval_choices(
    request: Request, *, home: str = "", is_dir: bool = False
) -> tuple[Choice, ...]:
    """The scopes offered for `request`, narrowest first. Empty when only "this once" is safe."""
    if request.surface == "command" and request.argv:
        pattern = command_pattern(request.argv)
        exact = pattern == escape_command(render_argv(request.argv))
        label = f"exactly {render_argv(request.argv)}" if exact else pattern
        return (Choice("command", pattern, None, label),)
    if request.surface == "external_directory":
        return _path_choices(request, home=home, is_dir=is_dir)
    if request.surface == "protected":  # never wider than the path itself
        verb = request.access or "use"
        pattern = escape_path(request.path)
        return (Choice("protected", pattern, request.access, f"{verb} {request.path}"),)
    if request.surface == "effect" and request.kind and request.target:
        # covers this kind of effect on this target: `discard:git-worktree`, `publish:npm`
        subject = f"{request.kind}:{request.target}"
        return (Choice("effect", escape_text(subject), None, f"{request.kind} {request.target}"),)
    if request.surface == "dynamic" and request.role not in ("code", "command_name"):
        # An unknown value that runs as code or names the command could be anything next time.
        return (Choice("dynamic", escape_text(request.text), None, request.text),)
    return ()


def command_pattern(argv: tuple[str, ...]) -> str:
    """The pattern a command approval remembers (see the module docstring)."""
    exact = escape_command(render_argv(argv))
    width = command_width(argv)
    if width is None or width > len(argv):
        return exact
    return escape_command(render_argv(argv[:width])) + " *"


def command_width(argv: tuple[str, ...]) -> int | None:
    """How many leading words an approval keeps; None when it must keep the exact argv."""
    if not argv:
        return None
    name = command_name(argv)
    if _VERSIONED.fullmatch(name):
        return None
    widths = dict(command_for(name).arity)
    mode = widths.get(argv[1]) if len(argv) > 1 else None  # `npm run`, `docker exec`
    if EXACT in (widths.get(""), mode):
        return None
    width = mode if mode is not None else widths.get("")
    if width is None:  # a tool we do not know: its name and a subcommand-like first word
        width = 2 if len(argv) > 1 and _PLAIN_WORD.fullmatch(argv[1]) else None
    if width is None or any(word.startswith("-") for word in argv[1:width]):
        return None  # a flag before the subcommand (`git -C dir push`): keep it all
    return width


def _path_choices(request: Request, *, home: str, is_dir: bool) -> tuple[Choice, ...]:
    path, access = request.path, request.access
    if path == "/" or (home not in ("", "/") and inside(home.rstrip("/"), path)):
        return ()  # `/`, the home directory, a directory above it: this once, never a rule
    if access == "write" and vital(path, home) is not None:
        return ()  # writing /etc, /usr or a disk may destroy it: never a lasting approval
    verb = access or "use"
    shown = display(path, home)  # a label a human reads: ~/x, as the question's lines show it
    exact = Choice("external_directory", escape_path(path), access, f"{verb} {shown}")
    directory = path if is_dir or access == "chdir" else os.path.dirname(path)
    if directory in ("", "/", home.rstrip("/") or "/"):
        return (exact,)  # never widen to everything, or to the whole home directory
    below = Choice(
        "external_directory",
        escape_path(directory) + "/**",
        access,
        f"{verb} anything in {display(directory, home)} and below",
    )
    return (exact, below)
