"""Asking a human: the terminal prompt, confirm, and the approver (server, client)."""

from __future__ import annotations

from guard.stage_front import front

TYPE_CHECKING = False  # typing's costs an import the checker's fast path does not make

if TYPE_CHECKING:
    from guard.asking import terminal_device as terminal_device
    from guard.asking.approver import Invalid as Invalid
    from guard.asking.approver import Lines as Lines
    from guard.asking.approver import encode as encode
    from guard.asking.approver import paths as paths
    from guard.asking.approver_notify import Notifier as Notifier
    from guard.asking.approver_queue import Event as Event
    from guard.asking.approver_queue import Waiting as Waiting
    from guard.asking.approver_server import Approver as Approver
    from guard.asking.confirmation import approver_mode as approver_mode
    from guard.asking.confirmation import confirm as confirm
    from guard.asking.confirmation import question_for as question_for
    from guard.asking.prompt import ANSWER_GRACE as ANSWER_GRACE
    from guard.asking.prompt import CONFIRM_GAP as CONFIRM_GAP
    from guard.asking.prompt import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
    from guard.asking.prompt import confirming as confirming
    from guard.asking.prompt import needs_confirming as needs_confirming
    from guard.asking.prompt import render as render
    from guard.asking.terminal_device import visible as visible
    from guard.asking.web.web_approver import DEFAULT_LISTEN as DEFAULT_LISTEN
    from guard.asking.web.web_approver import WebApprover as WebApprover

# what the stage offers the stages after it, and the module each lives in (guard/stage_front.py)
_WHERE: dict[str, str] = {
    "ANSWER_GRACE": "guard.asking.prompt",
    "Approver": "guard.asking.approver_server",
    "CONFIRM_GAP": "guard.asking.prompt",
    "DEFAULT_LISTEN": "guard.asking.web.web_approver",
    "DEFAULT_TIMEOUT": "guard.asking.prompt",
    "Event": "guard.asking.approver_queue",
    "Invalid": "guard.asking.approver",
    "Lines": "guard.asking.approver",
    "Notifier": "guard.asking.approver_notify",
    "Waiting": "guard.asking.approver_queue",
    "WebApprover": "guard.asking.web.web_approver",
    "approver_mode": "guard.asking.confirmation",
    "confirm": "guard.asking.confirmation",
    "confirming": "guard.asking.prompt",
    "encode": "guard.asking.approver",
    "needs_confirming": "guard.asking.prompt",
    "paths": "guard.asking.approver",
    "question_for": "guard.asking.confirmation",
    "render": "guard.asking.prompt",
    "terminal_device": "guard.asking.terminal_device",
    "visible": "guard.asking.terminal_device",
}
_MODULES = frozenset({"terminal_device"})  # names that are modules
__all__ = sorted(_WHERE)

__getattr__ = front(__name__, _WHERE, _MODULES)
