"""Settings in policy files: tables of keys that are not rules (`[audit]`, `[enforce]`, …).

Each setting is read the same way, whatever it means: a table, a key, a type and the layers
that may set it. A file holds `(key, value, line)` triples; `combine_settings` layers them
lowest first, the last layer setting a key wins, except that a key the managed layer sets is
fixed: lower layers cannot change it (a problem is reported when they try).

Readers use `setting(policy, "audit.syslog")`. To add a setting, add a row to `SETTINGS`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import NamedTuple

Value = bool | str | tuple[str, ...]
Report = Callable[[int, str], None]


class SettingSpec(NamedTuple):
    kind: str  # "bool", "mode", "target" (true/false or an absolute socket path), "paths", "url"
    layers: tuple[str, ...]  # the layer kinds that may set it
    choices: tuple[str, ...] = ()  # for "mode"
    shared: bool = False  # another reader owns the table's other keys and the other layers


# [enforce] belongs to guard/policy/enforce_policy.py (the enforcement branch); this reader only
# keeps
# the managed layer's mode, so that a managed `mode` is fixed: `enforcement_mode` returns
# `setting(policy.settings, "enforce.mode")` when "enforce.mode" is in `policy.fixed`.


SETTINGS: dict[str, SettingSpec] = {
    "enforce.mode": SettingSpec("mode", ("managed",), ("off", "landlock", "require"), shared=True),
    "approver.required": SettingSpec("bool", ("managed",)),
    "approver.notify": SettingSpec("url", ("managed", "user")),
    "approvals.always": SettingSpec("bool", ("managed",)),
    "audit.syslog": SettingSpec("target", ("managed", "user")),
    "audit.journald": SettingSpec("target", ("managed", "user")),
}
TABLES = tuple(dict.fromkeys(key.split(".")[0] for key in SETTINGS))
_HINT = {
    "bool": "true or false",
    "target": 'true, false or the absolute path of a socket ("/dev/log")',
    "url": 'an http:// or https:// address ("https://ntfy.example/guard")',
}


def parse_settings(
    data: dict[str, object],
    *,
    kind: str,
    home: str,
    table_line: Callable[[str], int],
    key_line: Callable[[str, int], int],
    report: Report,
) -> tuple[tuple[str, Value, int], ...]:
    """The valid settings in a parsed TOML document, reporting each mistake."""
    found: list[tuple[str, Value, int]] = []
    for table in TABLES:
        if table not in data:
            continue
        raw, header = data[table], table_line(table)
        shared = any(s.shared for k, s in SETTINGS.items() if k.startswith(table + "."))
        if not isinstance(raw, dict):
            if not shared:  # a shared table's own reader says what is wrong with it
                report(header, f"{table} must be a table; write it under a [{table}] header")
            continue
        for key, value in raw.items():
            name = f"{table}.{key}"
            spec, line = SETTINGS.get(name), key_line(key, header)
            if shared and (spec is None or kind not in spec.layers):
                continue  # the table's own reader reports what is wrong here
            if spec is None:
                known = ", ".join(k.split(".")[1] for k in SETTINGS if k.startswith(table + "."))
                report(line, f"unknown key {key!r} in [{table}]; write one of {known}")
                continue
            if kind != "default" and kind not in spec.layers:
                where = " or ".join(f"the {layer} policy" for layer in spec.layers)
                report(line, f"{name} can only be set in {where}; remove it from this file")
                continue
            parsed = _value(spec, value, home)
            if parsed is None and shared:
                continue  # the table's own reader reports it
            if parsed is None:
                hint = _HINT.get(spec.kind) or " or ".join(f'"{c}"' for c in spec.choices)
                report(line, f"{name} must be {hint}; write {key} = {_example(spec)}")
                continue
            found.append((name, parsed, line))
    return tuple(sorted(found, key=lambda item: item[2]))  # in file order


def _value(spec: SettingSpec, value: object, home: str) -> Value | None:
    if spec.kind == "bool":
        return value if isinstance(value, bool) else None
    if spec.kind == "mode":
        return value if isinstance(value, str) and value in spec.choices else None
    if spec.kind == "url":
        if not isinstance(value, str) or " " in value:
            return None
        return value if value.startswith(("http://", "https://")) else None
    if spec.kind == "target":
        if isinstance(value, bool):
            return value
        return value if isinstance(value, str) and value.startswith("/") else None
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        return None
    paths: list[str] = []
    for path in value:
        if path == "~" or path.startswith("~/"):
            path = home.rstrip("/") + path[1:]
        if not path.startswith("/"):
            return None
        paths.append(os.path.normpath(path))
    return tuple(paths)


def _example(spec: SettingSpec) -> str:
    examples = {
        "bool": "true",
        "target": "true",
        "paths": '["/srv/secrets/**"]',
        "url": '"https://ntfy.example/guard"',
    }
    return examples.get(spec.kind, f'"{spec.choices[-1]}"' if spec.choices else '""')


class Layered(NamedTuple):
    """Settings after layering: (key, value, "file:line"), the keys the managed layer fixed,
    and what a lower layer tried to change anyway."""

    settings: tuple[tuple[str, Value, str], ...]
    fixed: tuple[str, ...]
    overridden: tuple[str, ...]


def combine_settings(layers: list[tuple[str, str, tuple[tuple[str, Value, int], ...]]]) -> Layered:
    """`layers` as (kind, source, settings), lowest first."""
    values: dict[str, tuple[Value, str]] = {}
    fixed: dict[str, str] = {}
    overridden: list[str] = []
    for kind, source, found in layers:
        for key, value, line in found:
            where = f"{source}:{line}"
            if key in fixed:
                if value != values[key][0]:
                    overridden.append(
                        f"{where}: {key} ignored: the managed policy sets it ({fixed[key]})"
                    )
                continue
            values[key] = (value, where)
            if kind == "managed":
                fixed[key] = where
    effective = tuple((key, value, where) for key, (value, where) in values.items())
    return Layered(effective, tuple(fixed), tuple(overridden))


def setting(settings: tuple[tuple[str, Value, str], ...], key: str) -> Value | None:
    """The effective value of `key`, or None when no file sets it."""
    return next((value for name, value, _ in settings if name == key), None)
