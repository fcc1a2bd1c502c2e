"""What a `$( )` of a known producer prints, as a value rather than an unknown.

`$(pwd)` is the tracked directory; `$(git rev-parse --show-toplevel)` the workspace root the
directory is in; a producer of names or numbers (guard/knowledge/producers.py: `id -u`, `uname -m`,
`date +%F`, `whoami`, `hostname`, `nproc`) prints one plain name with no `/`, which stands as
`$(NAME)` in the value: `mkdir -p build-$(uname -m)` makes `build-$(uname)` in the directory,
`ps -u $(id -u)` is given a number, `tar -cf backup-$(date +%F).tar src` writes in the
directory. Anything else (an option that prints other things, a format that spells a `/`, a
command with expansions in it) is None: unknown, as before.
"""

from __future__ import annotations

from tree_sitter import Node

from guard.projection import paths

_PWD_OPTIONS = frozenset({"-L", "-P"})


def produced_value(
    src: bytes, node: Node, cwd: str | None, workspace: tuple[str, ...]
) -> str | None:
    """The value `node` (a command_substitution) stands for, or None when it is not known."""
    if node.named_child_count != 1:
        return None
    argv = _literal_argv(src, node.named_children[0])
    if not argv:
        return None
    name = argv[0]
    if name == "pwd" and all(a in _PWD_OPTIONS for a in argv[1:]):
        return cwd
    if argv == ["git", "rev-parse", "--show-toplevel"]:
        if cwd is None:
            return None
        return next((r for r in workspace if paths.inside_any(cwd, (r,))), None)
    from guard.knowledge import PRODUCERS
    from guard.languages import printed_roots

    rows = PRODUCERS.get(name)
    if not rows or all(r.prints == "paths" for r in rows):
        return None
    if printed_roots(argv) is None:
        return None
    return f"$({name})"


def _literal_argv(src: bytes, node: Node) -> list[str] | None:
    """The words of a simple command when each is literal text (no expansion, no quotes)."""
    if node.type != "command":
        return None
    argv: list[str] = []
    for child in node.named_children:
        word = child.named_children[0] if child.type == "command_name" else child
        if word.type not in ("word", "number"):
            return None
        text = src[word.start_byte : word.end_byte].decode("utf-8", "replace")
        if any(c in text for c in "\\$`'\"*?[{~"):
            return None
        argv.append(text)
    return argv
