"""Policy: the files a user writes, the shipped default, the managed layer, their settings."""

from __future__ import annotations

from guard.stage_front import front

TYPE_CHECKING = False  # typing's costs an import the checker's fast path does not make

if TYPE_CHECKING:
    from guard.policy.enforce_policy import enforcement_mode as enforcement_mode
    from guard.policy.files import check_policy_file as check_policy_file
    from guard.policy.files import display_path as display_path
    from guard.policy.files import load_policy as load_policy
    from guard.policy.files import render_policy as render_policy
    from guard.policy.files import user_policy_path as user_policy_path
    from guard.policy.managed import checked_directories as checked_directories
    from guard.policy.managed import managed_policy_path as managed_policy_path
    from guard.policy.managed import read_managed_layer as read_managed_layer
    from guard.policy.policy_file import AppendedRule as AppendedRule
    from guard.policy.policy_file import append_rules as append_rules
    from guard.policy.policy_file import appended_rules as appended_rules
    from guard.policy.policy_file import project_policy_path as project_policy_path
    from guard.policy.policy_file import remove_appended as remove_appended
    from guard.policy.policy_freshness import owners_of as owners_of
    from guard.policy.policy_freshness import policy_inputs as policy_inputs
    from guard.policy.policy_settings import Value as Value
    from guard.policy.policy_settings import combine_settings as combine_settings
    from guard.policy.policy_settings import setting as setting
    from guard.policy.rules import DEFAULT_SOURCE as DEFAULT_SOURCE
    from guard.policy.rules import PROJECT_FILE as PROJECT_FILE
    from guard.policy.rules import Mode as Mode
    from guard.policy.rules import Policy as Policy
    from guard.policy.rules import Rule as Rule

# what the stage offers the stages after it, and the module each lives in (guard/stage_front.py)
_WHERE: dict[str, str] = {
    "AppendedRule": "guard.policy.policy_file",
    "DEFAULT_SOURCE": "guard.policy.rules",
    "Mode": "guard.policy.rules",
    "PROJECT_FILE": "guard.policy.rules",
    "Policy": "guard.policy.rules",
    "Rule": "guard.policy.rules",
    "Value": "guard.policy.policy_settings",
    "append_rules": "guard.policy.policy_file",
    "appended_rules": "guard.policy.policy_file",
    "check_policy_file": "guard.policy.files",
    "checked_directories": "guard.policy.managed",
    "combine_settings": "guard.policy.policy_settings",
    "display_path": "guard.policy.files",
    "enforcement_mode": "guard.policy.enforce_policy",
    "load_policy": "guard.policy.files",
    "managed_policy_path": "guard.policy.managed",
    "owners_of": "guard.policy.policy_freshness",
    "policy_inputs": "guard.policy.policy_freshness",
    "project_policy_path": "guard.policy.policy_file",
    "read_managed_layer": "guard.policy.managed",
    "remove_appended": "guard.policy.policy_file",
    "render_policy": "guard.policy.files",
    "setting": "guard.policy.policy_settings",
    "user_policy_path": "guard.policy.files",
}
_MODULES: frozenset[str] = frozenset()
__all__ = sorted(_WHERE)

__getattr__ = front(__name__, _WHERE, _MODULES)
