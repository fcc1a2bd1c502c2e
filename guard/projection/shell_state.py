"""What the shell would know while running a line: variables, the directory, positional args.

The walker keeps one `Scope` per shell (a subshell or `bash -c` gets a copy) and updates it as
assignments and `cd` go by. Values are sets of alternatives (a `for` loop variable takes each of
its words) or unknown with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from guard.projection.protected import ProtectedPaths

from guard.projection.budget import Budget

MAX_ALTERNATIVES = 32


class Var(NamedTuple):
    """A shell variable's possible values; ``options is None`` means nobody can know it."""

    options: tuple[str, ...] | None
    reason: str = ""
    exported: bool = False


def _same(path: str) -> str:
    return path


def _nobody(_user: str) -> str | None:
    return None


def _nothing(_pattern: str) -> tuple[str, ...]:
    return ()


def _no_files(_directory: str) -> tuple[str, ...]:
    return ()


class Context(NamedTuple):
    """Everything the pure core is given about the world. Built at the edges (CLI, hooks)."""

    cwd: str
    env: Mapping[str, str]
    workspace: tuple[str, ...]
    home: str
    resolve: Callable[[str], str] = _same  # symlinks of existing paths
    user_home: Callable[[str], str | None] = _nobody  # ~user
    positional: tuple[str, ...] | None = None  # $1 … when known (guarded-bash -c)
    arg0: str | None = None
    stdin_code: bool = False  # the line's standard input may carry code (not a terminal)
    expand: Callable[[str], tuple[str, ...]] = _nothing  # a glob's matches, symlinks resolved
    protected: ProtectedPaths | None = None  # every access to these asks, inside or not
    agent: bool = True  # an agent's session (False: a person's interactive shell)
    # the files below a directory (none for what is no directory), not below `.git` or
    # `node_modules` inside it; raises OverBudget past a bound
    below: Callable[[str], tuple[str, ...]] = _no_files


_RESOLVE, _USER_HOME, _EXPAND, _BELOW = (
    Context._fields.index(name) for name in ("resolve", "user_home", "expand", "below")
)


def with_windows(
    ctx: Context,
    resolve: Callable[[str], str],
    expand: Callable[[str], tuple[str, ...]],
    user_home: Callable[[str], str | None] | None = None,
    below: Callable[[str], tuple[str, ...]] | None = None,
) -> Context:
    """`ctx._replace(resolve=…, expand=…[, user_home=…, below=…])`, made directly: every
    line makes two (its kept looks, its metered budget), and `_replace` costs three times as
    much."""
    items = list(ctx)
    items[_RESOLVE] = resolve
    items[_EXPAND] = expand
    if user_home is not None:
        items[_USER_HOME] = user_home
    if below is not None:
        items[_BELOW] = below
    return tuple.__new__(Context, items)


class Scope:
    """The mutable state of one shell while the walker goes through a line.

    A plain class with slots rather than a dataclass: `dataclasses` itself costs every
    `guard check` process milliseconds to import."""

    __slots__ = (
        "arg0",
        "budget",
        "cwd",
        "cwd_reason",
        "dirstack",
        "env",
        "fallback_cwds",
        "made_links",
        "oldpwd",
        "positional",
        "user_home",
        "vars",
        "written",
    )

    def __init__(
        self,
        vars: dict[str, Var],  # set in the line (or unset: options None, "… is not set")
        env: Mapping[str, str],  # the environment the line starts with, read on lookup
        cwd: str | None,  # None: unknown, see cwd_reason
        cwd_reason: str,
        oldpwd: str | None,
        dirstack: list[str | None],
        positional: tuple[str, ...] | None,
        arg0: str | None,
        user_home: Callable[[str], str | None],
        budget: Budget | None = None,  # the line's, shared by every copy (budget.py)
    ) -> None:
        self.budget = budget if budget is not None else Budget()
        self.vars = vars
        self.env = env
        self.cwd = cwd
        self.cwd_reason = cwd_reason
        self.oldpwd = oldpwd
        self.dirstack = dirstack
        self.positional = positional
        self.arg0 = arg0
        self.user_home = user_home
        # where the shell still is if a `cd` that is taken to succeed failed (`cd x; …`):
        # relative paths are checked against these too
        self.fallback_cwds: tuple[str, ...] = ()
        self.made_links: tuple[str, ...] = ()  # symlinks made earlier in the line (ln -s)
        # the files the line writes (normal absolute paths, as written): how many writes, and
        # what the file then holds when the one write is known text (`echo … > f`, `cat > f
        # <<EOF`); one table for every copy of the scope, as the disk is one for every shell
        self.written: dict[str, tuple[int, str | None]] = {}

    @classmethod
    def start(cls, ctx: Context, budget: Budget | None = None) -> Scope:
        env_vars: dict[str, Var] = {}
        if "HOME" not in ctx.env:
            env_vars["HOME"] = Var((ctx.home,), exported=True)
        return cls(
            vars=env_vars,
            env=ctx.env,
            cwd=ctx.cwd,
            cwd_reason="",
            oldpwd=ctx.env.get("OLDPWD"),
            dirstack=[],
            positional=ctx.positional,
            arg0=ctx.arg0,
            user_home=ctx.user_home,
            budget=budget,
        )

    def copy(self) -> Scope:
        self.budget.spend(1 + len(self.vars) // 16, "copying the shell's variables")
        return Scope(
            dict(self.vars),
            self.env,
            self.cwd,
            self.cwd_reason,
            self.oldpwd,
            list(self.dirstack),
            self.positional,
            self.arg0,
            self.user_home,
            self.budget,
        )._carrying(self)

    def _carrying(self, other: Scope) -> Scope:
        self.fallback_cwds = other.fallback_cwds
        self.made_links = other.made_links
        self.written = other.written
        return self

    def child_process(self, positional: tuple[str, ...] | None, arg0: str | None) -> Scope:
        """The scope a new shell process (`bash -c`) starts with: exported variables only."""
        exported = {k: v for k, v in self.vars.items() if v.exported}
        hidden = {k: Var(None, f"${k} is not set") for k, v in self.vars.items() if not v.exported}
        child = Scope(
            exported | hidden,
            self.env,
            self.cwd,
            self.cwd_reason,
            self.oldpwd,
            [],
            positional,
            arg0,
            self.user_home,
            self.budget,
        )
        child.written = self.written
        return child

    def lookup(self, name: str) -> Var:
        if name == "_":  # the last argument of the previous command: never known here
            return Var(None, "$_ is the last word of the command before, known only then")
        if name == "PWD":
            if self.cwd is None:
                return Var(None, self.cwd_reason or "the directory is not known")
            return Var((self.cwd,))
        if name == "OLDPWD" and self.oldpwd is not None:
            return Var((self.oldpwd,))
        found = self.vars.get(name)
        if found is not None:
            return found
        if name in self.env:
            return Var((self.env[name],), exported=True)
        return Var(None, f"${name} is not set")

    def unset(self, name: str) -> None:
        self.vars[name] = Var(None, f"${name} is not set")

    def assign(self, name: str, var: Var) -> None:
        old = self.lookup(name)
        if old.exported and not var.exported:
            var = Var(var.options, var.reason, exported=True)
        self.vars[name] = var

    def change_dir(self, target: str | None, reason: str = "", *, may_fail: bool = False) -> None:
        if may_fail and self.cwd is not None and self.cwd != target:
            self.fallback_cwds = tuple(dict.fromkeys((*self.fallback_cwds, self.cwd)))[-4:]
        if self.cwd is not None:
            self.oldpwd = self.cwd
        self.cwd = target
        self.cwd_reason = reason

    def cd_succeeded(self) -> None:
        """What follows runs only if the last `cd` worked (`cd x && …`, `cd x || exit`)."""
        self.fallback_cwds = ()

    def merge_branch(self, before: Scope, why: str) -> None:
        """After code that may or may not have run: what changed becomes uncertain."""
        if self.cwd != before.cwd:
            self.cwd = None
            self.cwd_reason = f"the directory depends on {why}"
        for name in set(self.vars) | set(before.vars):
            var = self.lookup(name)
            old = before.lookup(name)
            if old == var:
                continue
            if old.options is None or var.options is None:
                self.vars[name] = Var(None, f"${name} depends on {why}", var.exported)
                continue
            merged = tuple(dict.fromkeys(old.options + var.options))
            if len(merged) > MAX_ALTERNATIVES:
                self.vars[name] = Var(None, f"${name} has too many possible values", var.exported)
            else:
                self.vars[name] = Var(merged, exported=var.exported)
