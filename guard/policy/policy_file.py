"""Writing rules into a policy file when a human answers "always".

The rule is appended as its own `[[rules]]` block with a comment saying when and why, so the
file's existing text and comments stay exactly as they were.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from typing import Protocol

from guard.policy.files import user_policy_path
from guard.policy.records import PROJECT_FILE

__all__ = ["append_rules", "project_policy_path", "user_policy_path"]


class RuleLike(Protocol):
    @property
    def surface(self) -> str: ...
    @property
    def pattern(self) -> str: ...
    @property
    def access(self) -> str | None: ...


def project_policy_path(workspace: str) -> str:
    return os.path.join(workspace, PROJECT_FILE)


def append_rules(path: str, rules: Sequence[RuleLike], *, command: str) -> None:
    """Append one allow rule per item to the TOML file at `path` (created if missing)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    try:
        with open(path, encoding="utf-8") as f:
            existing = f.read()
    except FileNotFoundError:
        existing = ""
    stamp = time.strftime("%Y-%m-%d %H:%M")
    shown = " ".join(command.split())[:100]
    blocks = []
    for rule in rules:
        lines = [
            f"# approved always at {stamp}, asked by: {shown}",
            "[[rules]]",
            f"surface = {_toml(rule.surface)}",
            f"pattern = {_toml(rule.pattern)}",
        ]
        if rule.access:
            lines.append(f"access = {_toml(rule.access)}")
        lines.append('action = "allow"')
        blocks.append("\n".join(lines))
    text = "\n\n".join(blocks) + "\n"
    prefix = (
        ""
        if not existing or existing.endswith("\n\n")
        else ("\n" if existing.endswith("\n") else "\n\n")
    )
    with open(path, "a", encoding="utf-8") as f:
        f.write(prefix + text)


def _toml(value: str) -> str:
    return json.dumps(value)
