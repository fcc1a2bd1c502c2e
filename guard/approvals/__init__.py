"""What an approval covers: the scopes a human may pick when a request asks (arity)."""

from __future__ import annotations

from guard.stage_front import front

TYPE_CHECKING = False  # typing's costs an import the checker's fast path does not make

if TYPE_CHECKING:
    from guard.approvals.arity import Choice as Choice
    from guard.approvals.arity import approval_choices as approval_choices

# what the stage offers the stages after it, and the module each lives in (guard/stage_front.py)
_WHERE: dict[str, str] = {
    "Choice": "guard.approvals.arity",
    "approval_choices": "guard.approvals.arity",
}
_MODULES: frozenset[str] = frozenset()
__all__ = sorted(_WHERE)

__getattr__ = front(__name__, _WHERE, _MODULES)
