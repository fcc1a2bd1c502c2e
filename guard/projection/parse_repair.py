"""Lines bash accepts and tree-sitter-bash 0.25 does not: rewritten in place, byte for byte.

Only when the parse has errors, and only where the rewrite is what bash reads:

- `N<>FILE` (open read-write) is rewritten `N>|FILE`, a write redirect of the same length; the
  operator's offset is kept so the redirect is also taken as a read of FILE.
- a `;` tree-sitter wants between a closing reserved word or `)` and the next closer
  (`{ while …; done } | x`, `for v in */; do (…) done`): bash needs none there; the blank before
  the closer becomes `;`.

A rewrite is kept only when the line then parses without an error: otherwise the original
errors are reported, and the line asks as before.

One misreading has no error to show: tree-sitter-bash takes bash's reserved word `time` for a
command, so `time (make)` reads as a command named `time` given a subshell, and `time for …`,
`time { …; }` fall apart. Before a compound command, `time` (with `-p`, `--`) is blanked out
(`untimed`): timing changes nothing the line does.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node, Tree


class Repaired:
    __slots__ = ("read_write", "src", "tree")

    def __init__(self, src: bytes, tree: Tree, read_write: frozenset[int]) -> None:
        self.src = src
        self.tree = tree
        self.read_write = read_write  # where a `<>` operator was (its first byte)


def repair(src: bytes, tree: Tree, parse: Callable[[bytes], Tree]) -> Repaired | None:
    """A rewrite of `src` that parses cleanly and means what bash reads, or None."""
    read_write: frozenset[int] = frozenset()
    if b"<>" in src:
        src, tree, read_write = _read_write(src, tree, parse)
    if tree.root_node.has_error:
        blanks = [m.start(1) for m in _NO_SEMICOLON.finditer(src)]
        if blanks:
            candidate = _replaced(src, blanks, b";")
            real = _tokens(parse(candidate).root_node, ";") & set(blanks)
            if real:  # only blanks that became operators: none inside quotes or words
                src = _replaced(src, sorted(real), b";")
                tree = parse(src)
    if tree.root_node.has_error:
        return None
    return Repaired(src, tree, read_write)


def untimed(src: bytes, tree: Tree, parse: Callable[[bytes], Tree]) -> tuple[bytes, Tree] | None:
    """`src` with every `time` that starts a command and precedes a compound command blanked
    out, and its parse, when that parses without an error; None when there is none."""
    blanks: list[tuple[int, int]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "command" and src[node.start_byte : node.start_byte + 4] == b"time":
            found = _TIMED.match(src, node.start_byte)
            if found is not None:
                blanks.append((found.start(), found.end(1)))
        stack.extend(node.named_children)
    if not blanks:
        return None
    out = bytearray(src)
    for start, end in blanks:
        out[start:end] = b" " * (end - start)
    fixed = bytes(out)
    tree = parse(fixed)
    return None if tree.root_node.has_error else (fixed, tree)


# bash's `time [-p] [--]` before a compound command (or `!`): the part that is blanked, then
# what follows it; `(` is a metacharacter, so `time(ls)` needs no blank
_TIMED = re.compile(
    rb"(time(?:[ \t]+-p)?(?:[ \t]+--)?)(?:[ \t]+"
    rb"(?:(?:for|select|case|if|while|until)(?=[ \t\n;])|[{!](?=[ \t\n])|\(|\[\[[ \t])|(?=\())"
)


# a closing reserved word or `)`, blanks, then a closer: bash needs no `;` between them
_NO_SEMICOLON = re.compile(
    rb"(?:(?<![^\s;&|(])(?:done|fi|esac|\})|\))"  # what closes: `done`, `)` …
    rb"([ \t])[ \t]*"  # the blank that becomes `;`
    rb"(?:(?:done|fi|esac|else|elif|\})(?![^\s;&|)])|\))"  # what follows: a closer
)


def _read_write(
    src: bytes, tree: Tree, parse: Callable[[bytes], Tree]
) -> tuple[bytes, Tree, frozenset[int]]:
    found: list[int] = []
    at = src.find(b"<>")
    while at >= 0:
        found.append(at)
        at = src.find(b"<>", at + 2)
    candidate = _replaced(src, found, b">|")
    operators = _tokens(parse(candidate).root_node, ">|", parent="file_redirect") & set(found)
    if not operators:
        return src, tree, frozenset()
    # only those that are operators: a `<>` inside quotes or a word stays what it was
    fixed = _replaced(src, sorted(operators), b">|")
    return fixed, parse(fixed), frozenset(operators)


def _replaced(src: bytes, at: list[int], by: bytes) -> bytes:
    out = bytearray(src)
    for i in at:
        out[i : i + len(by)] = by
    return bytes(out)


def _tokens(root: Node, kind: str, parent: str | None = None) -> set[int]:
    """Where the parser read an operator token `kind` (optionally only under `parent`)."""
    out: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.children:
            if (
                child.type == kind
                and not child.is_named
                and not child.is_missing
                and (parent is None or node.type == parent)
            ):
                out.add(child.start_byte)
        stack.extend(node.children)
    return out
