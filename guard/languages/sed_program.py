"""sed programs read as GNU sed reads them: which files they read (`r`, `R`) and write (`w`,
`W`, `s///w`), and whether they run shell commands (`e`, `s///e`)."""

from __future__ import annotations

# the reader -----------------------------------------------------

_SED_PLAIN = frozenset("=dDgGhHnNpPxzF{}")
_SED_NUMBER = frozenset("lLqQ")
_SED_LABEL = frozenset(":btTv")


def sed_effects(script: str) -> list[tuple[str, str]] | None:
    """What a sed program reaches: ("read" | "write", FILE), ("code", shell code) for `e CMD`,
    ("run", "") for `e` alone or `s///e`. None when the program cannot be read."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(script)
    while i < n:
        ch = script[i]
        if ch in " \t\n;":
            i += 1
            continue
        if ch == "#":
            i = _line_end(script, i)
            continue
        i = _sed_address(script, i)
        if i < n and script[i] == ",":
            i = _sed_address(script, _spaces(script, i + 1), second=True)
        i = _spaces(script, i)
        while i < n and script[i] == "!":
            i = _spaces(script, i + 1)
        if i < 0 or i >= n:
            return None
        cmd = script[i]
        i += 1
        if cmd in _SED_PLAIN:
            continue
        if cmd in _SED_NUMBER:
            i = _spaces(script, i)
            while i < n and script[i].isdigit():
                i += 1
        elif cmd in _SED_LABEL:
            while i < n and script[i] not in ";\n":
                i += 1
        elif cmd in "aic":
            i = _text_end(script, i)
        elif cmd in "rRwWe":
            end = _line_end(script, i)
            text = script[_spaces(script, i) : end]
            if cmd == "e":
                out.append(("code", text) if text.strip() else ("run", ""))
            else:
                out.append(("read" if cmd in "rR" else "write", text))
            i = end
        elif cmd in "sy":
            i = _sed_parts(script, i, 2, brackets=True)
            if i < 0:
                return None
            while cmd == "s" and i < n and script[i] in "gpiImMe0123456789":
                if script[i] == "e":
                    out.append(("run", ""))
                i += 1
            if cmd == "s" and i < n and script[i] == "w":
                end = _line_end(script, i + 1)
                out.append(("write", script[_spaces(script, i + 1) : end]))
                i = end
        else:
            return None
    return out


def _spaces(s: str, i: int) -> int:
    while 0 <= i < len(s) and s[i] in " \t":
        i += 1
    return i


def _line_end(s: str, i: int) -> int:
    end = s.find("\n", i)
    return len(s) if end < 0 else end


def _text_end(s: str, i: int) -> int:
    """The end of `a`, `i`, `c` text: lines joined by a trailing backslash."""
    while True:
        end = _line_end(s, i)
        line = s[i:end]
        if end >= len(s) or (len(line) - len(line.rstrip("\\"))) % 2 == 0:
            return end
        i = end + 1


def _sed_address(s: str, i: int, *, second: bool = False) -> int:
    r"""Past one address (`3`, `$`, `/re/I`, `\%re%`, `first~step`, and after a comma `+N`,
    `~N`); -1 when it is malformed."""
    n = len(s)
    if i < 0 or i >= n:
        return i
    if s[i].isdigit() or (second and s[i] in "+~"):
        i += 1
        while i < n and s[i].isdigit():
            i += 1
        if i < n and s[i] == "~":
            i += 1
            while i < n and s[i].isdigit():
                i += 1
        return i
    if s[i] == "$":
        return i + 1
    if s[i] in "/\\":
        if s[i] == "\\":
            i += 1
        i = _sed_parts(s, i, 1, brackets=True)
        while 0 <= i < n and s[i] in "IM":
            i += 1
    return i


def _sed_parts(s: str, i: int, parts: int, *, brackets: bool) -> int:
    """Past `DELIM part DELIM …` (`parts` parts after the opening delimiter); -1 if unclosed."""
    n = len(s)
    if i >= n or s[i] in "\n\\":
        return -1
    delim = s[i]
    i += 1
    for _ in range(parts):
        while i < n and s[i] != delim:
            if s[i] == "\\":
                i += 2
            elif s[i] == "[" and brackets and delim != "[":
                j = i + 1 + (s[i + 1 : i + 2] == "^")
                j += s[j : j + 1] == "]"
                close = s.find("]", j)
                i = close + 1 if close >= 0 else n
            else:
                i += 1
        if i >= n:
            return -1
        i += 1
    return i
