"""The walk over a parsed line: structure, scope changes and the order things run in.

A table maps node types to small handlers. The walk uses an explicit stack of tasks, never the
Python stack per tree level, so a line nested a thousand levels deep is a `syntax` request, not a
crash. Commands themselves are read by `guard/projection/invocation.py`.

This module is what every handler builds on, so it imports none of them. What the walk needs of
them (the node handlers, running an argv, walking nested code, setting a variable, a command's
effects) reaches it as `Calls`, a table `guard/projection/line_projection.py` assembles and passes
in: a handler that finds nested code (an `eval` string, a `-c` script, a heredoc fed to a shell)
hands it back with `run_code`, which walks it through that table, never by importing the walker
back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import NamedTuple, Protocol

from tree_sitter import Node

from guard.knowledge import Spec
from guard.projection.requests import DynamicRole, Request
from guard.projection.shell_state import Context, Scope, Var
from guard.projection.walk_records import Arg, FunctionEffects, Stdin
from guard.projection.words import Evaluator, own_start

MAX_TREE_DEPTH = 256
MAX_NESTING = 8  # shell code inside shell code, levels
_BACKTICKS = re.compile(r"(?<!\\)`((?:[^`\\]|\\.)*)`", re.S)

# A task is a node to visit (with its depth and standard input), or a step to run.
Visit = tuple[Node, int, "Stdin | None"]
Task = Callable[[], None] | Visit


def substitution_stdin(src: bytes, node: Node) -> Stdin | None:
    """What a substitution's commands read: `>(cmd)` reads what the command around it writes
    there (a pipe: `tee >(bash) <<< …` runs it); `$(…)` and `<(…)` read the shell's own."""
    start = own_start(src, node)
    return Stdin("pipe") if src[start : start + 2] == b">(" else None


class Calls(NamedTuple):
    """What the walk asks of the handlers built on it (see the module's docstring)."""

    nodes: Mapping[str, Handler]  # a node type's handler
    run_argv: RunArgv  # one command with its argv (guard/projection/invocation.py)
    walk_source: WalkSource  # parse and walk code (guard/projection/line_projection.py)
    set_variable: SetVariable  # an assignment (guard/projection/variables.py)
    assigned: Assigned  # a value given to a name (guard/projection/variables.py)
    command_effects: CommandEffects  # what a command destroys, publishes … (effects.py)


class Walker:
    """Walks one source text (a line, or a `-c` string inside it) and appends requests."""

    def __init__(
        self,
        src: bytes,
        ctx: Context,
        scope: Scope,
        out: list[Request],
        calls: Calls,
        *,
        nesting: int = 0,
        span: tuple[int, int] | None = None,
        functions: dict[str, FunctionEffects] | None = None,
    ) -> None:
        self.src = src
        self.calls = calls
        self.ctx = ctx
        self.scope = scope
        self.out = out
        self.nesting = nesting
        self.fixed_span = span
        self.functions: dict[str, FunctionEffects] = functions if functions is not None else {}
        self.stack: list[Task] = []
        self.calling: set[str] = set()  # functions being walked at a call (no recursion)
        self.tasks = 0
        self.ran: set[int] = set()  # where the substitutions walked start (bytes)
        self.covered: list[tuple[int, int]] = []  # text walked as code another way (hidden code)
        self.budget = scope.budget  # the line's: nested walkers spend from the same one
        self.read_write: frozenset[int] = frozenset()  # `<>` redirects (parse_repair.py)
        # the destroy effect of the latest command of each name, when what it touches is what
        # it destroys (effects.py); vital_targets.py reads it for each path the command touches
        self.destroys: dict[str, Request] = {}
        self.vital_seen: set[tuple[tuple[int, int], str]] = set()

    # -- output -----------------------------------------------------------------------------
    def span(self, node: Node) -> tuple[int, int]:
        if self.fixed_span is not None:
            return self.fixed_span
        return (node.start_byte, node.end_byte)

    def text(self, node: Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def syntax(self, node: Node, reason: str) -> None:
        self.out.append(Request("syntax", self.span(node), reason, text=_short(self.text(node))))

    # -- the task loop ----------------------------------------------------------------------
    def run(self, root: Node, stdin: Stdin | None = None) -> None:
        stack = self.stack
        stack.append((root, 0, stdin))
        visit = self.visit
        spend = self.budget.spend
        while stack:
            spend(1, "walking the line")  # raises OverBudget, which `project` reports
            task = stack.pop()
            if type(task) is tuple:
                visit(*task)
            else:
                task()  # type: ignore[operator]

    def push(self, *tasks: Task) -> None:
        """Schedule tasks to run in the order given."""
        self.stack.extend(reversed(tasks))

    def push_visit(self, node: Node, depth: int, stdin: Stdin | None = None) -> None:
        self.stack.append((node, depth, stdin))

    def visit_task(self, node: Node, depth: int, stdin: Stdin | None = None) -> Task:
        return (node, depth, stdin)

    def visit(self, node: Node, depth: int, stdin: Stdin | None) -> None:
        if depth > MAX_TREE_DEPTH:
            self.syntax(node, f"the line is nested more than {MAX_TREE_DEPTH} levels deep")
            return
        if not node.is_named:
            return
        handler = self.calls.nodes.get(node.type)
        if handler is None:
            self.syntax(node, f"guard does not understand the construct {node.type!r}")
            return
        handler(self, node, depth, stdin)

    def visit_children(self, node: Node, depth: int, stdin: Stdin | None = None) -> None:
        depth += 1
        self.stack.extend([(c, depth, stdin) for c in reversed(node.named_children)])

    # -- words ------------------------------------------------------------------------------
    def evaluator(self) -> Evaluator:
        return Evaluator(self.src, self.scope, self.ctx.workspace)

    def walk_substitutions(self, ev: Evaluator, depth: int) -> None:
        """Substitutions run in a subshell of the current shell, wherever they stand."""
        subs = list(ev.substitutions)
        ev.substitutions.clear()
        for sub in subs:
            self.ran.add(own_start(self.src, sub))  # its `$(`, after blanks (words.py)
            named = [c for c in sub.children if c.is_named]
            self.push_subshell(named, depth + 1, substitution_stdin(self.src, sub))
        hidden = list(ev.hidden_code)
        ev.hidden_code.clear()
        for text, span in hidden:
            self.covered.append(span)
            self.hidden_code(text, span, depth)
        assigned = list(ev.assigned)
        ev.assigned.clear()
        for name, value in assigned:
            var = Var((value,) if value is not None else None, f"${name} was set by ${{…:=…}}")
            self.calls.set_variable(self, name, var, Arg(value, (0, 0), name), depth)

    def hidden_code(self, text: str, span: tuple[int, int], depth: int) -> None:
        """Code in a word tree-sitter left unparsed: backticks are parsed and walked here;
        anything else (`<(…)`, `$[…]`) is code guard cannot read, so it asks."""
        where = self.fixed_span or span
        rest = _BACKTICKS.sub("", text)
        for inner in _BACKTICKS.findall(text):
            saved = self.scope
            self.scope = self.scope.copy()
            try:
                run_code(
                    self,
                    inner.replace("\\`", "`"),
                    Arg(inner, where, text),
                    depth,
                    new_process=False,
                    via="`…`",
                )
            finally:
                self.scope = saved
        if any(mark in rest for mark in ("`", "$[", "<(", ">(", "$(", "@P", "@A")):
            self.out.append(
                Request(
                    "dynamic",
                    where,
                    "code inside this word runs, and guard cannot read it",
                    text=_short(text),
                    role="code",
                )
            )

    def collect_words(self, node: Node, depth: int) -> None:
        """Walk the substitutions inside words whose values do not matter (conditions, data)."""
        ev = self.evaluator()
        ev._collect(node)
        self.walk_substitutions(ev, depth)

    # -- scopes -----------------------------------------------------------------------------
    def push_subshell(self, nodes: list[Node], depth: int, stdin: Stdin | None = None) -> None:
        holder: list[Scope] = []

        def enter() -> None:
            holder.append(self.scope)
            self.scope = self.scope.copy()

        def leave() -> None:
            self.scope = holder[0]

        self.stack.append(leave)
        self.push(*[self.visit_task(n, depth + 1, stdin) for n in nodes])
        self.stack.append(enter)

    def branches(self, branches: list[list[Task]], why: str, *, may_skip: bool) -> list[Task]:
        """Each branch starts from the scope before them; afterwards, what differs is uncertain."""
        state: dict[str, Scope] = {}
        results: list[Scope] = []

        def fork() -> None:
            state["base"] = self.scope

        def start() -> None:
            self.scope = state["base"].copy()

        def finish() -> None:
            results.append(self.scope)

        def join() -> None:
            base = state["base"]
            outcomes = results + ([base] if may_skip or not results else [])
            merged = outcomes[0].copy()
            for other in outcomes[1:]:
                merged.merge_branch(other, why)
            self.scope = merged

        tasks: list[Task] = [fork]
        for branch in branches:
            tasks.append(start)
            tasks.extend(branch)
            tasks.append(finish)
        tasks.append(join)
        return tasks

    def assign(self, node: Node, depth: int, *, exported: bool = False) -> None:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return
        name = self.text(name_node)
        if name_node.type == "subscript":
            name = self.text(name_node).split("[", 1)[0]
            self.collect_words(node, depth)
            self._set(name, Var(None, f"${name} is an array", exported), node, depth)
            return
        if value_node is None:
            self.scope.assign(name, Var(("",), exported=exported))
            return
        if value_node.type == "array":
            self.collect_words(value_node, depth)
            self._set(name, Var(None, f"${name} is an array", exported), node, depth)
            return
        options = self.assigned_value(node, name, value_node, depth, exported=exported)
        if "+=" in self.text(node)[: len(name) + 2]:
            self.scope.assign(name, Var(None, f"${name} was appended to", exported))
        elif isinstance(options, str):
            self.scope.assign(name, Var(None, options, exported))
        else:
            self.scope.assign(name, Var(options, exported=exported))

    def _set(self, name: str, var: Var, node: Node, depth: int) -> None:
        self.calls.set_variable(
            self, name, var, Arg(None, self.span(node), self.text(node), var.reason), depth
        )

    def assigned_value(
        self, node: Node, name: str, value_node: Node, depth: int, *, exported: bool = False,
        for_command: bool = False,  # `VAR=v cmd`: only for that command
    ) -> tuple[str, ...] | str:
        """The values an assignment gives (or why unknown); special variables are projected."""
        ev = self.evaluator()
        value = ev.value(value_node, assignment=True)
        self.walk_substitutions(ev, depth)
        if value.unknown:
            cause = value.unknown if len(value.unknown) < 160 else "…" + value.unknown[-150:]
            result: tuple[str, ...] | str = f"${name} was set to something not known: {cause}"
        else:
            result = tuple(dict.fromkeys(" ".join(a) for a in value.alternatives))
        single = result[0] if isinstance(result, tuple) and len(result) == 1 else None
        arg = Arg(single, self.span(value_node), self.text(value_node), value.unknown)
        exported = exported or self.scope.lookup(name).exported
        once = for_command
        self.calls.assigned(self, name, single, arg, depth, exported=exported, for_command=once)
        return result


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Call(NamedTuple):
    """One command about to be read: the walker, its spec and argv, where its standard input
    comes from, where it stands, and whether it gets more arguments nobody knows (xargs)."""

    w: Walker
    spec: Spec
    argv: list[Arg]
    stdin: Stdin | None
    span: tuple[int, int]
    depth: int
    extra: bool


def dynamic(w: Walker, arg: Arg, role: DynamicRole, reason: str) -> None:
    """A word whose value (or what it does) nobody can know before the line runs."""
    w.out.append(Request("dynamic", arg.span, reason, text=arg.source, role=role))


def run_code(
    w: Walker,
    text: str | None,
    arg: Arg,
    depth: int,
    *,
    new_process: bool,
    via: str,
    positional: tuple[str, ...] | None = None,
    arg0: str | None = None,
    stdin: Stdin | None = None,
) -> None:
    """Shell code carried by a string: parsed and walked again, with a nesting limit. `stdin`
    is what the code's commands read (a shell started with -c reads its caller's)."""
    if text is None or arg.reason:  # a reason on a known value: filled in later (find's {})
        dynamic(w, arg, "code", f"the code {via} runs is not known: {arg.reason}")
        return
    if w.nesting >= MAX_NESTING:
        w.out.append(
            Request(
                "syntax",
                arg.span,
                f"shell code is nested more than {MAX_NESTING} levels deep",
                text=arg.source[:80],
            )
        )
        return
    scope = w.scope.child_process(positional, arg0) if new_process else w.scope
    w.calls.walk_source(
        text,
        w.ctx,
        scope,
        w.out,
        nesting=w.nesting + 1,
        span=w.fixed_span or arg.span,
        functions=w.functions,
        stdin=stdin,
    )


class WalkSource(Protocol):
    def __call__(
        self,
        text: str,
        ctx: Context,
        scope: Scope,
        out: list[Request],
        *,
        nesting: int,
        span: tuple[int, int] | None,
        functions: dict[str, FunctionEffects],
        stdin: Stdin | None = None,
    ) -> None: ...


class RunArgv(Protocol):
    def __call__(
        self,
        w: Walker,
        argv: list[Arg],
        stdin: Stdin | None,
        span: tuple[int, int],
        depth: int,
        *,
        extra_unknown: bool = False,
    ) -> None: ...


class Assigned(Protocol):
    def __call__(
        self,
        w: Walker,
        name: str,
        value: str | None,
        arg: Arg,
        depth: int,
        *,
        exported: bool = False,
        for_command: bool = False,
    ) -> None: ...


Handler = Callable[[Walker, Node, int, "Stdin | None"], None]
KindHandler = Callable[[Call], None]
SetVariable = Callable[[Walker, str, Var, Arg, int], None]
CommandEffects = Callable[
    [Walker, list[Arg], "Spec | None", "Stdin | None", tuple[int, int], int], None
]
