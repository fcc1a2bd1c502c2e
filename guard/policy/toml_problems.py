"""What reading a policy file's TOML needs: where a key is (tomllib keeps no line numbers) and
how a problem is worded (quoted values, the valid choices, a value's type), shared by the
parts of the policy (guard/policy/parse.py) and its `[enforce]` table.
"""

from __future__ import annotations

import re

from guard.projection import DECISIONS, SURFACES, Decision, Surface

ABSOLUTE_HINT = "write an absolute path or one starting with ~/ (only .guard.toml may be relative)"


class TomlLines:
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


def quote(value: str) -> str:
    import json  # only for messages about mistakes

    return json.dumps(value, ensure_ascii=False)


def one_of(word: str, choices: tuple[str, ...]) -> str:
    import difflib  # only for messages about mistakes

    close = difflib.get_close_matches(word, choices, n=1)
    return ", ".join(choices) + (f' (did you mean "{close[0]}"?)' if close else "")


def type_name(value: object) -> str:
    names: dict[type, str] = {bool: "true/false", int: "a number", float: "a number"}
    names.update({str: "a string", list: "a list", dict: "a table"})
    return names.get(type(value), "a date")


def as_surface(value: str) -> Surface:
    return next(s for s in SURFACES if s == value)


def as_decision(value: str) -> Decision:
    return next(d for d in DECISIONS if d == value)
