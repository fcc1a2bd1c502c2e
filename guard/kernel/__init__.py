"""What the kernel holds a line to: Landlock rulesets built from a verdict, and applied."""

from __future__ import annotations

from guard.stage_front import front

TYPE_CHECKING = False  # typing's costs an import the checker's fast path does not make

if TYPE_CHECKING:
    from guard.kernel import landlock as landlock
    from guard.kernel.line_hold import apply_pending as apply_pending
    from guard.kernel.line_hold import describe as describe
    from guard.kernel.line_hold import describe_json as describe_json
    from guard.kernel.line_hold import pending_ruleset as pending_ruleset
    from guard.kernel.line_hold import prepare as prepare
    from guard.kernel.line_hold import probe as probe
    from guard.kernel.line_hold import ruleset_for as ruleset_for
    from guard.kernel.line_hold import status as status
    from guard.kernel.ruleset import Ruleset as Ruleset
    from guard.kernel.startup_writes import startup_notes as startup_notes

# what the stage offers the stages after it, and the module each lives in (guard/stage_front.py)
_WHERE: dict[str, str] = {
    "Ruleset": "guard.kernel.ruleset",
    "apply_pending": "guard.kernel.line_hold",
    "describe": "guard.kernel.line_hold",
    "describe_json": "guard.kernel.line_hold",
    "landlock": "guard.kernel.landlock",
    "pending_ruleset": "guard.kernel.line_hold",
    "prepare": "guard.kernel.line_hold",
    "probe": "guard.kernel.line_hold",
    "ruleset_for": "guard.kernel.line_hold",
    "startup_notes": "guard.kernel.startup_writes",
    "status": "guard.kernel.line_hold",
}
_MODULES = frozenset({"landlock"})  # names that are modules
__all__ = sorted(_WHERE)

__getattr__ = front(__name__, _WHERE, _MODULES)
