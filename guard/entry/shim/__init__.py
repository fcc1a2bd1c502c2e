"""guarded-bash: the bash shim (guarded_bash.py), its launcher, how it reads a script and its
stdin, the ssh transfers it lets through, the banner of an interactive shell."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """`from guard.entry.shim import main`, as a guarded-bash script installed before the
    move reads it: loaded on demand, so that the launcher's modules stay light."""
    if name == "main":
        from guard.entry.shim.guarded_bash import main

        return main
    raise AttributeError(name)
