"""Policy files: read, validate and layer the shipped default, the user's and the project's file.

Loading never raises and never loosens on error: every problem found (bad TOML, unknown keys,
an unreadable file) is kept in `Policy.problems`, and `decide` turns what would have been
allowed into `ask` while there are any. The format is described in docs/policy.md.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Literal, NamedTuple

from guard.policy.enforce_policy import EnforceSettings
from guard.policy.policy_settings import TABLES as SETTING_TABLES
from guard.policy.policy_settings import Value, combine_settings, parse_settings
from guard.projection.patterns import is_relative_path_pattern
from guard.projection.requests import (
    ACCESSES,
    DECISIONS,
    SURFACES,
    Access,
    Decision,
    DynamicRole,
    Surface,
)

Kind = Literal["default", "user", "project", "managed"]
Report = Callable[[int, str], None]
ROLES: tuple[DynamicRole, ...] = ("command_name", "path", "redirect", "code", "chdir", "data")
TOP_KEYS = ("defaults", "workspace", "protected", "rules", *SETTING_TABLES)
PROTECTED_KEYS = ("paths", "writes", "secrets")
SESSION_KINDS = ("interactive", "agent")
RULE_KEYS = ("surface", "pattern", "action", "access", "role", "reason", "session")
PATH_SURFACES = ("external_directory", "protected")
PROJECT_FILE = ".guard.toml"
DEFAULT_SOURCE = "guard/default-policy.toml"


class Rule(NamedTuple):
    """One `[[rules]]` entry. An empty `access` or `role` filter means any."""

    surface: Surface
    pattern: str
    action: Decision
    access: tuple[Access, ...] = ()
    role: tuple[DynamicRole, ...] = ()
    reason: str = ""
    source: str = ""
    line: int = 0
    session: str = ""  # "interactive" or "agent": the rule applies only to that kind of session


SECRET_ACCESS: tuple[Access, ...] = ("read",)  # how a [protected] `secrets` entry is kept


class ProtectedPath(NamedTuple):
    """One entry of the protected list: a path pattern (the path and everything below it) and
    the accesses it covers (empty: any). A pattern without a leading `/` or `~` names that
    path in any directory (`.git/hooks`)."""

    pattern: str
    access: tuple[Access, ...] = ()
    source: str = ""
    agent_only: bool = False  # `secrets`: reads in agents' sessions only ("!x" excepts x)


class PolicyFile(NamedTuple):
    """What one file says: its valid parts, and one message per problem."""

    source: str
    rules: tuple[Rule, ...] = ()
    defaults: tuple[tuple[Surface, Decision, int], ...] = ()  # (surface, action, line)
    roots: tuple[tuple[str, int], ...] = ()  # (absolute root, line)
    problems: tuple[str, ...] = ()
    protected: tuple[tuple[str, tuple[Access, ...], int], ...] = ()  # (pattern, access, line)
    settings: tuple[tuple[str, Value, int], ...] = ()  # (key, value, line): see policy_settings
    kind: str = ""  # "default", "managed", "user" or "project"; "" for the shipped data module
    enforce: EnforceSettings | None = None  # its [enforce] table (guard/policy/enforce_policy.py)


class Policy(NamedTuple):
    """The effective policy: every file's rules in order (the last match wins) and defaults."""

    rules: tuple[Rule, ...]
    defaults: dict[Surface, Decision]
    default_sources: dict[Surface, str]  # surface -> "file:line" that set its default
    roots: tuple[str, ...] = ()  # extra workspace roots, absolute
    root_sources: tuple[str, ...] = ()  # "file:line" for each root
    problems: tuple[str, ...] = ()  # any problem makes decide() ask instead of allow
    files: tuple[str, ...] = ()  # the files read, lowest first
    ignored: tuple[str, ...] = ()  # what an untrusted project file was not allowed to loosen
    protected: tuple[ProtectedPath, ...] = ()  # every layer's entries: layers only add
    managed_rules: tuple[Rule, ...] = ()  # the managed layer's rules: its deny and ask are final
    settings: tuple[tuple[str, Value, str], ...] = ()  # (key, value, "file:line"), effective
    fixed: tuple[str, ...] = ()  # setting keys the managed layer fixed
    kinds: tuple[str, ...] = ()  # the layer kind of each of `files`
    enforce: EnforceSettings = EnforceSettings()  # [enforce], layered


def load_policy(
    workspace: str | None = None,
    *,
    home: str | None = None,
    user_file: str | None = None,
    trust_project: bool = True,
) -> Policy:
    """The shipped default, the managed file, the user's file, then `<workspace>/.guard.toml`.

    With `trust_project=False` the project file may only tighten: its allow rules, allow
    defaults and extra roots are left out and listed in `Policy.ignored`."""
    home = home if home is not None else os.path.expanduser("~")
    from guard.policy.managed import read_managed_layer
    from guard.policy.shipped_policy import default_layer

    layers = [default_layer()]
    managed = read_managed_layer(home)
    if managed is not None:
        layers.append(managed)
    user = read_policy_file(user_file or user_policy_path(), kind="user", workspace=None, home=home)
    if user is not None:
        layers.append(user)
    ignored: tuple[str, ...] = ()
    if workspace:
        path = os.path.join(workspace, PROJECT_FILE)
        project = read_policy_file(path, kind="project", workspace=workspace, home=home)
        if project is not None and not trust_project:
            project, ignored = _tighten_only(project)
            if project.enforce is not None:  # [enforce] may only tighten too
                from guard.policy.enforce_policy import combine_enforce, tighten_enforce

                below = combine_enforce([la.enforce for la in layers if la.enforce]).mode
                kept, dropped = tighten_enforce(project.enforce, below)
                project = project._replace(enforce=kept)
                if dropped:
                    ignored += (f"{project.source}: {dropped} ignored: the project is not trusted",)
        if project is not None:
            layers.append(project)
    return combine(layers, ignored=ignored)


def user_policy_path() -> str:
    """`GUARD_CONFIG`, else `policy.toml` in the platform's user config dir for guard."""
    if os.environ.get("GUARD_CONFIG"):
        return os.environ["GUARD_CONFIG"]
    from guard.dirs import user_config_dir

    return os.path.join(user_config_dir(), "policy.toml")


def default_policy_text() -> str:
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    beside = os.path.join(package, "default-policy.toml")
    try:  # a plain file read: importlib.resources costs milliseconds on every check
        with open(beside, encoding="utf-8") as f:
            return f.read()
    except OSError:  # installed somewhere without plain files (a zip)
        from importlib import resources

        return resources.files("guard").joinpath("default-policy.toml").read_text(encoding="utf-8")


def read_policy_file(
    path: str, *, kind: Kind, workspace: str | None, home: str, source: str | None = None
) -> PolicyFile | None:
    """One file, parsed; None when it does not exist (a missing file is no problem)."""
    source = source if source is not None else display_path(path, home)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        text = data.decode("utf-8")
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        problem = f"{source}: is a directory, not a policy file; remove it or point to a file"
        return PolicyFile(source, problems=(problem,), kind=kind)
    except OSError as error:
        problem = f"{source}: cannot read ({error.strerror}); fix its permissions or remove it"
        return PolicyFile(source, problems=(problem,), kind=kind)
    except UnicodeDecodeError:
        problem = f"{source}: not UTF-8 text; save it as UTF-8"
        return PolicyFile(source, problems=(problem,), kind=kind)
    return parse_policy(text, source=source, kind=kind, workspace=workspace, home=home)


def check_policy_file(
    path: str, *, project: bool | None = None, home: str | None = None
) -> list[str]:
    """One `file:line: what is wrong, what to write instead` message per problem in `path`.

    A file named `.guard.toml` is checked as a project file (relative paths allowed)."""
    project = os.path.basename(path) == PROJECT_FILE if project is None else project
    workspace = os.path.dirname(os.path.abspath(path)) if project else None
    home = home if home is not None else os.path.expanduser("~")
    kind: Kind = "project" if project else "user"
    layer = read_policy_file(path, kind=kind, workspace=workspace, home=home, source=path)
    if layer is None:
        return [f"{path}: no such file; check the path"]
    return list(layer.problems)


def combine(layers: list[PolicyFile], *, ignored: tuple[str, ...] = ()) -> Policy:
    """Layer files lowest first: rules concatenate, the last `[defaults]` per surface wins.
    A surface no file sets asks."""
    kinds = [layer.kind or ("default" if layer.source == DEFAULT_SOURCE else "user")
             for layer in layers]
    layered = combine_settings(
        [(kind, layer.source, layer.settings) for kind, layer in zip(kinds, layers, strict=True)]
    )
    managed = [layer for kind, layer in zip(kinds, layers, strict=True) if kind == "managed"]
    defaults: dict[Surface, Decision] = dict.fromkeys(SURFACES, "ask")
    sources: dict[Surface, str] = dict.fromkeys(SURFACES, "guard (no file sets it)")
    roots: dict[str, str] = {}
    for layer in layers:
        for surface, action, line in layer.defaults:
            defaults[surface], sources[surface] = action, f"{layer.source}:{line}"
        for root, line in layer.roots:
            roots.setdefault(root, f"{layer.source}:{line}")
    return Policy(
        rules=tuple(rule for layer in layers for rule in layer.rules),
        defaults=defaults,
        default_sources=sources,
        roots=tuple(roots),
        root_sources=tuple(roots.values()),
        problems=tuple(problem for layer in layers for problem in layer.problems),
        files=tuple(layer.source for layer in layers),
        ignored=ignored + layered.overridden,
        protected=tuple(
            ProtectedPath(pattern, access, f"{layer.source}:{line}", access == SECRET_ACCESS)
            for layer in layers
            for pattern, access, line in layer.protected
        ),
        managed_rules=tuple(rule for layer in managed for rule in _managed_rules(layer)),
        settings=layered.settings,
        fixed=layered.fixed,
        kinds=tuple(kinds),
        enforce=_combine_enforce(layers),
    )


def _managed_rules(layer: PolicyFile) -> tuple[Rule, ...]:
    """The managed layer's rules, and an ask rule for each protected path it adds: like its
    own ask rules, no lower layer's rule or approval may relax them."""
    if not layer.protected:
        return layer.rules
    from guard.projection.protected import covered_pattern

    added = tuple(
        Rule("protected", covered_pattern(pattern), "ask", access,
             reason="protected by the machine's managed policy", source=layer.source, line=line,
             session="agent" if access == SECRET_ACCESS else "")
        for pattern, access, line in layer.protected
        if not pattern.startswith("!")
    )
    return layer.rules + added
def _combine_enforce(layers: list[PolicyFile]) -> EnforceSettings:
    if not any(layer.enforce for layer in layers):
        return EnforceSettings()
    from guard.policy.enforce_policy import combine_enforce

    return combine_enforce([layer.enforce for layer in layers if layer.enforce])


def _tighten_only(layer: PolicyFile) -> tuple[PolicyFile, tuple[str, ...]]:
    src = layer.source
    dropped = [f"{src}:{r.line}: allow rule" for r in layer.rules if r.action == "allow"]
    dropped += [f"{src}:{line}: {s} = allow" for s, a, line in layer.defaults if a == "allow"]
    dropped += [f"{src}:{line}: workspace root {root}" for root, line in layer.roots]
    kept = PolicyFile(
        src,
        rules=tuple(r for r in layer.rules if r.action != "allow"),
        defaults=tuple(d for d in layer.defaults if d[1] != "allow"),
        problems=layer.problems,
        protected=layer.protected,  # more protected paths only tighten
        settings=layer.settings,
        kind=layer.kind,
        enforce=layer.enforce,
    )
    return kept, tuple(f"{d} ignored: the project file is not trusted" for d in dropped)


def display_path(path: str, home: str) -> str:
    """`path` with the home directory written as `~`."""
    home = home.rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        return "~" + path[len(home) :]
    return path


def render_policy(policy: Policy) -> str:
    """The effective policy as text for `guard policy show`: where each part came from."""
    kinds = dict(zip(policy.files, policy.kinds, strict=False))
    out = ["files read, lowest first:"]
    out += [f"  [{kinds.get(f, 'user')}] {f}" for f in policy.files]
    out.append("defaults:")
    for surface in SURFACES:
        action, source = policy.defaults[surface], policy.default_sources[surface]
        out.append(f"  {surface:<20} {action:<6} {source}")
    if policy.roots:
        out.append("extra workspace roots:")
        out += [f"  {r}  ({s})" for r, s in zip(policy.roots, policy.root_sources, strict=True)]
    if policy.protected:
        out.append("protected paths (any access unless marked):")
        for entry in policy.protected:
            only = f" [{', '.join(entry.access)}]" if entry.access else ""
            if entry.agent_only:
                excepted = entry.pattern.startswith("!")
                only = " [secrets: not a secret]" if excepted else " [secrets: agents' reads]"
            layer = kinds.get(entry.source.rpartition(":")[0], "user")
            final = "[managed final] " if layer == "managed" else ""
            out.append(f"  {entry.pattern}{only}  ({final}{entry.source})")
    if policy.enforce != EnforceSettings():
        e = policy.enforce
        where = f"  ({e.mode_source})" if e.mode else ""
        out.append(f"enforce: mode {e.mode or 'default (on for agents, off for people)'}{where}")
        out += [f"  write {p}" for p in e.write] + [f"  read  {p}" for p in e.read]
    out.append("rules (within a surface the last matching rule wins):")
    for surface in SURFACES:
        rules = [rule for rule in policy.rules if rule.surface == surface]
        if rules:
            out.append(f"  {surface}:")
        for rule in rules:
            only = ", ".join(rule.access + rule.role + ((rule.session,) if rule.session else ()))
            extra = (f" [{only}]" if only else "") + (f" — {rule.reason}" if rule.reason else "")
            layer = kinds.get(rule.source, "user")
            final = " final" if layer == "managed" and rule.action != "allow" else ""
            where = f"[{layer}{final}] {rule.source}:{rule.line}"
            out.append(f"    {rule.action:<6} {rule.pattern}{extra}  ({where})")
    out += render_settings(policy)
    for title, items in (("ignored", policy.ignored), ("problems", policy.problems)):
        if items:
            out += [f"{title}:", *(f"  {item}" for item in items)]
    if policy.problems:
        out.append("  while there are problems, everything that would be allowed asks instead")
    from guard.printable import escaped  # a policy file may hold any text: show it safely

    return "\n".join(map(escaped, out)) + "\n"


def render_settings(policy: Policy) -> list[str]:
    """The settings in effect, each with its file and whether the managed layer fixed it."""
    if not policy.settings:
        return []
    out = ["settings:"]
    for key, value, where in policy.settings:
        if isinstance(value, tuple):
            shown = "[" + ", ".join(_q(v) for v in value) + "]"
        else:
            shown = _q(value) if isinstance(value, str) else str(value).lower()
        fixed = " [managed, fixed]" if key in policy.fixed else ""
        out.append(f"  {key} = {shown}  ({where}){fixed}")
    return out


# ---- parsing and validation -------------------------------------------------------------------


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
    lines = _Lines(text)
    problems: list[str] = []

    def report(line: int, message: str) -> None:
        problems.append(f"{source}:{line}: {message}")

    for key in data:
        if key not in TOP_KEYS:
            report(
                lines.top_line(key), f"unknown key {_q(key)}; write one of {_one_of(key, TOP_KEYS)}"
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
        data, kind=kind, home=home, table_line=lines.table_line, key_line=lines.key_line,
        report=report,
    )
    enforce = None
    if "enforce" in data:
        from guard.policy.enforce_policy import parse_enforce

        enforce = parse_enforce(data["enforce"], lines, report, source=source, home=home)
    return PolicyFile(
        source, tuple(rules), tuple(defaults), tuple(roots), tuple(problems), tuple(protected),
        settings=settings, kind=kind, enforce=enforce,
    )


def _parse_protected(
    raw: object, lines: _Lines, report: Report
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
            choices = _one_of(key, PROTECTED_KEYS)
            report(line, f"unknown key {_q(key)} in [protected]; write one of {choices}")
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
    raw: object, lines: _Lines, report: Report
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
                f"unknown surface {_q(key)} in [defaults]; write one of {_one_of(key, SURFACES)}",
            )
        elif not isinstance(value, str):
            report(line, f'{key} must be a string, not {_type_name(value)}; write {key} = "ask"')
        elif value not in DECISIONS:
            report(line, f"unknown action {_q(value)}; write one of {_one_of(value, DECISIONS)}")
        else:
            found.append((_surface(key), _decision(value), line))
    return found


def _parse_roots(
    raw: object, lines: _Lines, report: Report, kind: Kind, workspace: str | None, home: str
) -> list[tuple[str, int]]:
    header = lines.table_line("workspace")
    if not isinstance(raw, dict):
        report(header, 'workspace must be a table; write [workspace] and roots = ["~/src/lib"]')
        return []
    for key in raw:
        if key != "roots":
            report(
                lines.key_line(key, header), f'unknown key {_q(key)} in [workspace]; write "roots"'
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
                report(line, f"workspace root {_q(root)} is relative; {_ABSOLUTE}")
                continue
            root = os.path.join(workspace, root)
        roots.append((os.path.normpath(root) or "/", line))
    return roots


_ABSOLUTE = "write an absolute path or one starting with ~/ (only .guard.toml may be relative)"
_HINTS = {"surface": '"command"', "pattern": '"git push *"', "action": '"ask"'}


def _parse_rule(
    raw: dict[str, object],
    line: int,
    lines: _Lines,
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
                at(key), f"unknown key {_q(key)} in a rule; write one of {_one_of(key, RULE_KEYS)}"
            )
    values: dict[str, str] = {}
    for key, hint in _HINTS.items():
        value = raw.get(key)
        if value is None:
            problem(line, f"rule has no {key}; add {key} = {hint}")
        elif not isinstance(value, str):
            problem(
                at(key), f"{key} must be a string, not {_type_name(value)}; write {key} = {hint}"
            )
        else:
            values[key] = value.strip() if key == "pattern" else value
    surface, pattern, action = values.get("surface"), values.get("pattern"), values.get("action")
    if surface is not None and surface not in SURFACES:
        problem(
            at("surface"),
            f"unknown surface {_q(surface)}; write one of {_one_of(surface, SURFACES)}",
        )
    if action is not None and action not in DECISIONS:
        problem(
            at("action"), f"unknown action {_q(action)}; write one of {_one_of(action, DECISIONS)}"
        )
    if pattern == "":
        problem(at("pattern"), 'empty pattern; write a pattern, or "*" to match everything')
    access = _parse_filter(raw, "access", ACCESSES, PATH_SURFACES, surface, at, problem)
    role = _parse_filter(raw, "role", ROLES, ("dynamic",), surface, at, problem)
    session = raw.get("session", "")
    if session != "" and session not in SESSION_KINDS:
        shown = _q(session) if isinstance(session, str) else _type_name(session)
        problem(at("session"), f'unknown session {shown}; write session = "interactive" or "agent"')
    reason = raw.get("reason", "")
    if not isinstance(reason, str):
        problem(
            at("reason"), f'reason must be a string, not {_type_name(reason)}; write reason = "why"'
        )
    if surface in PATH_SURFACES and pattern and is_relative_path_pattern(pattern):
        if kind != "project" or not workspace:
            problem(at("pattern"), f"path pattern {_q(pattern)} is relative; {_ABSOLUTE}")
        else:
            pattern = os.path.join(workspace, pattern)
    if surface in PATH_SURFACES and pattern:
        pattern = os.path.normpath(pattern)  # request paths are normalised: `/ws/../x` is `/x`
    if problems or surface is None or pattern is None or action is None:
        return None
    access_ = tuple(a for a in ACCESSES if a in access)
    role_ = tuple(r for r in ROLES if r in role)
    session_ = session if isinstance(session, str) else ""
    return _surface(surface), pattern, _decision(action), access_, role_, str(reason), session_


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
            f'{_type_name(value)}; write {key} = ["{allowed[0]}"]',
        )
        return []
    for item in items:
        if item not in allowed:
            problem(at(key), f"unknown {key} {_q(item)}; write one of {_one_of(item, allowed)}")
    return list(items)


class _Lines:
    """Where things are in a TOML text: tomllib keeps no line numbers, so scan for them."""

    _HEADER = re.compile(r"\s*\[(\[)?\s*([^\]]*?)\s*\]")
    _KEY = re.compile(r"\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)\s*[=.]")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.headers: list[tuple[int, str, bool]] = []  # (line, name, is an [[array]])
        for number, content in enumerate(self.lines, 1):
            found = self._HEADER.match(content)
            if found:
                self.headers.append((number, found.group(2).strip("\"'"), bool(found.group(1))))
        self.rules = [line for line, name, array in self.headers if array and name == "rules"]

    def rule_line(self, index: int) -> int:
        return self.rules[index] if index < len(self.rules) else self.top_line("rules")

    def table_line(self, name: str) -> int:
        return next((line for line, found, _ in self.headers if found == name), 1)

    def top_line(self, key: str) -> int:
        """The line of a top-level `key = …` (before any header), else of its `[key]` header."""
        first_header = self.headers[0][0] if self.headers else len(self.lines) + 1
        return self._find_key(key, 1, first_header) or self.table_line(key)

    def key_line(self, key: str, start: int) -> int:
        """The line of `key = …` in the block that begins at line `start`, else `start`."""
        until = next((line for line, _, _ in self.headers if line > start), len(self.lines) + 1)
        return self._find_key(key, start, until) or start

    def _find_key(self, key: str, start: int, until: int) -> int | None:
        for number in range(start, min(until, len(self.lines) + 1)):
            found = self._KEY.match(self.lines[number - 1])
            if found and found.group(1).strip("\"'") == key:
                return number
        return None


def _q(value: str) -> str:
    import json  # only for messages about mistakes

    return json.dumps(value, ensure_ascii=False)


def _one_of(word: str, choices: tuple[str, ...]) -> str:
    import difflib  # only for messages about mistakes

    close = difflib.get_close_matches(word, choices, n=1)
    return ", ".join(choices) + (f' (did you mean "{close[0]}"?)' if close else "")


def _type_name(value: object) -> str:
    names: dict[type, str] = {bool: "true/false", int: "a number", float: "a number"}
    names.update({str: "a string", list: "a list", dict: "a table"})
    return names.get(type(value), "a date")


def _surface(value: str) -> Surface:
    return next(s for s in SURFACES if s == value)


def _decision(value: str) -> Decision:
    return next(d for d in DECISIONS if d == value)
