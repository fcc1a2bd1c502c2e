"""Putting guard's hook into an agent's configuration, and taking exactly that out again.

`install` is idempotent (a second run changes nothing), keeps every other hook and every key it
does not know, and copies the file to FILE.guard-backup before its first change. `uninstall`
removes guard's entry only; when what is left is what the backup holds, the backup's bytes are
put back, so a file nobody else touched is restored byte for byte (and a file guard created is
removed, with the directories setup made for it). `status` (guard/entry/agents/status.py) says
whether guard's hook is there and fails closed; `detected` finds the agents here.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guard.entry.agents.config import AGENTS, config_path, handler, script
from guard.entry.agents.status import (
    Status,
    codex_trusted,
    command_of,
    is_guards,
    read_config,
    status,
)
from guard.errors import GuardError

__all__ = ["Change", "Status", "codex_trusted", "is_guards", "status"]

BACKUP = ".guard-backup"
CREATED = "setup-created.json"  # in guard's state dir: the directories setup made, to take out
SKELETONS: tuple[dict[str, Any], ...] = (
    {},
    {"hooks": {}},
    {"version": 1},
    {"version": 1, "hooks": {}},
)


@dataclass(frozen=True, slots=True)
class Change:
    path: Path
    action: str  # "added", "updated", "unchanged", "removed", "restored", "absent"
    text: str | None  # what the file should hold afterwards; None: the file goes


def _events(data: dict[str, Any], path: Path) -> dict[str, Any]:
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise GuardError(f'guard: {path} has a "hooks" that is not an object; fix it first')
    return hooks


def _strip(agent: str, data: dict[str, Any]) -> dict[str, Any]:
    """`data` without guard's entries, and without the containers only they filled."""
    out = copy.deepcopy(data)
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in list(hooks):
        entries = hooks[event]
        if not isinstance(entries, list):
            continue
        kept: list[Any] = []
        for entry in entries:
            inner = entry.get("hooks") if isinstance(entry, dict) else None
            if isinstance(inner, list):  # grouped: {matcher, hooks: [...]}
                left = [h for h in inner if not is_guards(agent, command_of(h))]
                if left or not inner:
                    kept.append({**entry, "hooks": left} if len(left) != len(inner) else entry)
            elif not is_guards(agent, command_of(entry)):
                kept.append(entry)
        if kept or not entries:
            hooks[event] = kept
        else:
            del hooks[event]
    if not hooks and data.get("hooks"):  # emptied by taking guard's entries out
        del out["hooks"]
    return out


def _with_guard(agent: str, data: dict[str, Any], path: Path) -> dict[str, Any]:
    cfg = AGENTS[agent]
    out = _strip(agent, data)
    if cfg.shape == "flat":
        out.setdefault("version", 1)
    entry: dict[str, Any] = handler(agent)
    if cfg.shape == "grouped":
        entry = {"matcher": cfg.matcher, "hooks": [entry]}
    events = _events(out, path)
    if not isinstance(events.setdefault(cfg.event, []), list):
        raise GuardError(f"guard: {path}: hooks.{cfg.event} is not a list; fix it first")
    events[cfg.event].append(entry)
    return out


def _has_exactly_guard(agent: str, data: dict[str, Any]) -> bool:
    """guard's entry is there once and as setup writes it: nothing to do."""
    cfg = AGENTS[agent]
    want: dict[str, Any] = handler(agent)
    if cfg.shape == "grouped":
        want = {"matcher": cfg.matcher, "hooks": [want]}
    hooks = data.get("hooks")
    found = [
        (event, entry)
        for event, entries in (hooks.items() if isinstance(hooks, dict) else ())
        if isinstance(entries, list)
        for entry in entries
        if _guards_in(agent, entry)
    ]
    return found == [(cfg.event, want)] and (cfg.shape != "flat" or data.get("version") == 1)


def _guards_in(agent: str, entry: object) -> bool:
    inner = entry.get("hooks") if isinstance(entry, dict) else None
    if isinstance(inner, list):
        return any(is_guards(agent, command_of(h)) for h in inner)
    return is_guards(agent, command_of(entry))


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def plan_install(agent: str, *, project: str | None = None) -> Change:
    path = config_path(agent, project=project)
    if AGENTS[agent].shape == "file":
        return _plan_file(agent, path)
    _raw, data = read_config(path)
    if _has_exactly_guard(agent, data):
        return Change(path, "unchanged", None)
    action = "updated" if _strip(agent, data) != data else "added"
    return Change(path, action, _dump(_with_guard(agent, data, path)))


def _plan_file(agent: str, path: Path) -> Change:
    want = script(agent)
    try:
        have = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Change(path, "added", want)
    except (OSError, UnicodeDecodeError) as exc:
        raise GuardError(f"guard: cannot read {path} ({exc}); move it aside first") from None
    if have == want:
        return Change(path, "unchanged", None)
    if not is_guards(agent, have) and f"guard setup {agent}" not in have:
        raise GuardError(
            f"guard: {path} is another tool's hook and {agent} runs only one there; move it "
            "aside (or merge it by hand), then run this again"
        )
    return Change(path, "updated", want)


def plan_uninstall(agent: str, *, project: str | None = None) -> Change:
    path = config_path(agent, project=project)
    if AGENTS[agent].shape == "file":
        try:
            have = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return Change(path, "absent", None)
        except (OSError, UnicodeDecodeError):
            return Change(path, "absent", None)
        ours = f"guard setup {agent}" in have
        return Change(path, "removed", None) if ours else Change(path, "absent", None)
    raw, data = read_config(path)
    if raw is None:
        return Change(path, "absent", None)
    left = _strip(agent, data)
    if left == data:
        return Change(path, "absent", None)
    backup = path.with_name(path.name + BACKUP)
    try:
        original = backup.read_bytes()
        kept = json.loads(original)
        versionless = {k: v for k, v in left.items() if k != "version"}
        if kept in (left, versionless, {**left, "hooks": {}}, {**versionless, "hooks": {}}):
            return Change(path, "restored", original.decode("utf-8"))
    except (OSError, ValueError):
        pass
    if left in SKELETONS and not backup.exists():
        return Change(path, "removed", None)
    return Change(path, "removed", _dump(left))


def apply(change: Change, agent: str) -> None:
    """Write what `change` says; back the original up before guard first changes it."""
    path = change.path
    if change.action in ("unchanged", "absent"):
        return
    backup = path.with_name(path.name + BACKUP)
    try:
        first = change.action in ("added", "updated") and not backup.exists()
        if first and AGENTS[agent].shape != "file" and path.exists():
            shutil.copy2(path, backup)
        if change.text is None:
            path.unlink(missing_ok=True)
            _remove_created(path.parent)
            return
        missing = _missing(path.parent)
        path.parent.mkdir(parents=True, exist_ok=True)
        _remember_created(missing)
        if change.action == "restored":
            temp = path.with_name(path.name + ".guard-new")
            temp.write_bytes(change.text.encode("utf-8"))
            shutil.copymode(backup, temp)
            os.replace(temp, path)
            backup.unlink()
            return
        temp = path.with_name(path.name + ".guard-new")
        temp.write_text(change.text, encoding="utf-8")
        mode = 0o755 if agent == "cline" else None
        if path.exists():
            shutil.copymode(path, temp)
        if mode is not None:
            temp.chmod(mode)
        os.replace(temp, path)
    except OSError as exc:
        raise GuardError(
            f"guard: cannot write {path} ({exc.strerror}); nothing was changed"
        ) from None


def _missing(directory: Path) -> list[Path]:
    """The directories from `directory` up that do not exist yet, innermost first."""
    missing = []
    for d in (directory, *directory.parents):
        if d.exists() or os.path.lexists(d):
            break
        missing.append(d)
    return missing


def _record() -> Path:
    given = os.environ.get("GUARD_STATE_DIR", "")
    if given and os.path.isabs(given):
        return Path(given) / CREATED
    from guard.dirs import user_state_dir

    return Path(user_state_dir()) / CREATED


def _created() -> list[str]:
    try:
        data = json.loads(_record().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [d for d in data if isinstance(d, str)] if isinstance(data, list) else []


def _write_created(dirs: list[str]) -> None:
    record = _record()
    try:
        if not dirs:
            record.unlink(missing_ok=True)
            return
        record.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temp = record.with_name(record.name + ".new")
        temp.write_text(json.dumps(sorted(set(dirs)), indent=1) + "\n", encoding="utf-8")
        os.replace(temp, record)
    except OSError as exc:
        raise GuardError(
            f"guard: cannot note in {record} which directories setup made ({exc.strerror}); "
            "the hook is written, but --uninstall will leave those directories"
        ) from None


def _remember_created(dirs: list[Path]) -> None:
    if dirs:
        _write_created([*_created(), *(str(d) for d in dirs)])


def _remove_created(directory: Path) -> None:
    """Take out the directories setup made on the way to `directory` that are empty now: what
    guard created goes, what anyone else put there stays (with the directories holding it)."""
    made = _created()
    if not made:
        return
    left = list(made)
    for d in (directory, *directory.parents):
        if str(d) not in made:
            continue
        try:
            d.rmdir()
        except OSError:  # not empty (someone else's now), or already gone
            if d.exists():
                break
        left.remove(str(d))
    if left != made:
        _write_created(left)


def detected(project: str | None = None) -> list[str]:
    """The agents that look installed here: a configuration directory (yours, or the one in
    `project`), or a program on PATH."""
    found = []
    for agent, cfg in AGENTS.items():
        config_dir = config_path(agent).parent
        if agent in ("copilot", "opencode", "cline"):
            config_dir = config_dir.parent
        ours = project is not None and status(agent, project=project).installed
        made = str(config_dir) in _created()  # by guard setup: only what is in it counts
        there = status(agent).installed or (
            config_dir.is_dir() and (not made or _holds_more_than_guards(config_dir, agent))
        )
        if ours or there or any(shutil.which(b) for b in cfg.binaries):
            found.append(agent)
    return found


def _holds_more_than_guards(directory: Path, agent: str) -> bool:
    """Whether `directory` holds anything but guard's own hook file, its backup and empty
    directories: an agent's configuration, not what `guard setup` left."""
    own = {config_path(agent), config_path(agent).with_name(config_path(agent).name + BACKUP)}
    for root, _dirs, files in os.walk(directory):
        if any(Path(root) / name not in own for name in files):
            return True
    return False
