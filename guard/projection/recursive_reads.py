"""Tools that read every file below a directory (`grep -r`, `rg`, `ag`): a secret below it is
read as surely as one named. In an agent's session the secrets a project keeps are looked
for below each directory such a tool is given (or the current one, when it is given none);
the first one found asks, as `cat` of it would.
"""

from __future__ import annotations

from guard.knowledge.arguments import Reading
from guard.knowledge.commands.spec import Spec
from guard.knowledge.commands.text import RECURSIVE_READS, RecursiveRead
from guard.projection import paths
from guard.projection.requests import Request
from guard.projection.walk_records import Arg
from guard.projection.walker import Walker


def recursive_reads(w: Walker, via: str, spec: Spec, argv: list[Arg], reading: Reading) -> None:
    """The protected files below the directories `via` reads through, when it recurses."""
    tool = RECURSIVE_READS.get(via)
    protected = w.ctx.protected
    if tool is None or protected is None or w.scope.cwd is None:
        return
    words = [a.value for a in argv[1:]]
    if not _recurses(tool, spec, words):
        return
    hidden = tool.hidden or any(word in tool.hidden_flags for word in words)
    operands = [
        (argv[u.at], u.value if u.value is not None else argv[u.at].value)
        for u in reading.uses
        if u.role == "read" and u.at < len(argv) and not (argv[u.at].value or "").startswith("-")
    ]
    roots = [(arg, text) for arg, text in operands if text] or [(argv[0], ".")]
    for arg, text in roots:
        start = text if text.startswith("/") else f"{w.scope.cwd.rstrip('/')}/{text}"
        try:
            root = paths.normalise(w.ctx.resolve(paths.normalise(start)))
        except (OSError, ValueError):
            continue  # where it leads is asked about as the read of the operand itself
        for found in w.ctx.below(root):
            if not hidden and any(p.startswith(".") for p in found[len(root) :].split("/")):
                continue
            hit = protected.match(found, "read")
            if hit is None:
                continue
            shown = paths.display(found, w.ctx.home)
            below = paths.display(root, w.ctx.home)
            w.out.append(
                Request(
                    "protected",
                    arg.span,
                    f"read {shown} ({via}, which reads below {below}) is a protected path "
                    f"({hit.pattern})",
                    path=found,
                    access="read",
                    via=via,
                )
            )
            break  # one is enough to ask


def _recurses(tool: RecursiveRead, spec: Spec, words: list[str | None]) -> bool:
    if not tool.flags and not tool.letters:
        return True
    value_letters = {v[1] for v in (*spec.values, *spec.options) if len(v) == 2 and v[0] == "-"}
    for i, word in enumerate(words):
        if word is None:
            continue
        if word == "--":
            return False
        if word in tool.flags:
            return True
        if word in tool.values and i + 1 < len(words) and words[i + 1] == "recurse":
            return True
        if word.startswith("-") and not word.startswith("--"):
            for letter in word[1:]:
                if letter in tool.letters:
                    return True
                if letter in value_letters:
                    break  # the rest is that option's value
    return False
