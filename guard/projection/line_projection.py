"""From command text to projection: parse, check limits, walk.

`project(command, ctx)` is the pure entry point every front end uses.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from tree_sitter import Language, Node, Parser, Tree

from guard.projection import compound_commands, invocation, redirects
from guard.projection.bash_quoting import OPENERS, substitution_sites
from guard.projection.budget import (
    PARSE_BYTES_PER_STEP,
    Budget,
    OverBudget,
    metered_expand,
    metered_resolve,
)
from guard.projection.effects import command_effects
from guard.projection.requests import Projection, Request
from guard.projection.shell_state import Context, Scope, with_windows
from guard.projection.variables import assigned, set_variable
from guard.projection.walk_records import FunctionEffects, Stdin
from guard.projection.walker import Calls, Walker
from guard.projection.words import own_start

MAX_INPUT_BYTES = 64 * 1024
# tree-sitter-bash 0.25 crashes the process, now and then, on `{` followed by a character at or
# above about U+80000 (found by fuzzing; `{` + U+10FFFF is enough). Nothing a shell user types
# lives up there except invisible tag characters and private use, so such lines are not parsed.
_UNPARSABLE = re.compile("[\U00040000-\U0010ffff]")
INTERNAL_ERROR = "guard could not check this line (an internal error; please report it)"


@lru_cache(maxsize=1)
def _language() -> Language:
    return Language(_bash_language())


def _bash_language() -> object:
    """tree-sitter-bash's language pointer. Its package `__init__` imports importlib.resources
    (6 ms on every check) for queries guard never uses, so the compiled binding is loaded on its
    own when it can be found; otherwise the package is imported as usual."""
    try:
        import importlib.machinery
        import importlib.util

        spec = importlib.util.find_spec("tree_sitter_bash")
        folders = list(spec.submodule_search_locations or []) if spec else []
        if not folders:
            raise ImportError("tree_sitter_bash has no folder")
        folder = folders[0]
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_binding" + suffix)
            if os.path.exists(path):
                loader = importlib.machinery.ExtensionFileLoader("tree_sitter_bash._binding", path)
                binding_spec = importlib.util.spec_from_loader(loader.name, loader)
                if binding_spec is None:
                    break
                module = importlib.util.module_from_spec(binding_spec)
                loader.exec_module(module)
                return module.language()
    except (ImportError, OSError, AttributeError):
        pass
    import tree_sitter_bash

    return tree_sitter_bash.language()


def parser() -> Parser:
    """A new parser for each parse (it costs 0.3 µs): no state carries from line to line."""
    return Parser(_language())


def terminated(src: bytes) -> bytes:
    """`src` as bash reads a line: ended by a newline, which ends its last command as the end of
    input does (the same tree), and spares tree-sitter-bash a slow end: a pipeline of three or
    more commands at the very end takes it ten times as long (50 µs, not 5). A line ending in a
    backslash is left as it is: there a newline would join the next line to it."""
    return src if src[-1:] == b"\\" else src + b"\n"


def project(command: str, ctx: Context) -> Projection:
    """What `command` would do if run in `ctx`, as requests in source order."""
    out: list[Request] = []
    data = command.encode("utf-8", "surrogateescape")
    if len(data) > MAX_INPUT_BYTES:
        out.append(
            Request(
                "syntax",
                (0, len(data)),
                f"the line is longer than "
                f"{MAX_INPUT_BYTES // 1024} KiB; guard does not check lines that long",
                text=command[:80],
            )
        )
    elif "\0" in command:
        out.append(
            Request(
                "syntax",
                (0, len(data)),
                "the line contains a NUL byte",
                text=command[:80].replace("\0", "\\0"),
            )
        )
    else:
        budget = Budget()  # one for the line and everything it causes
        walked = with_windows(
            ctx, metered_resolve(ctx.resolve, budget), metered_expand(ctx.expand, budget)
        )
        try:
            stdin = None if not ctx.stdin_code else Stdin("pipe")
            scope = Scope.start(walked, budget)
            walk_source(
                command, walked, scope, out, nesting=0, span=None, functions={}, stdin=stdin
            )
        except OverBudget as exc:  # what was found so far stands; the line asks
            out.append(
                Request("syntax", (0, len(data)), budget.reason(exc.what), text=command[:80])
            )
        except Exception as exc:  # any bug in guard, or a path it cannot read: never an allow
            out.append(
                Request(
                    "syntax",
                    (0, len(data)),
                    f"{INTERNAL_ERROR}: {type(exc).__name__}: {exc}",
                    text=command[:80],
                )
            )
    if len(out) > 1:
        out.sort(key=_span)
        out = _dedupe(out)
    return Projection(command, ctx.cwd, ctx.workspace, tuple(out))


def walk_source(
    text: str,
    ctx: Context,
    scope: Scope,
    out: list[Request],
    *,
    nesting: int,
    span: tuple[int, int] | None,
    functions: dict[str, FunctionEffects],
    stdin: Stdin | None = None,
) -> None:
    """Parse `text` and walk it into `out`; used for the line and for code strings inside it."""
    if not text.isascii() and _UNPARSABLE.search(text):
        out.append(
            Request(
                "syntax",
                span or (0, len(text.encode("utf-8", "surrogateescape"))),
                "the line holds characters above U+3FFFF (invisible tags or private "
                "use), which guard does not parse: tree-sitter-bash crashes on some",
                text=text[:80],
                role=None,
            )
        )
        return
    src = text.encode("utf-8", "surrogateescape")
    scope.budget.spend(1 + len(src) // PARSE_BYTES_PER_STEP, "parsing code")
    tree = parser().parse(terminated(src))
    read_write: frozenset[int] = frozenset()
    root = tree.root_node
    if b"time" in src or root.has_error:
        src, tree, read_write = _repaired(src, tree, scope)
        root = tree.root_node
    walker = Walker(src, ctx, scope, out, CALLS, nesting=nesting, span=span, functions=functions)
    walker.read_write = read_write
    if root.has_error:
        for bad in _errors(root):
            what = "missing " + bad.type if bad.is_missing else "cannot parse"
            text_at = walker.text(bad) or text[bad.start_byte : bad.start_byte + 20]
            walker.syntax(bad, f"syntax error: {what} near {text_at[:40]!r}")
    walker.run(root, stdin)
    if "`" in text or "(" in text:  # where a substitution could start at all
        _unseen_substitutions(text, src, root, walker, span)


def _repaired(src: bytes, tree: Tree, scope: Scope) -> tuple[bytes, Tree, frozenset[int]]:
    """The line as bash reads it where tree-sitter-bash does not: `time` (bash's reserved
    word, which tree-sitter-bash reads as a command), or a line it cannot parse that bash
    accepts (guard/projection/parse_repair.py); the bytes `<>` opens for reading and writing."""
    from guard.projection.parse_repair import repair, untimed

    def reparse(text: bytes) -> Tree:  # each attempt costs what a parse costs
        scope.budget.spend(1 + len(text) // PARSE_BYTES_PER_STEP, "parsing code")
        return parser().parse(terminated(text))

    read_write: frozenset[int] = frozenset()
    if b"time" in src:
        timed = untimed(src, tree, reparse)
        if timed is not None:
            src, tree = timed
    if tree.root_node.has_error:
        fixed = repair(src, tree, reparse)
        if fixed is not None:
            src, tree, read_write = fixed.src, fixed.tree, fixed.read_write
    return src, tree, read_write


# What the walk asks of the handlers built on it (guard/projection/walker.py): assembled here,
# above them all, so that none of them imports the walk back.
CALLS = Calls(
    nodes={**compound_commands.NODES, **redirects.NODES, **invocation.NODES},
    run_argv=invocation.run_argv,
    walk_source=walk_source,
    set_variable=set_variable,
    assigned=assigned,
    command_effects=command_effects,
)

_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution", "arithmetic_expansion"})


def _unseen_substitutions(
    text: str, src: bytes, root: Node, walker: Walker, span: tuple[int, int] | None
) -> None:
    """Where bash would run a substitution the parser did not see (`echo 1#$(id)`,
    `"${x:-'$(id)'}"`), bash wins: the line asks."""
    if text.isascii() and all(m.start() in walker.ran for m in OPENERS.finditer(text)):
        return  # every place a substitution could start was walked (and most lines have none)
    for site in substitution_sites(text):
        at = site if text.isascii() else len(text[:site].encode("utf-8", "surrogateescape"))
        if at in walker.ran or any(a <= at < b for a, b in walker.covered):
            continue
        node: Node | None = root.descendant_for_byte_range(at, at + 1)
        while node is not None and not (node.type in _SUBSTITUTIONS and own_start(src, node) == at):
            node = node.parent
        if node is None or node.type != "arithmetic_expansion":  # arithmetic runs nothing itself
            where = span or (at, min(at + 2, len(src)))
            walker.out.append(
                Request(
                    "dynamic",
                    where,
                    "the parser and bash may read this differently: bash runs a "
                    "substitution here that guard did not see",
                    text=text[site : site + 40],
                    role="code",
                )
            )
            return


def _errors(root: Node) -> list[Node]:
    found: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            found.append(node)
            continue
        if node.has_error:
            stack.extend(node.children)
    return found or [root]


def _span(request: Request) -> tuple[int, int]:
    return request.span


def _dedupe(requests: list[Request]) -> list[Request]:
    seen: set[Request] = set()
    out: list[Request] = []
    for r in requests:
        if r not in seen:
            seen.add(r)
            out.append(r)
    return out
