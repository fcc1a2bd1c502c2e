"""What the pure projection tests share: a fixed context (workspace /w/proj, home /h/u, no
filesystem) and the views of a line's projection they assert on."""

from __future__ import annotations

from guard.projection.line_projection import project
from guard.projection.requests import Projection
from guard.projection.shell_state import Context

W = "/w/proj"
H = "/h/u"
CTX = Context(cwd=W, env={"HOME": H, "PATH": "/usr/bin:/bin"}, workspace=(W,), home=H)


def run(line: str, ctx: Context = CTX) -> Projection:
    return project(line, ctx)


def external(line: str) -> set[tuple[str, str]]:
    """The (path, access) pairs of the line's requests outside the workspace."""
    return {
        (r.path or "", r.access or "")
        for r in run(line).requests
        if r.surface == "external_directory"
    }


def dynamic_roles(line: str) -> set[str]:
    return {r.role or "" for r in run(line).requests if r.surface == "dynamic"}
