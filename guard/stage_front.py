"""A stage's front: the names its `__init__` offers, each imported on first use from its module.

A stage lists what it offers in `_WHERE` (name → the module it lives in) and sets its module
`__getattr__` to `front(...)`: `from guard.verdict import judge` then imports
guard/verdict/judgement.py, and only that, the first time. Importing a stage costs nothing
until a name is asked for; the checker's fast path imports no more than it did.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # the checker's fast path imports no collections.abc
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


def front(
    package: str, where: Mapping[str, str], modules: frozenset[str]
) -> Callable[[str], object]:
    """The `__getattr__` of `package`: a name in `where` is fetched from its module (the module
    itself for a name in `modules`) and kept in the package, so it is looked up once."""
    space = vars(sys.modules[package])

    def offered(name: str) -> object:
        home = where.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        __import__(home)
        found = sys.modules[home] if name in modules else getattr(sys.modules[home], name)
        space[name] = found
        return found

    return offered
