"""The policy's `[enforce]` table, and which enforcement mode a session runs in.

```toml
[enforce]
mode = "landlock"             # "off" | "landlock" | "require"
write = ["~/.cache/bazel"]    # more directories a line may write (caches), besides the defaults
read = ["/mnt/datasets"]      # more directories a line may read
```

`off` runs lines as checked; `landlock` also holds each guarded-bash line to its ruleset where
the kernel has Landlock, and runs it checked only where not; `require` refuses to run a line
that cannot be held. See docs/enforcement.md.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from guard.policy.rules import EnforceSettings, Mode

if TYPE_CHECKING:
    from guard.policy.rules import Policy
    from guard.policy.toml_problems import TomlLines

MODES: tuple[Mode, ...] = ("off", "landlock", "require")
KEYS = ("mode", "write", "read")
STRICTNESS = {"off": 0, "landlock": 1, "require": 2}
_ENV_WORDS: dict[str, Mode] = {"0": "off", "no": "off", "false": "off", "none": "off"}
_ENV_WORDS |= {"1": "landlock", "on": "landlock", "yes": "landlock", "true": "landlock"}


def enforcement_mode(policy: Policy, env: Mapping[str, str], *, agent: bool) -> Mode:
    """The mode a guarded-bash line runs in. `GUARD_ENFORCE` (off, landlock, require) wins over
    the policy's `[enforce] mode`, except that it cannot lower a policy's `require`; without
    either, agents' sessions (`agent`) enforce and people's do not. An unknown `GUARD_ENFORCE`
    value counts as `require`: a typo never turns enforcement off."""
    configured = policy.enforce.mode
    if "enforce.mode" in getattr(policy, "fixed", ()):  # the machine's managed policy set it
        from guard.policy.policy_settings import setting

        fixed = setting(policy.settings, "enforce.mode")
        if isinstance(fixed, str) and fixed in MODES:
            return next(m for m in MODES if m == fixed)
    raw = env.get("GUARD_ENFORCE", "").strip().lower()
    given: Mode | None = None
    if raw:
        given = _ENV_WORDS.get(raw) or next((m for m in MODES if m == raw), "require")
    chosen: Mode = given or configured or ("landlock" if agent else "off")
    if configured == "require":
        return "require"
    return chosen


def parse_enforce(
    raw: object,
    lines: TomlLines,
    report: Callable[[int, str], None],
    *,
    source: str,
    home: str,
) -> EnforceSettings:
    """One file's `[enforce]` table; what is wrong is reported with its line and left out."""
    from guard.policy.toml_problems import ABSOLUTE_HINT, one_of, quote, type_name

    header = lines.table_line("enforce")
    if not isinstance(raw, dict):
        report(header, 'enforce must be a table; write [enforce] and mode = "landlock"')
        return EnforceSettings()
    for key in raw:
        if key not in KEYS:
            where = lines.key_line(key, header)
            report(
                where, f"unknown key {quote(key)} in [enforce]; write one of {one_of(key, KEYS)}"
            )
    mode: Mode | None = None
    line = lines.key_line("mode", header)
    value = raw.get("mode")
    if value is not None and not isinstance(value, str):
        report(line, f'enforce.mode must be a string, not {type_name(value)}; write mode = "off"')
    elif value is not None and value not in MODES:
        report(line, f"unknown enforce mode {quote(value)}; write one of {one_of(value, MODES)}")
    elif value is not None:
        mode = next(m for m in MODES if m == value)
    lists: dict[str, tuple[str, ...]] = {}
    for key in ("write", "read"):
        items, at = raw.get(key, []), lines.key_line(key, header)
        if not isinstance(items, list) or not all(isinstance(v, str) and v for v in items):
            report(at, f'enforce.{key} must be a list of paths; write {key} = ["~/.cache/tool"]')
            continue
        paths = []
        for item in items:
            if item == "~" or item.startswith("~/"):
                item = home.rstrip("/") + item[1:]
            if not item.startswith("/"):
                report(at, f"enforce.{key} path {quote(item)} is relative; {ABSOLUTE_HINT}")
                continue
            paths.append(os.path.normpath(item))
        lists[key] = tuple(paths)
    return EnforceSettings(
        mode, f"{source}:{line}" if mode else "", lists.get("write", ()), lists.get("read", ())
    )


def combine_enforce(layers: list[EnforceSettings]) -> EnforceSettings:
    """Lowest first: the last mode set wins; the lists add up."""
    out = EnforceSettings()
    for layer in layers:
        if layer.mode is not None:
            out = out._replace(mode=layer.mode, mode_source=layer.mode_source)
        out = out._replace(write=out.write + layer.write, read=out.read + layer.read)
    return out


def tighten_enforce(layer: EnforceSettings, below: Mode | None) -> tuple[EnforceSettings, str]:
    """An untrusted project file's `[enforce]`: it may raise the mode, never lower it or widen
    what lines may touch. Returns what is kept and what was left out ("" when nothing)."""
    dropped = []
    if layer.write or layer.read:
        dropped.append("enforce write/read paths")
    mode = layer.mode
    if mode is not None and STRICTNESS[mode] < STRICTNESS[below or "landlock"]:
        dropped.append(f"enforce mode = {mode}")
        mode = None
    kept = EnforceSettings(mode, layer.mode_source if mode else "")
    return kept, ", ".join(dropped)
