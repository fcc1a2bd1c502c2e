"""Static word evaluation: what a shell word would be, as bash computes it, without running it.

Quote removal, backslash escapes, `$'…'`, tilde, parameters known from the scope, `${x:-…}`,
brace expansion and field splitting. Globs are kept as patterns (``Value.glob``). Anything that
depends on running something (`$( )`, arithmetic, unset variables, `$1` unknown) makes the word
unknown, with the reason. Command substitutions met on the way are handed back for the walker.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from guard.projection.budget import WORD_STEPS
from guard.projection.shell_state import Scope
from guard.projection.word_fields import Part, Value, assemble

MAX_DEPTH = 64
SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})
_SPECIAL_IN_WORD = re.compile(r"[\\{~*?\[]")
_HIDDEN_CODE = re.compile(r"`|\$\[|[<>]\(|\$\(")
_PLAIN_WORDS: dict[str, Value] = {}  # values are immutable: the same word is the same value
_SPECIAL_BYTES = re.compile(rb"[\\{~*?\[\x80-\xff`$<>(]")
_PLAIN_TEXT: dict[bytes, str] = {}


def plain_word(raw: bytes) -> str | None:
    """The value of a `word` node's source when it is just itself (no escapes, braces, tilde,
    glob or non-ASCII); None otherwise. Cached: most lines repeat the same few words."""
    text = _PLAIN_TEXT.get(raw)
    if text is None and not _SPECIAL_BYTES.search(raw):
        if len(_PLAIN_TEXT) > 4096:
            _PLAIN_TEXT.clear()
        text = _PLAIN_TEXT[raw] = raw.decode("ascii")
    return text


_SPECIAL_QUOTED = re.compile(rb'[\\$`"\x80-\xff]')


# Expansions inside double quotes: tree-sitter-bash reads the blanks before one as part of it
# (`"$a $b"` has the expansion ` $b`, `" $(id)"` the substitution ` $(id)`), and the blanks
# before the closing quote as part of that quote. bash keeps them: they are the word's text.
_EXPANSIONS = frozenset(
    {"simple_expansion", "expansion", "command_substitution", "process_substitution",
     "arithmetic_expansion"}
)


def own_start(src: bytes, node: Node) -> int:
    """Where `node` starts in bash's reading: an expansion's `$` (or backquote), after the
    blanks tree-sitter-bash gave it (see _EXPANSIONS)."""
    start = node.start_byte
    if node.type in _EXPANSIONS:
        end = node.end_byte
        while start < end and src[start] in b" \t\n":
            start += 1
    return start


def quoted_literal(kind: str, raw: bytes) -> str | None:
    """The value of a quoted word that is only its text: `'…'` (nothing is special inside),
    or `"…"` holding no `$`, backquote, backslash or non-ASCII byte, where bash only removes
    the quotes (one field, no glob, no splitting). None for anything else: the evaluator reads
    it. What `Evaluator.value` gives those words, without making one."""
    if len(raw) < 2:
        return None
    if kind == "raw_string":
        return raw[1:-1].decode("utf-8", "replace") if raw[:1] == raw[-1:] == b"'" else None
    if kind != "string" or raw[:1] != b'"' or raw[-1:] != b'"':
        return None
    inner = raw[1:-1]
    return None if _SPECIAL_QUOTED.search(inner) else inner.decode("ascii")


PROCESS_SUBSTITUTION_VALUE = "/dev/fd/63"


class Evaluator:
    """Evaluates word nodes of one source text against a scope; collects substitutions."""

    def __init__(self, src: bytes, scope: Scope, workspace: tuple[str, ...] = ()) -> None:
        self.src = src
        self.scope = scope
        self.workspace = workspace  # the roots `$(git rev-parse --show-toplevel)` may name
        self.substitutions: list[Node] = []
        # code in word text tree-sitter did not parse (backticks inside ${…}), with its span
        self.hidden_code: list[tuple[str, tuple[int, int]]] = []
        # variables `${x:=word}` assigns while the word is expanded: (name, value or None)
        self.assigned: list[tuple[str, str | None]] = []

    def value(self, node: Node, *, assignment: bool = False) -> Value:
        """The value of a word; `assignment` for the value of `NAME=value` (tilde after `:`)."""
        if assignment:
            return assemble(self._parts(node, 0, quoted=False), self.scope, assignment=True)
        kind = node.type
        if kind == "word" or kind == "number":
            text = self.text(node)
            plain = _PLAIN_WORDS.get(text)
            if plain is not None:
                return plain
            if not _SPECIAL_IN_WORD.search(text):  # the common case: a plain word is itself
                if len(_PLAIN_WORDS) > 4096:
                    _PLAIN_WORDS.clear()
                plain = _PLAIN_WORDS[text] = Value(((text,),))
                return plain
        elif kind == "raw_string":
            return Value(((self.text(node)[1:-1],),))
        self.scope.budget.spend(WORD_STEPS, "evaluating words")
        parts = self._parts(node, 0, quoted=False)
        return assemble(parts, self.scope)

    def text(self, node: Node) -> str:
        """The node's text as bash reads it (an expansion from its `$`: own_start)."""
        return self.src[own_start(self.src, node) : node.end_byte].decode("utf-8", "replace")

    # -- parts ------------------------------------------------------------------------------
    def _parts(self, node: Node, depth: int, *, quoted: bool) -> list[Part]:
        if depth > MAX_DEPTH:
            self._collect(node)
            return [Part(None, "q", "the word is nested too deeply to evaluate")]
        kind = node.type
        handler = _HANDLERS.get(kind)
        if handler is None:
            self._collect(node)
            return [Part(None, "q", f"{self.text(node)!s} cannot be evaluated before it runs")]
        return handler(self, node, depth, quoted)

    def _children_parts(self, node: Node, depth: int, *, quoted: bool) -> list[Part]:
        """Parts of a node whose children are pieces; text between children is literal."""
        out: list[Part] = []
        pos = node.start_byte
        end = node.end_byte
        children = node.children
        if quoted and children and children[0].type == '"':
            pos = children[0].end_byte
            if children[-1].type == '"':  # the closing quote, with the blanks before it
                end = children[-1].end_byte - 1
            children = [c for c in children if c.type != '"']
        for index, child in enumerate(children):
            if (not quoted and child.type == "simple_expansion" and index + 1 < len(children)
                    and self.src[child.end_byte : child.end_byte + 1] == b"{"):
                # brace expansion comes first: `$b{c,x}` is `$bc $bx`, other variables
                self._collect(node)
                return [Part(None, "e", f"{self.text(node)} names variables by brace expansion")]
            start = own_start(self.src, child)  # the blanks before an expansion are text
            if start > pos:
                out.extend(_gap(self.src[pos:start].decode(), quoted))
            if child.type == "string_content":
                out.extend(_string_content(self, child, depth, True))
            else:
                out.extend(self._parts(child, depth + 1, quoted=quoted))
            pos = child.end_byte
        if end > pos:
            out.extend(_gap(self.src[pos:end].decode(), quoted))
        return out

    def _collect(self, node: Node) -> None:
        """Hand every substitution below `node` to the walker: it runs whatever its value."""
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in SUBSTITUTIONS:
                self.substitutions.append(n)
                continue
            stack.extend(reversed(n.children))

    def _var(self, name: str, depth: int, quoted: bool) -> list[Part]:
        kind = "q" if quoted else "e"
        if name in ("@", "*"):
            pos = self.scope.positional
            if pos is None:
                return [Part(None, kind, f"${name} (the positional parameters) is not known")]
            if name == "@" and quoted:
                return [Part(("\0".join(pos),), kind)] if pos else []
            return [Part((" ".join(pos),), kind)]
        if name.isdigit():
            return self._positional(int(name), kind)
        if name == "#" and self.scope.positional is not None:
            return [Part((str(len(self.scope.positional)),), kind)]
        if not name or not (name[0].isalpha() or name[0] == "_"):
            return [Part(None, kind, f"${name} is only known while the line runs")]
        var = self.scope.lookup(name)
        return [Part(var.options, kind, var.reason)]

    def _positional(self, n: int, kind: str) -> list[Part]:
        if n == 0:
            arg0 = self.scope.arg0
            return [Part(None if arg0 is None else (arg0,), kind, "$0 is not known")]
        pos = self.scope.positional
        if pos is None:
            return [Part(None, kind, f"${n} is a positional parameter, not known here")]
        return [Part((pos[n - 1] if n <= len(pos) else "",), kind)]


def _gap(text: str, quoted: bool) -> list[Part]:
    if quoted:
        return _literal(_DQ_ESCAPE.sub(_dq_unescape, text), True)
    return _literal(text, False)


def _dq_unescape(m: re.Match[str]) -> str:
    return "" if m.group(1) == "\n" else m.group(1)


def _literal(text: str, quoted: bool) -> list[Part]:
    return [Part((text,), "q" if quoted else "c")] if text else []


def _word(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    text = ev.text(node)
    if _HIDDEN_CODE.search(text):
        # tree-sitter leaves `…`, <(…) and $[…] inside ${…} words unparsed: they still run
        ev.hidden_code.append((text, (node.start_byte, node.end_byte)))
        return [Part(None, "q", f"{text} runs code guard reads apart")]
    if "\\" not in text:
        return _literal(text, quoted)
    out: list[Part] = []
    buf: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            if buf:
                out.extend(_literal("".join(buf), quoted))
                buf = []
            if text[i + 1] != "\n":
                out.append(Part((text[i + 1],), "q"))
            i += 2
            continue
        buf.append(ch)
        i += 1
    if buf:
        out.extend(_literal("".join(buf), quoted))
    return out


_DQ_ESCAPE = re.compile(r"\\([$`\"\\\n])")


def _string_content(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    return _literal(_DQ_ESCAPE.sub(_dq_unescape, ev.text(node)), True)


def _string(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    return [
        p if p.kind == "q" else Part(p.options, "q", p.reason)
        for p in ev._children_parts(node, depth, quoted=True)
    ]


def _raw_string(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    text = ev.text(node)
    return [Part((text[1:-1],), "q")]


def _ansi_c(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    from guard.projection.ansi_c import decode_ansi_c

    return [Part((decode_ansi_c(ev.text(node)[2:-1]),), "q")]


def _concatenation(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    return ev._children_parts(node, depth, quoted=quoted)


def _simple_expansion(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    name = ev.text(node)[1:]
    if name[:1].isspace():  # tree-sitter reads `"a$ b"` as `$` and a name ` b`: bash does not
        return _literal(_DQ_ESCAPE.sub(_dq_unescape, "$" + name) if quoted else "$" + name, quoted)
    return ev._var(name, depth, quoted)


_BRACED = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])\}$")
_DEFAULTED = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*)(:?)([-=+?])")


def _expansion(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    text = ev.text(node)
    kind = "q" if quoted else "e"
    simple = _BRACED.match(text)
    if simple:
        return ev._var(simple.group(1), depth, quoted)
    defaulted = _DEFAULTED.match(text)
    if defaulted and text.endswith("}"):
        name, colon, op = defaulted.groups()
        var = ev.scope.lookup(name)
        word_nodes = [c for c in node.children if c.is_named and c.type != "variable_name"]
        # Only a variable the line itself unset is surely unset: one missing from the
        # environment may be a shell variable (BASH, or set by an earlier line).
        unset_here = name in ev.scope.vars and ev.scope.vars[name].options is None and (
            ev.scope.vars[name].reason.endswith("is not set")
        )
        if unset_here or var.options is not None:
            is_set = var.options is not None and (not colon or all(var.options))
            if op in "-=":
                if is_set:
                    return [Part(var.options, kind)]
                parts = _alternate_word(ev, word_nodes, depth, quoted)
                if op == "=":  # ${x:=word} assigns word to x
                    ev.assigned.append((name, _joined(parts)))
                return parts
            if op == "+":
                return _alternate_word(ev, word_nodes, depth, quoted) if is_set else []
        _alternate_word(ev, word_nodes, depth, quoted)  # what runs in the word still runs
        if op == "=":
            ev.assigned.append((name, None))
        reason = var.reason if var.options is None else ""
        return [Part(None, kind, f"{text} depends on ${name}, which may be set: {reason}")]
    if "@P" in text or "@A" in text:  # prompt expansion runs the $( ) in the value
        ev.hidden_code.append((text, (node.start_byte, node.end_byte)))
    ev._collect(node)
    return [Part(None, kind, f"{text} is only known while the line runs")]


def _joined(parts: list[Part]) -> str | None:
    if any(p.options is None or len(p.options) != 1 for p in parts):
        return None
    return "".join((p.options or ("",))[0] for p in parts)


def _alternate_word(ev: Evaluator, nodes: list[Node], depth: int, quoted: bool) -> list[Part]:
    out: list[Part] = []
    for n in nodes:
        out.extend(ev._parts(n, depth + 1, quoted=quoted))
    return out


def _command_substitution(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    ev.substitutions.append(node)
    from guard.projection.produced_values import produced_value

    known = produced_value(ev.src, node, ev.scope.cwd, ev.workspace)
    if known is not None:  # `$(pwd)`, `$(uname -m)`: a known producer's kind of value
        return [Part((known,), "q" if quoted else "e")]
    return [
        Part(
            None,
            "q" if quoted else "e",
            f"the output of {_short(ev.text(node))} is not known before it runs",
        )
    ]


def _process_substitution(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    ev.substitutions.append(node)
    return [Part((PROCESS_SUBSTITUTION_VALUE,), "q")]


def _arithmetic(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    ev._collect(node)
    return [
        Part(
            None,
            "q" if quoted else "e",
            f"arithmetic {_short(ev.text(node))} is computed while the line runs",
        )
    ]


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _dollar(ev: Evaluator, node: Node, depth: int, quoted: bool) -> list[Part]:
    """A `$` the parser left alone: bash leaves it literal before a space, a quote that closes
    the string, the end of the word or any other character that starts no expansion."""
    after = ev.src[node.end_byte : node.end_byte + 1].decode("latin-1")
    if after == '"' and not quoted:
        return []  # `$"text"`: a translated string, which is the text the string gives
    starts = _EXPANSION_START if not quoted else _EXPANSION_START_QUOTED
    if after and (after.isalnum() or after in starts):
        return [Part(None, "q", f"{ev.text(node)} cannot be evaluated before it runs")]
    return _literal("$", quoted)


_EXPANSION_START_QUOTED = "_{([@*#?-$!"
_EXPANSION_START = _EXPANSION_START_QUOTED + "'"


_HANDLERS = {
    "$": _dollar,
    "word": _word,
    "number": _word,
    "extglob_pattern": _word,
    "variable_name": _word,
    "brace_expression": lambda ev, n, d, q: _literal(ev.text(n), q),
    "string": _string,
    "translated_string": lambda ev, n, d, q: (
        _string(ev, n.children[-1], d, q) if n.children else []
    ),
    "string_content": _string_content,
    "raw_string": _raw_string,
    "ansi_c_string": _ansi_c,
    "concatenation": _concatenation,
    "simple_expansion": _simple_expansion,
    "expansion": _expansion,
    "command_substitution": _command_substitution,
    "process_substitution": _process_substitution,
    "arithmetic_expansion": _arithmetic,
}


