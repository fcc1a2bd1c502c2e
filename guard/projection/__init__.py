"""Text to projection: parse, words and their values, the walk, invocations, paths, requests.
Pure."""

from __future__ import annotations

from guard.stage_front import front

TYPE_CHECKING = False  # typing's costs an import the checker's fast path does not make

if TYPE_CHECKING:
    from guard.projection.bounded_glob import is_pattern as is_pattern
    from guard.projection.bounded_glob import matches as matches
    from guard.projection.budget import OverBudget as OverBudget
    from guard.projection.fish_lines import fish_problems as fish_problems
    from guard.projection.line_projection import INTERNAL_ERROR as INTERNAL_ERROR
    from guard.projection.line_projection import MAX_INPUT_BYTES as MAX_INPUT_BYTES
    from guard.projection.line_projection import project as project
    from guard.projection.paths import display as display
    from guard.projection.paths import inside as inside
    from guard.projection.paths import inside_any as inside_any
    from guard.projection.paths import normalise as normalise
    from guard.projection.patterns import command_name as command_name
    from guard.projection.patterns import compile_command as compile_command
    from guard.projection.patterns import compile_path as compile_path
    from guard.projection.patterns import compile_text as compile_text
    from guard.projection.patterns import escape_command as escape_command
    from guard.projection.patterns import escape_path as escape_path
    from guard.projection.patterns import escape_text as escape_text
    from guard.projection.patterns import is_relative_path_pattern as is_relative_path_pattern
    from guard.projection.patterns import literal_head as literal_head
    from guard.projection.patterns import render_argv as render_argv
    from guard.projection.protected import ProtectedPath as ProtectedPath
    from guard.projection.protected import ProtectedPaths as ProtectedPaths
    from guard.projection.protected import covered_pattern as covered_pattern
    from guard.projection.requests import ACCESSES as ACCESSES
    from guard.projection.requests import DECISIONS as DECISIONS
    from guard.projection.requests import STRICTNESS as STRICTNESS
    from guard.projection.requests import SURFACES as SURFACES
    from guard.projection.requests import Access as Access
    from guard.projection.requests import Decided as Decided
    from guard.projection.requests import Decision as Decision
    from guard.projection.requests import DynamicRole as DynamicRole
    from guard.projection.requests import Projection as Projection
    from guard.projection.requests import Request as Request
    from guard.projection.requests import Surface as Surface
    from guard.projection.requests import Verdict as Verdict
    from guard.projection.requests import strictest as strictest
    from guard.projection.shell_state import Context as Context
    from guard.projection.shell_state import with_windows as with_windows
    from guard.projection.vital_targets import vital as vital

# what the stage offers the stages after it, and the module each lives in (guard/stage_front.py)
_WHERE: dict[str, str] = {
    "ACCESSES": "guard.projection.requests",
    "Access": "guard.projection.requests",
    "Context": "guard.projection.shell_state",
    "DECISIONS": "guard.projection.requests",
    "Decided": "guard.projection.requests",
    "Decision": "guard.projection.requests",
    "DynamicRole": "guard.projection.requests",
    "INTERNAL_ERROR": "guard.projection.line_projection",
    "MAX_INPUT_BYTES": "guard.projection.line_projection",
    "OverBudget": "guard.projection.budget",
    "Projection": "guard.projection.requests",
    "ProtectedPath": "guard.projection.protected",
    "ProtectedPaths": "guard.projection.protected",
    "Request": "guard.projection.requests",
    "STRICTNESS": "guard.projection.requests",
    "SURFACES": "guard.projection.requests",
    "Surface": "guard.projection.requests",
    "Verdict": "guard.projection.requests",
    "with_windows": "guard.projection.shell_state",
    "command_name": "guard.projection.patterns",
    "compile_command": "guard.projection.patterns",
    "compile_path": "guard.projection.patterns",
    "compile_text": "guard.projection.patterns",
    "covered_pattern": "guard.projection.protected",
    "display": "guard.projection.paths",
    "escape_command": "guard.projection.patterns",
    "escape_path": "guard.projection.patterns",
    "escape_text": "guard.projection.patterns",
    "fish_problems": "guard.projection.fish_lines",
    "inside": "guard.projection.paths",
    "inside_any": "guard.projection.paths",
    "is_pattern": "guard.projection.bounded_glob",
    "is_relative_path_pattern": "guard.projection.patterns",
    "literal_head": "guard.projection.patterns",
    "matches": "guard.projection.bounded_glob",
    "normalise": "guard.projection.paths",
    "project": "guard.projection.line_projection",
    "render_argv": "guard.projection.patterns",
    "strictest": "guard.projection.requests",
    "vital": "guard.projection.vital_targets",
}
_MODULES: frozenset[str] = frozenset()
__all__ = sorted(_WHERE)

__getattr__ = front(__name__, _WHERE, _MODULES)
