"""The policy's records: a rule, what one file says, the effective policy, its `[enforce]` part.

Read and layered by guard/policy/files.py; the format is described in docs/policy.md.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from guard.policy.policy_settings import Value
from guard.projection import Access, Decision, DynamicRole, ProtectedPath, Surface

Kind = Literal["default", "user", "project", "managed"]
Mode = Literal["off", "landlock", "require"]
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



class EnforceSettings(NamedTuple):
    """What the files' `[enforce]` tables say, layered; `mode` None when no file sets it."""

    mode: Mode | None = None
    mode_source: str = ""  # "file:line"
    write: tuple[str, ...] = ()  # absolute (a leading ~ already expanded)
    read: tuple[str, ...] = ()


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
