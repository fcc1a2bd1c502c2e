"""What a shell tells its checker about itself, read as bash wrote it: the history entry of the
line (`history 1`) and the exported variables (`export -p`, with bash's `$'…'` quoting)."""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Mapping

_HISTORY = re.compile(r"\s*(\d+)[* ] (.*)", re.DOTALL)


_DECLARE = re.compile(
    r"(?:declare|typeset) -[A-Za-z-]+ ([A-Za-z_]\w*)|export ([A-Za-z_]\w*)", re.ASCII
)


_SPACE = re.compile(r"\s")


_SIMPLE = {"a": 7, "b": 8, "e": 27, "E": 27, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11}


def history_entry(text: str) -> tuple[int, str] | None:
    """The number and text of an entry as bash's `history 1` prints it (no HISTTIMEFORMAT)."""
    found = _HISTORY.fullmatch(text)
    if found is None:
        return None
    line = found.group(2)
    return int(found.group(1)), line[:-1] if line.endswith("\n") else line


@functools.lru_cache(maxsize=4)
def exported(text: str) -> Mapping[str, str]:
    """`exported_variables`, parsed once for the same text: a shell's exports rarely change
    between two lines, and parsing them was a third of the checker's time for a line."""
    return types.MappingProxyType(exported_variables(text))


def exported_variables(text: str) -> dict[str, str]:
    """The variables in bash's `export -p` output (`declare -x NAME="VALUE"`, `$'…'` values,
    `export NAME=…` in POSIX mode); names exported without a value are left out."""
    env: dict[str, str] = {}
    at = 0
    while at < len(text):
        found = _DECLARE.match(text, at)
        if found is None:
            at = _line_end(text, at)
            continue
        at = found.end()
        if text.startswith("=", at):
            value, at = _quoted(text, at + 1)
            env[found.group(1) or found.group(2)] = value
        at = _line_end(text, at)
    return env


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end + 1


def _quoted(text: str, at: int) -> tuple[str, int]:
    """A value as `declare -p` writes it, starting at `at`; the value and where it ended."""
    out = bytearray()
    if text.startswith("$'", at):
        i = at + 2
        while i < len(text) and text[i] != "'":
            i = _ansi_c(text, i, out)
        return out.decode("utf-8", "surrogateescape"), i + 1
    if text.startswith('"', at):
        i = at + 1
        while i < len(text) and text[i] != '"':
            if text[i] == "\\" and text[i + 1 : i + 2] in ('"', "\\", "$", "`"):
                i += 1
            out += text[i].encode("utf-8", "surrogateescape")
            i += 1
        return out.decode("utf-8", "surrogateescape"), i + 1
    if text.startswith("'", at):
        end = text.find("'", at + 1)
        end = len(text) if end < 0 else end
        return text[at + 1 : end], end + 1
    end = len(text) if (found := _SPACE.search(text, at)) is None else found.start()
    return text[at:end], end


def _ansi_c(text: str, i: int, out: bytearray) -> int:
    """Decode one character or escape of a `$'…'` body at `i` into `out`; the next index."""
    if text[i] != "\\" or i + 1 >= len(text):
        out += text[i].encode("utf-8", "surrogateescape")
        return i + 1
    escape = text[i + 1]
    if escape in _SIMPLE:
        out.append(_SIMPLE[escape])
        return i + 2
    if escape in "01234567":
        digits = re.match(r"[0-7]{1,3}", text[i + 1 : i + 4])
        assert digits is not None
        out.append(int(digits.group(), 8) & 0xFF)
        return i + 1 + len(digits.group())
    if escape == "x" and (digits := re.match(r"[0-9a-fA-F]{1,2}", text[i + 2 : i + 4])):
        out.append(int(digits.group(), 16))
        return i + 2 + len(digits.group())
    out += escape.encode("utf-8", "surrogateescape")  # \\ \' \" \? and anything unknown
    return i + 2
