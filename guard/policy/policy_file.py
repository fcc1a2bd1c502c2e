"""Writing rules into a policy file when a human answers "always", and finding them again.

The rule is appended as its own `[[rules]]` block with a comment saying when and why, so the
file's existing text and comments stay exactly as they were. `guard approvals list` shows the
blocks still in that shape, and `guard approvals revoke` takes one out (keeping a backup).

Both change the file under one lock, taken on the directory that holds it (`flock`, so no lock
file is left beside a project's policy): a revoke reads the file and writes it back whole, and
an "always" answered in another terminal between the two would otherwise be lost.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from guard.errors import GuardError
from guard.policy.files import user_policy_path
from guard.policy.rules import PROJECT_FILE

__all__ = [
    "AppendedRule",
    "append_rules",
    "appended_rules",
    "project_policy_path",
    "remove_appended",
    "user_policy_path",
]


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
    with _changing(path):
        _append(path, rules, command)


def _append(path: str, rules: Sequence[RuleLike], command: str) -> None:
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


LOCK_SECONDS = 10.0  # how long a change waits for another guard's change of the same file


@contextlib.contextmanager
def _changing(path: str) -> Iterator[None]:
    """Hold the lock on the directory of `path` while its file is changed (see above)."""
    directory = os.path.dirname(path) or "."
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        why = f"guard: cannot open {directory} ({exc.strerror}); nothing was changed"
        raise GuardError(why) from None
    try:
        deadline = time.monotonic() + LOCK_SECONDS
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise GuardError(
                        f"guard: another guard has been changing {path} for {LOCK_SECONDS:.0f} s;"
                        " nothing was changed (try again)"
                    ) from None
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)  # the lock goes with it


def _toml(value: str) -> str:
    return json.dumps(value)


# -- the rules guard appended, found again: for `guard approvals list` and `revoke` -----------

_HEAD = "# approved always at "
_ASKED = ", asked by: "
_KEYS = ("surface", "pattern", "access", "action")


@dataclass(frozen=True, slots=True)
class AppendedRule:
    """A rule block as `append_rules` wrote it, still exactly in that shape (a block the user
    edited is theirs, and not listed). ``id`` is made from the block's text, so it stays the
    same whatever else changes in the file."""

    id: str  # "r" and six hex digits
    path: str
    line: int  # of its comment, from 1
    surface: str
    pattern: str
    access: str | None
    approved: str  # "2026-12-03 13:20"
    asked_by: str
    text: str


def appended_rules(path: str) -> tuple[AppendedRule, ...]:
    """The rules guard appended to the file at `path` (none when it is missing)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return ()
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8"
        raise GuardError(f"guard: cannot read {path} ({why}); check the file") from None
    return tuple(rule for rule, _start, _end in _blocks(path, text))


def remove_appended(path: str, rule_id: str) -> tuple[AppendedRule, str]:
    """Take the rule ``rule_id`` out of the file at `path`, keeping the file as it was in
    ``PATH.bak`` (mode 0600): the rule removed and where the backup is."""
    with _changing(path):
        return _remove(path, rule_id)


def _remove(path: str, rule_id: str) -> tuple[AppendedRule, str]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8"
        raise GuardError(f"guard: cannot read {path} ({why}); nothing was changed") from None
    found = [(rule, start, end) for rule, start, end in _blocks(path, text) if rule.id == rule_id]
    if len(found) != 1:
        raise GuardError(
            f"guard: {path} has {len(found) or 'no'} rule {rule_id}; nothing was changed "
            "(`guard approvals list` shows the rules guard wrote)"
        )
    rule, start, end = found[0]
    lines = text.splitlines(keepends=True)
    if end < len(lines) and not lines[end].strip():
        end += 1  # the blank line after it
    elif start > 0 and not lines[start - 1].strip():
        start -= 1  # else the one before it
    backup = f"{path}.bak"
    _write(backup, text, mode=0o600)
    _write(path, "".join(lines[:start] + lines[end:]), mode=_mode(path))
    return rule, backup


def _blocks(path: str, text: str) -> list[tuple[AppendedRule, int, int]]:
    """Each appended block: the rule, its first line and the line after it (from 0)."""
    lines = text.splitlines(keepends=True)
    found = []
    for at, line in enumerate(lines):
        if not line.startswith(_HEAD) or _ASKED not in line:
            continue
        values: dict[str, str] = {}
        end = at + 2
        if lines[at + 1 : at + 2] != ["[[rules]]\n"]:
            continue
        while end < len(lines) and lines[end].strip():
            key, eq, raw = lines[end].rstrip("\n").partition(" = ")
            value = _string(raw) if eq else None
            if key not in _KEYS or key in values or value is None:
                break
            values[key] = value
            end += 1
        else:
            if values.get("action") != "allow" or "surface" not in values or (
                "pattern" not in values
            ):
                continue
            approved, _, asked = line.rstrip("\n").removeprefix(_HEAD).partition(_ASKED)
            block = "".join(lines[at:end])
            import hashlib

            rule_id = "r" + hashlib.sha256(block.encode("utf-8")).hexdigest()[:6]
            rule = AppendedRule(rule_id, path, at + 1, values["surface"], values["pattern"],
                                values.get("access"), approved, asked, block)  # fmt: skip
            found.append((rule, at, end))
    return found


def _string(raw: str) -> str | None:
    """A value as `_toml` writes it (a JSON string), or None."""
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, str) and raw == _toml(value) else None


def _mode(path: str) -> int:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return 0o600


def _write(path: str, text: str, *, mode: int) -> None:
    """Replace the file at `path` with `text`, whole or not at all."""
    directory = os.path.dirname(path) or "."
    handle, temporary = tempfile.mkstemp(prefix=".guard-", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        why = f"guard: cannot write {path} ({exc.strerror}); nothing was changed"
        raise GuardError(why) from None
