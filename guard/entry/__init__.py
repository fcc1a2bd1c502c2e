"""Where lines come in, one subpackage per product: guarded-bash (`shim/`), the shell hooks
(`shell_hooks/`), the resident checker (`resident/`), the agents' adapters (`agents/`). What all
of them share stays here: judging a line (`check.py`) and its JSON (`judgement_json.py`)."""

from __future__ import annotations

from guard.stage_front import front

TYPE_CHECKING = False  # typing's costs an import the checker's fast path does not make

if TYPE_CHECKING:
    from guard.entry.agents import setup as setup
    from guard.entry.agents.claude_code import AGENT as AGENT
    from guard.entry.agents.config import AGENTS as AGENTS
    from guard.entry.agents.config import config_path as config_path
    from guard.entry.agents.config import fail_closed_text as fail_closed_text
    from guard.entry.agents.config import guard_call as guard_call
    from guard.entry.agents.core import respond as respond
    from guard.entry.agents.hook import run as run
    from guard.entry.agents.registry import NAMES as NAMES
    from guard.entry.agents.resident_hook import fast_hook as fast_hook
    from guard.entry.check import ALLOW as ALLOW
    from guard.entry.check import ASK as ASK
    from guard.entry.check import DENY as DENY
    from guard.entry.check import LineRequest as LineRequest
    from guard.entry.check import check_line as check_line
    from guard.entry.check import decide_line as decide_line
    from guard.entry.check import how_decided as how_decided
    from guard.entry.judgement_json import JsonLines as JsonLines
    from guard.entry.judgement_json import as_json as as_json
    from guard.entry.resident import protocol as protocol
    from guard.entry.resident.client import fast_cli as fast_cli
    from guard.entry.resident.client import request as request
    from guard.entry.resident.server import main as main
    from guard.entry.shell_hooks.init import SHELLS as SHELLS
    from guard.entry.shell_hooks.init import guard_program as guard_program
    from guard.entry.shell_hooks.init import hook_text as hook_text
    from guard.entry.shell_hooks.init import render as render
    from guard.entry.shell_hooks.server import serve as serve
    from guard.entry.shim.launcher import ARGV0_VAR as ARGV0_VAR
    from guard.entry.shim.launcher import SNIFF_BYTES as SNIFF_BYTES
    from guard.entry.shim.launcher import is_guard_shim as is_guard_shim
    from guard.entry.shim.launcher import native_source as native_source
    from guard.entry.shim.launcher import script_text as script_text

# what the stage offers the stages after it, and the module each lives in (guard/stage_front.py)
_WHERE: dict[str, str] = {
    "AGENT": "guard.entry.agents.claude_code",
    "AGENTS": "guard.entry.agents.config",
    "ALLOW": "guard.entry.check",
    "ARGV0_VAR": "guard.entry.shim.launcher",
    "ASK": "guard.entry.check",
    "DENY": "guard.entry.check",
    "JsonLines": "guard.entry.judgement_json",
    "LineRequest": "guard.entry.check",
    "NAMES": "guard.entry.agents.registry",
    "SHELLS": "guard.entry.shell_hooks.init",
    "SNIFF_BYTES": "guard.entry.shim.launcher",
    "as_json": "guard.entry.judgement_json",
    "check_line": "guard.entry.check",
    "config_path": "guard.entry.agents.config",
    "decide_line": "guard.entry.check",
    "fail_closed_text": "guard.entry.agents.config",
    "fast_cli": "guard.entry.resident.client",
    "fast_hook": "guard.entry.agents.resident_hook",
    "guard_call": "guard.entry.agents.config",
    "guard_program": "guard.entry.shell_hooks.init",
    "hook_text": "guard.entry.shell_hooks.init",
    "how_decided": "guard.entry.check",
    "is_guard_shim": "guard.entry.shim.launcher",
    "main": "guard.entry.resident.server",
    "native_source": "guard.entry.shim.launcher",
    "protocol": "guard.entry.resident.protocol",
    "render": "guard.entry.shell_hooks.init",
    "request": "guard.entry.resident.client",
    "respond": "guard.entry.agents.core",
    "run": "guard.entry.agents.hook",
    "script_text": "guard.entry.shim.launcher",
    "serve": "guard.entry.shell_hooks.server",
    "setup": "guard.entry.agents.setup",
}
_MODULES = frozenset({"protocol", "setup"})  # names that are modules
__all__ = sorted(_WHERE)

__getattr__ = front(__name__, _WHERE, _MODULES)
