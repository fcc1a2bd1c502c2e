"""How a program's name is spelled on a machine: with its version (`python3.12`), or as a
distribution names one build of it (`vim.tiny`, `emacs-nox`, `bsd-csh`)."""

from __future__ import annotations


def unversioned(base: str, version: str) -> str:
    """`python3.12` as `python`, `python3-dbg` (Debian's debugging build) as `python3` is; a
    build's flavour is the program too (`vim.tiny`, `emacs-nox`, `zsh-static`, `gnuplot-qt`,
    `octave-cli-8.4.0`, `bsd-csh`): FLAVOURS, each as a distribution names it."""
    name = base.removeprefix("bsd-").removeprefix("heirloom-")
    while True:
        stripped = name.removesuffix("-dbg").rstrip(version)
        for flavour in FLAVOURS:
            stripped = stripped.removesuffix(flavour)
        if stripped == name:
            return name
        name = stripped


# How Debian and Homebrew name a build of a program beside the program's own name: a binary
# with fewer features, for a toolkit or none, static, or the command-line part of it.
FLAVOURS = (
    *(".tiny", ".basic", ".nox", ".gtk3", ".gtk", ".athena", ".motif"),
    *("-nox", "-gtk3", "-gtk", "-lucid", "-x11", "-qt", "-wx", "-static", "-cli"),
)
