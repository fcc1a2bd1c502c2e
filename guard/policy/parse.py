"""Parsing and validating one policy file's text into a `PolicyFile`: the top keys,
`[defaults]`, `[workspace]`, `[protected]` and each `[[rules]]` entry (settings tables are
read by guard/policy/policy_settings.py, `[enforce]` by guard/policy/enforce_policy.py).

Invalid parts are left out and reported, one `file:line: what is wrong, what to write` each.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from guard.policy.policy_settings import TABLES as SETTING_TABLES
from guard.policy.policy_settings import parse_settings
from guard.policy.rules import SECRET_ACCESS, Kind, PolicyFile, Rule
from guard.policy.toml_problems import (
    ABSOLUTE_HINT,
    TomlLines,
    as_decision,
    as_surface,
    one_of,
    quote,
    type_name,
)
from guard.projection import (
    ACCESSES,
    DECISIONS,
    SURFACES,
    Access,
    Decision,
    DynamicRole,
    Surface,
    is_relative_path_pattern,
)

Report = Callable[[int, str], None]
ROLES: tuple[DynamicRole, ...] = ("command_name", "path", "redirect", "code", "chdir", "data")
TOP_KEYS = ("defaults", "workspace", "protected", "rules", *SETTING_TABLES)
PROTECTED_KEYS = ("paths", "writes", "secrets")
SESSION_KINDS = ("interactive", "agent")
RULE_KEYS = ("surface", "pattern", "action", "access", "role", "reason", "session")
PATH_SURFACES = ("external_directory", "protected")


def parse_policy(
    text: str, *, source: str, kind: Kind, workspace: str | None, home: str
) -> PolicyFile:
    """Parse and validate one file's text. Invalid parts are left out and reported."""
    import tomllib  # only for files that are there: the shipped one is read as JSON

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        where = re.search(r"\s*\((?:at line (\d+), column \d+|at end of document)\)", message)
        line = int(where.group(1)) if where and where.group(1) else len(text.splitlines()) or 1
        what = message[: where.start()] if where else message
        problem = f"{source}:{line}: not valid TOML ({what}); fix the syntax on that line"
        return PolicyFile(source, problems=(problem,), kind=kind)
    lines = TomlLines(text)
    problems: list[str] = []

    def report(line: int, message: str) -> None:
        problems.append(f"{source}:{line}: {message}")

    for key in data:
        if key not in TOP_KEYS:
            report(
                lines.top_line(key),
                f"unknown key {quote(key)}; write one of {one_of(key, TOP_KEYS)}",
            )
    defaults = _parse_defaults(data.get("defaults", {}), lines, report)
    roots = _parse_roots(data.get("workspace", {}), lines, report, kind, workspace, home)
    protected = _parse_protected(data.get("protected", {}), lines, report)
    raw_rules = data.get("rules", [])
    if not isinstance(raw_rules, list) or not all(isinstance(r, dict) for r in raw_rules):
        report(lines.top_line("rules"), "rules must be tables; write each under a [[rules]] header")
        raw_rules = []
    rules = []
    for index, raw in enumerate(raw_rules):
        rule = _parse_rule(raw, lines.rule_line(index), lines, report, kind, workspace)
        if rule is not None:
            surface, pattern, action, access, role, reason, session = rule
            rules.append(
                Rule(
                    surface,
                    pattern,
                    action,
                    access,
                    role,
                    reason,
                    source=source,
                    line=lines.rule_line(index),
                    session=session,
                )
            )
    settings = parse_settings(
        data,
        kind=kind,
        home=home,
        table_line=lines.table_line,
        key_line=lines.key_line,
        report=report,
    )
    enforce = None
    if "enforce" in data:
        from guard.policy.enforce_policy import parse_enforce

        enforce = parse_enforce(data["enforce"], lines, report, source=source, home=home)
    return PolicyFile(
        source,
        tuple(rules),
        tuple(defaults),
        tuple(roots),
        tuple(problems),
        tuple(protected),
        settings=settings,
        kind=kind,
        enforce=enforce,
    )


def _parse_protected(
    raw: object, lines: TomlLines, report: Report
) -> list[tuple[str, tuple[Access, ...], int]]:
    """`[protected]`: `paths` are protected for any access, `writes` for writing only,
    `secrets` for reading in an agent's session (an entry `!x` excepts `x`); a `secrets` entry
    is kept with the access SECRET_ACCESS, which no other key gives."""
    header = lines.table_line("protected")
    if not isinstance(raw, dict):
        report(header, 'protected must be a table; write [protected] and paths = ["~/.secrets"]')
        return []
    found: list[tuple[str, tuple[Access, ...], int]] = []
    for key, value in raw.items():
        line = lines.key_line(key, header)
        if key not in PROTECTED_KEYS:
            choices = one_of(key, PROTECTED_KEYS)
            report(line, f"unknown key {quote(key)} in [protected]; write one of {choices}")
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            report(line, f'protected.{key} must be a list of paths; write {key} = ["~/.secrets"]')
            continue
        access: tuple[Access, ...] = (
            ("write",) if key == "writes" else SECRET_ACCESS if key == "secrets" else ()
        )
        for pattern in value:
            pattern = pattern.strip()
            if pattern.startswith("/") and key != "secrets":
                pattern = os.path.normpath(pattern)
            found.append((pattern.rstrip("/") or "/", access, line))
    return found


def _parse_defaults(
    raw: object, lines: TomlLines, report: Report
) -> list[tuple[Surface, Decision, int]]:
    header = lines.table_line("defaults")
    if not isinstance(raw, dict):
        report(
            header, 'defaults must be a table; write [defaults] and lines like command = "allow"'
        )
        return []
    found: list[tuple[Surface, Decision, int]] = []
    for key, value in raw.items():
        line = lines.key_line(key, header)
        if key not in SURFACES:
            report(
                line,
                f"unknown surface {quote(key)} in [defaults]; write one of {one_of(key, SURFACES)}",
            )
        elif not isinstance(value, str):
            report(line, f'{key} must be a string, not {type_name(value)}; write {key} = "ask"')
        elif value not in DECISIONS:
            report(line, f"unknown action {quote(value)}; write one of {one_of(value, DECISIONS)}")
        else:
            found.append((as_surface(key), as_decision(value), line))
    return found


def _parse_roots(
    raw: object, lines: TomlLines, report: Report, kind: Kind, workspace: str | None, home: str
) -> list[tuple[str, int]]:
    header = lines.table_line("workspace")
    if not isinstance(raw, dict):
        report(header, 'workspace must be a table; write [workspace] and roots = ["~/src/lib"]')
        return []
    for key in raw:
        if key != "roots":
            report(
                lines.key_line(key, header),
                f'unknown key {quote(key)} in [workspace]; write "roots"',
            )
    value, line = raw.get("roots", []), lines.key_line("roots", header)
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        report(line, 'workspace.roots must be a list of paths; write roots = ["~/src/lib"]')
        return []
    roots: list[tuple[str, int]] = []
    for root in value:
        if root == "~" or root.startswith("~/"):
            root = home.rstrip("/") + root[1:]
        elif not root.startswith("/"):
            if kind != "project" or not workspace:
                report(line, f"workspace root {quote(root)} is relative; {ABSOLUTE_HINT}")
                continue
            root = os.path.join(workspace, root)
        roots.append((os.path.normpath(root) or "/", line))
    return roots


_HINTS = {"surface": '"command"', "pattern": '"git push *"', "action": '"ask"'}


def _parse_rule(
    raw: dict[str, object],
    line: int,
    lines: TomlLines,
    report: Report,
    kind: Kind,
    workspace: str | None,
) -> tuple[Surface, str, Decision, tuple[Access, ...], tuple[DynamicRole, ...], str, str] | None:
    """A valid rule's fields, or None after reporting what is wrong with it."""
    problems: list[str] = []

    def problem(at: int, message: str) -> None:
        problems.append(message)
        report(at, message)

    def at(key: str) -> int:
        return lines.key_line(key, line)

    for key in raw:
        if key not in RULE_KEYS:
            problem(
                at(key),
                f"unknown key {quote(key)} in a rule; write one of {one_of(key, RULE_KEYS)}",
            )
    values: dict[str, str] = {}
    for key, hint in _HINTS.items():
        value = raw.get(key)
        if value is None:
            problem(line, f"rule has no {key}; add {key} = {hint}")
        elif not isinstance(value, str):
            problem(
                at(key), f"{key} must be a string, not {type_name(value)}; write {key} = {hint}"
            )
        else:
            values[key] = value.strip() if key == "pattern" else value
    surface, pattern, action = values.get("surface"), values.get("pattern"), values.get("action")
    if surface is not None and surface not in SURFACES:
        problem(
            at("surface"),
            f"unknown surface {quote(surface)}; write one of {one_of(surface, SURFACES)}",
        )
    if action is not None and action not in DECISIONS:
        problem(
            at("action"),
            f"unknown action {quote(action)}; write one of {one_of(action, DECISIONS)}",
        )
    if pattern == "":
        problem(at("pattern"), 'empty pattern; write a pattern, or "*" to match everything')
    access = _parse_filter(raw, "access", ACCESSES, PATH_SURFACES, surface, at, problem)
    role = _parse_filter(raw, "role", ROLES, ("dynamic",), surface, at, problem)
    session = raw.get("session", "")
    if session != "" and session not in SESSION_KINDS:
        shown = quote(session) if isinstance(session, str) else type_name(session)
        problem(at("session"), f'unknown session {shown}; write session = "interactive" or "agent"')
    reason = raw.get("reason", "")
    if not isinstance(reason, str):
        problem(
            at("reason"), f'reason must be a string, not {type_name(reason)}; write reason = "why"'
        )
    if surface in PATH_SURFACES and pattern and is_relative_path_pattern(pattern):
        if kind != "project" or not workspace:
            problem(at("pattern"), f"path pattern {quote(pattern)} is relative; {ABSOLUTE_HINT}")
        else:
            pattern = os.path.join(workspace, pattern)
    if surface in PATH_SURFACES and pattern:
        pattern = os.path.normpath(pattern)  # request paths are normalised: `/ws/../x` is `/x`
    if problems or surface is None or pattern is None or action is None:
        return None
    access_ = tuple(a for a in ACCESSES if a in access)
    role_ = tuple(r for r in ROLES if r in role)
    session_ = session if isinstance(session, str) else ""
    return as_surface(surface), pattern, as_decision(action), access_, role_, str(reason), session_


def _parse_filter(
    raw: dict[str, object],
    key: str,
    allowed: tuple[str, ...],
    only_on: tuple[str, ...],
    surface: str | None,
    at: Callable[[str], int],
    problem: Report,
) -> list[str]:
    """The `access` or `role` filter of a rule: a string or a list of strings."""
    if key not in raw:
        return []
    value = raw[key]
    if surface is not None and surface not in only_on:
        names = " or ".join(f'"{s}"' for s in only_on)
        problem(at(key), f"{key} only applies to surface {names}; remove it or change the surface")
        return []
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(v, str) for v in items):
        problem(
            at(key),
            f"{key} must be a string or a non-empty list of strings, not "
            f'{type_name(value)}; write {key} = ["{allowed[0]}"]',
        )
        return []
    for item in items:
        if item not in allowed:
            problem(at(key), f"unknown {key} {quote(item)}; write one of {one_of(item, allowed)}")
    return list(items)
