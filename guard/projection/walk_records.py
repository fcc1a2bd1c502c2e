"""The records the walk passes around: one argv word (`Arg`), where a command's standard input
comes from (`Stdin`), and what calling a function defined in the line does (`FunctionEffects`)."""

from __future__ import annotations

from typing import NamedTuple

from tree_sitter import Node


class FunctionEffects(NamedTuple):
    """What calling a function defined in the line does to the caller's shell."""

    changes_dir: bool
    sets: tuple[str, ...]  # variables it assigns (bash functions share the caller's variables)
    body: Node | None = None  # walked again at each call, with the caller's scope
    source: bytes = b""  # the text `body` belongs to (only a walker of the same text re-walks)


class Arg(NamedTuple):
    """One argv element: its value (None when unknown), where it came from, and why unknown.

    A named tuple rather than a dataclass: the walker makes one per word, on the hot path."""

    value: str | None
    span: tuple[int, int]
    source: str
    reason: str = ""
    glob: bool = False
    under: tuple[str, ...] | None = None  # unknown, but paths under these (`$(git ls-files)`)
    secrets: tuple[str, ...] = ()  # protected files among the paths it stands for

    @property
    def shown(self) -> str:
        return self.value if self.value is not None else self.source


class Stdin(NamedTuple):
    """Where a command's standard input comes from, when that matters (code fed to a shell)."""

    kind: str  # "pipe", "text" (heredoc / here-string), "file", "terminal"
    text: str | None = None  # for "text": the code, or None when it is not known
    roots: tuple[str, ...] | None = None  # "pipe" from a producer: it prints paths under these
    raw: str | None = None  # a heredoc's body as written (its expansions not done)
    secrets: tuple[str, ...] = ()  # "pipe" from a producer: protected files among what it prints
