"""The verdict on a line: the decision (policy rules and approvals applied to its requests), the
judged line, the workspace and trust it is judged in; the store (`store/`) and what a long-lived
process keeps between lines (`cache/`)."""

from __future__ import annotations

from guard.stage_front import front

TYPE_CHECKING = False  # typing's costs an import the checker's fast path does not make

if TYPE_CHECKING:
    from guard.verdict.cache.line_cache import LineCache as LineCache
    from guard.verdict.cache.path_questions import RACY_NS as RACY_NS
    from guard.verdict.cache.path_questions import fails as fails
    from guard.verdict.cache.path_questions import no_stat as no_stat
    from guard.verdict.decision import decide as decide
    from guard.verdict.decision import describe as describe
    from guard.verdict.judgement import Judgement as Judgement
    from guard.verdict.judgement import agent_session as agent_session
    from guard.verdict.judgement import judge as judge
    from guard.verdict.judgement import without_store as without_store
    from guard.verdict.offers import Grant as Grant
    from guard.verdict.offers import granted as granted
    from guard.verdict.offers import offers_for as offers_for
    from guard.verdict.project_trust import is_trusted as is_trusted
    from guard.verdict.project_trust import trust as trust
    from guard.verdict.store import trouble as trouble
    from guard.verdict.store.audit import not_written_line as not_written_line
    from guard.verdict.store.audit import refusal as refusal
    from guard.verdict.store.audit import refusal_to_system_log as refusal_to_system_log
    from guard.verdict.store.audit import required_by as required_by
    from guard.verdict.store.audit import trust_changed as trust_changed
    from guard.verdict.store.schema import AuditRow as AuditRow
    from guard.verdict.store.session import current_session as current_session
    from guard.verdict.store.session import idle_seconds as idle_seconds
    from guard.verdict.store.store import Store as Store
    from guard.verdict.store.store import keep_stores_open as keep_stores_open
    from guard.verdict.web_port import listen_file as listen_file
    from guard.verdict.workspace import build_context as build_context
    from guard.verdict.workspace import choose_workspace as choose_workspace
    from guard.verdict.workspace import current_dir as current_dir
    from guard.verdict.workspace import find_workspace as find_workspace
    from guard.verdict.workspace import is_agent as is_agent

# what the stage offers the stages after it, and the module each lives in (guard/stage_front.py)
_WHERE: dict[str, str] = {
    "AuditRow": "guard.verdict.store.schema",
    "Grant": "guard.verdict.offers",
    "Judgement": "guard.verdict.judgement",
    "LineCache": "guard.verdict.cache.line_cache",
    "RACY_NS": "guard.verdict.cache.path_questions",
    "Store": "guard.verdict.store.store",
    "agent_session": "guard.verdict.judgement",
    "build_context": "guard.verdict.workspace",
    "choose_workspace": "guard.verdict.workspace",
    "current_dir": "guard.verdict.workspace",
    "current_session": "guard.verdict.store.session",
    "decide": "guard.verdict.decision",
    "describe": "guard.verdict.decision",
    "fails": "guard.verdict.cache.path_questions",
    "find_workspace": "guard.verdict.workspace",
    "granted": "guard.verdict.offers",
    "idle_seconds": "guard.verdict.store.session",
    "is_agent": "guard.verdict.workspace",
    "is_trusted": "guard.verdict.project_trust",
    "judge": "guard.verdict.judgement",
    "keep_stores_open": "guard.verdict.store.store",
    "listen_file": "guard.verdict.web_port",
    "no_stat": "guard.verdict.cache.path_questions",
    "not_written_line": "guard.verdict.store.audit",
    "offers_for": "guard.verdict.offers",
    "refusal": "guard.verdict.store.audit",
    "refusal_to_system_log": "guard.verdict.store.audit",
    "required_by": "guard.verdict.store.audit",
    "trouble": "guard.verdict.store.trouble",
    "trust": "guard.verdict.project_trust",
    "trust_changed": "guard.verdict.store.audit",
    "without_store": "guard.verdict.judgement",
}
_MODULES = frozenset({"trouble"})  # names that are modules
__all__ = sorted(_WHERE)

__getattr__ = front(__name__, _WHERE, _MODULES)
