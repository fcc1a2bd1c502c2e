"""Where bash itself would run code in a line: a small lexer that follows bash's quoting rules,
independent of tree-sitter-bash, so that where the two disagree bash wins.

`substitution_sites(text)` gives the offsets (in characters) of every `$(`, backtick, `<(`,
`>(` and `$((` bash would expand: unquoted, in double quotes, in `${…}` (where, inside double
quotes, single quotes do not quote: `"${x:-'$(id)'}"` runs id), in arithmetic, and in the
bodies of heredocs with an unquoted delimiter (where quotes are only characters). It errs on
the side of finding too many: a site the parser did not see makes the line ask.
"""

from __future__ import annotations

import re

OPENERS = re.compile(r"\$\(|`|[<>]\(")  # every site starts with one of these
_WORD_START = frozenset(" \t\n;|&()<>")
_HEREDOC = re.compile(r"<<(-?)[ \t]*((?:[^\s;|&<>()]|\\.)+)")


def substitution_sites(text: str) -> list[int]:
    """Offsets of the substitutions bash would run, in source order."""
    if not OPENERS.search(text):
        return []
    sites: list[int] = []
    _Scan(text, sites).run()
    return sorted(set(sites))


class _Scan:
    """One pass over the text with a stack of contexts: "top", "cmd" (inside `$(`, `<(`),
    "bt" (backticks), "dq" (double quotes), "param" / "param-dq" (`${…}` outside / inside
    double quotes), "arith" (`$((…))`). Each frame keeps its open-parenthesis count."""

    def __init__(self, text: str, sites: list[int], offset: int = 0) -> None:
        self.text = text
        self.sites = sites
        self.offset = offset  # where `text` starts in the line (a heredoc body's line)
        self.stack: list[list[object]] = [["top", 0]]
        self.heredocs: list[tuple[str, bool, bool]] = []  # (delimiter, strip tabs, quoted)

    def run(self) -> None:
        text, n = self.text, len(self.text)
        i = 0
        while i < n:
            i = self.step(i, text, n)

    def step(self, i: int, text: str, n: int) -> int:
        frame = self.stack[-1]
        kind = frame[0]
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "\\":
            return i + 2
        if kind == "dq":
            if c == '"':
                self.stack.pop()
                return i + 1
            return self.dollar(i, text, nxt, inside_dq=True)
        if kind in ("param", "param-dq"):
            if c == "}":
                self.stack.pop()
                return i + 1
            if c == "'" and kind == "param":
                return _after(text, "'", i + 1)
            if c in "<>" and nxt == "(" and kind == "param":  # ${x:-<(cmd)}
                self.sites.append(self.offset + i)
                self.stack.append(["cmd", 0])
                return i + 2
            if c == '"':
                self.stack.append(["dq", 0])
                return i + 1
            return self.dollar(i, text, nxt, inside_dq=kind == "param-dq")
        if kind == "arith":
            if c == "(":
                frame[1] = int(str(frame[1])) + 1
            elif c == ")":
                if frame[1] == 0:
                    self.stack.pop()
                    return i + 2
                frame[1] = int(str(frame[1])) - 1
            elif c == '"':
                self.stack.append(["dq", 0])
                return i + 1
            return self.dollar(i, text, nxt, inside_dq=True)
        # top, cmd, bt: bash's ordinary rules
        if c == "'":
            return _after(text, "'", i + 1)
        if c == '"':
            self.stack.append(["dq", 0])
            return i + 1
        if c == "#" and _starts_word(text, i):
            end = text.find("\n", i)
            return n if end < 0 else end
        if c == "\n" and self.heredocs:
            return self.bodies(i + 1)
        if c == "<" and text.startswith("<<", i) and not text.startswith("<<<", i):
            match = _HEREDOC.match(text, i)
            if match:
                word = match.group(2)
                quoted = any(q in word for q in "'\"\\")
                delimiter = re.sub(r"\\(.)", r"\1", word).replace("'", "").replace('"', "")
                self.heredocs.append((delimiter, bool(match.group(1)), quoted))
                return match.end()
            return i + 2
        if c == "<" and text.startswith("<<<", i):
            return i + 3
        if c in "<>" and nxt == "(":
            self.sites.append(self.offset + i)
            self.stack.append(["cmd", 0])
            return i + 2
        if kind == "cmd":
            if c == "(":
                frame[1] = int(str(frame[1])) + 1
            elif c == ")":
                if frame[1] == 0:
                    self.stack.pop()
                    return i + 1
                frame[1] = int(str(frame[1])) - 1
        if c == "`" and kind == "bt":
            self.stack.pop()
            return i + 1
        if c == "$" and nxt == "'":
            return _after_ansi(text, i + 2)
        return self.dollar(i, text, nxt, inside_dq=False)

    def dollar(self, i: int, text: str, nxt: str, *, inside_dq: bool) -> int:
        """`$(`, `$((`, `${`, backticks: where expansions start, in any context."""
        c = text[i]
        if c == "`":
            self.sites.append(self.offset + i)
            self.stack.append(["bt", 0])
            return i + 1
        if c != "$":
            return i + 1
        if nxt == "(":
            self.sites.append(self.offset + i)
            if text.startswith("((", i + 1):
                self.stack.append(["arith", 0])
                return i + 3
            self.stack.append(["cmd", 0])
            return i + 2
        if nxt == "{":
            self.stack.append(["param-dq" if inside_dq else "param", 0])
            return i + 2
        return i + 1

    def bodies(self, i: int) -> int:
        """The heredoc bodies that start after a newline, one after another. In a body whose
        delimiter is unquoted, a line that ends in an unescaped backslash goes on on the next
        line, and bash compares the joined line with the delimiter (`\\` then `EOF` is no end)."""
        text, n = self.text, len(self.text)
        pending, self.heredocs = self.heredocs, []
        for delimiter, strip, quoted in pending:
            while i < n:
                pieces, end = _logical_line(text, i, joined=not quoted)
                line = "".join(piece for _, piece in pieces)
                if (line.lstrip("\t") if strip else line) == delimiter:
                    i = end + 1
                    break
                if not quoted:
                    self.body_pieces(pieces)
                i = end + 1
        return i

    def body_pieces(self, pieces: list[tuple[int, str]]) -> None:
        """One logical line of an unquoted heredoc body, from the physical lines it joins
        (each with where it starts): its sites are given where they are in the text."""
        if len(pieces) == 1:
            self.body_line(pieces[0][0], pieces[0][1])
            return
        joined = "".join(piece for _, piece in pieces)
        found: list[int] = []
        self.body_line(0, joined, found)
        for site in found:
            at = site
            for start, piece in pieces:
                if at < len(piece):
                    self.sites.append(self.offset + start + at)
                    break
                at -= len(piece)

    def body_line(self, start: int, line: str, sites: list[int] | None = None) -> None:
        """One line of an unquoted heredoc body: quotes are characters; `\\` escapes only
        `$`, backtick and itself; `$(`, `$((`, `${` and backticks expand."""
        into = self.sites if sites is None else sites
        inner = _Scan(line, into, (self.offset if sites is None else 0) + start)
        inner.stack = [["dq", 0]]
        j = 0
        while j < len(line):
            if line[j] == '"' and len(inner.stack) == 1:
                j += 1  # a double quote in the body is a character
                continue
            j = inner.step(j, line, len(line))
            if not inner.stack:
                inner.stack = [["dq", 0]]


def _starts_word(text: str, i: int) -> bool:
    """Whether the character at `i` starts a word: after a blank or an operator that is not
    escaped (`\\ #` is one word, `\\` then a newline joins the lines), or at the start."""
    if i == 0:
        return True
    if text[i - 1] not in _WORD_START:
        return False
    j = i - 2
    while j >= 0 and text[j] == "\\":
        j -= 1
    return (i - 2 - j) % 2 == 0  # an even count of backslashes before it: not escaped


def _logical_line(text: str, i: int, *, joined: bool) -> tuple[list[tuple[int, str]], int]:
    """The line that starts at `i`, and where it ends (its newline, or the text's end); with
    `joined`, physical lines that end in an odd number of backslashes are joined to the next,
    each piece with where it starts (without its backslash and newline)."""
    n = len(text)
    pieces: list[tuple[int, str]] = []
    while True:
        end = text.find("\n", i)
        end = n if end < 0 else end
        piece = text[i:end]
        trailing = len(piece) - len(piece.rstrip("\\"))
        if joined and end < n and trailing % 2 == 1:
            pieces.append((i, piece[:-1]))
            i = end + 1
            continue
        pieces.append((i, piece))
        return pieces, end


def _after(text: str, quote: str, i: int) -> int:
    end = text.find(quote, i)
    return len(text) if end < 0 else end + 1


def _after_ansi(text: str, i: int) -> int:
    """The end of `$'…'`, where `\\'` does not end it."""
    n = len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "'":
            return i + 1
        i += 1
    return n
