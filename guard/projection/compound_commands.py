"""Handlers for the shell's structure: lists, pipelines, compound commands, loops, functions.

Each handler is short and schedules work on the walker's stack. Commands, redirects and tests
are in `guard/projection/invocation.py` and `guard/projection/redirects.py`.
"""

from __future__ import annotations

from tree_sitter import Node

from guard.projection.pipe_input import piped_input
from guard.projection.requests import Request
from guard.projection.shell_state import Scope, Var
from guard.projection.variables import set_variable
from guard.projection.walk_records import Arg, FunctionEffects, Stdin
from guard.projection.walker import Handler, Task, Walker, dynamic

_QUIET_EXITS = frozenset({"exit", "return", "false", "break", "continue"})


def _sequence(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    w.visit_children(node, depth, stdin)


def _nothing(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    return None


def _list(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    """`a && b`, `a || b`: `b` after `&&` is assumed to run; after `||` it may not."""
    named = [c for c in node.children if c.is_named]
    ops = [c.type for c in node.children if not c.is_named]
    if len(named) != 2 or not ops:
        w.visit_children(node, depth)
        return
    left, right = named
    first = w.visit_task(left, depth + 1, stdin)

    kept: list[tuple[str, ...]] = []

    def succeeded() -> None:  # the right side runs only if a `cd` on the left worked
        kept.append(w.scope.fallback_cwds)
        w.scope.cd_succeeded()

    def after() -> None:  # after `a && b`, the next command runs even if `a` failed
        w.scope.fallback_cwds = tuple(dict.fromkeys(kept[0] + w.scope.fallback_cwds))

    if _is_quiet_exit(w, right):  # `cd x || exit`: whatever follows ran only if cd worked
        w.push(first, succeeded, w.visit_task(right, depth + 1, stdin))
        return
    if ops[0] == "&&":
        w.push(first, succeeded, w.visit_task(right, depth + 1, stdin), after)
        return
    if ops[0] == "||":
        later = w.branches(
            [[w.visit_task(right, depth + 1, stdin)]], "a command after ||", may_skip=True
        )
        w.push(first, *later)
        return
    w.push(first, w.visit_task(right, depth + 1, stdin))


def _is_quiet_exit(w: Walker, node: Node) -> bool:
    if node.type != "command":
        return False
    name = node.child_by_field_name("name")
    return name is not None and w.text(name) in _QUIET_EXITS


def _pipeline(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    """Each part of a pipeline runs in its own subshell; all but the first read a pipe."""
    parts = [c for c in node.children if c.is_named]
    for index, part in reversed(list(enumerate(parts))):
        if index == 0:
            w.push_subshell([part], depth, stdin)
        else:
            w.push_subshell([part], depth, piped_input(w, parts[index - 1], part))


def _subshell(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    w.push_subshell([c for c in node.children if c.is_named], depth, stdin)


def _if(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    condition: list[Task] = []
    branches: list[list[Task]] = []
    then_body: list[Task] = []
    has_else = False
    seen_then = False
    for child in node.children:
        if child.type == "then":
            seen_then = True
        elif child.type in ("elif_clause", "else_clause"):
            has_else = has_else or child.type == "else_clause"
            branches.append([w.visit_task(child, depth + 1, stdin)])
        elif child.is_named:
            (then_body if seen_then else condition).append(w.visit_task(child, depth + 1, stdin))
    later = w.branches([then_body, *branches], "an if statement", may_skip=not has_else)
    w.push(*condition, *later)


def _elif(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    # An elif's own condition and body: walked in order within its branch.
    w.visit_children(node, depth, stdin)


def _loop(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    """`while`/`until`: the condition runs; the body may run any number of times."""
    body = node.child_by_field_name("body")
    parts = [c for c in node.children if c.is_named and c != body]
    tasks = [w.visit_task(p, depth + 1, stdin) for p in parts]
    why = f"a {node.type.split('_')[0]} loop"
    # the body may run again after it changed variables or the directory, and the condition
    # with it: walk body, condition, body
    again = [] if body is None else [w.visit_task(body, depth + 1, stdin), *tasks]
    later = [] if body is None else w.branches([[*again, again[0]]], why, may_skip=True)
    w.push(*tasks, *later)


def _for(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    variable = node.child_by_field_name("variable")
    body = node.child_by_field_name("body")
    values = [c for c in node.children_by_field_name("value")]
    name = w.text(variable) if variable is not None else ""
    ev = w.evaluator()
    options: list[str] = []
    unknown = ""
    if not values and not any(c.type == "in" for c in node.children):
        positional = w.scope.positional
        if positional is None:
            unknown = "the loop runs over the positional parameters, not known here"
        else:
            options.extend(positional)
    for value in values:
        result = ev.value(value)
        if result.unknown:
            unknown = unknown or result.unknown
        for alternative in result.alternatives:
            options.extend(alternative)
    w.walk_substitutions(ev, depth)
    var = (
        Var(None, f"${name} takes values not known: {unknown}")
        if unknown
        else Var(tuple(dict.fromkeys(options)))
    )

    def bind() -> None:
        where = variable if variable is not None else node
        set_variable(w, name, var, Arg(None, w.span(where), w.text(where), var.reason), depth)

    if body is not None:
        w.push(
            *w.branches(
                [[bind, w.visit_task(body, depth + 1, stdin)] * 2], "a for loop", may_skip=True
            )
        )


def _c_for(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    body = node.child_by_field_name("body")
    for child in node.children:
        if child.is_named and child != body:
            w.collect_words(child, depth)
    if body is not None:
        w.push(
            *w.branches([[w.visit_task(body, depth + 1, stdin)] * 2], "a for loop", may_skip=True)
        )


def _case(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    value = node.child_by_field_name("value")
    items = [c for c in node.children if c.type == "case_item"]
    if value is not None:
        w.collect_words(value, depth)
    for item in items:  # patterns are expanded (and their substitutions run) while matching
        for pattern in item.children_by_field_name("value"):
            w.collect_words(pattern, depth)
    branches: list[list[Task]] = []
    for item in items:
        body = [
            c
            for c in item.children
            if c.is_named
            and c.type not in _PATTERN_NODES
            and item.field_name_for_child(_index(item, c)) != "value"
        ]
        branches.append([w.visit_task(c, depth + 1, stdin) for c in body])
    has_default = any(
        w.text(p) == "*" for item in items for p in item.children_by_field_name("value")
    )
    if branches:
        w.push(*w.branches(branches, "a case statement", may_skip=not has_default))


_PATTERN_NODES = frozenset({"extglob_pattern"})


def _index(parent: Node, child: Node) -> int:
    for i, c in enumerate(parent.children):
        if c == child:
            return i
    return -1


def _function(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    """A function's body counts: walked where it is defined, without changing the line's scope."""
    name = node.child_by_field_name("name")
    body = node.child_by_field_name("body")
    called = w.text(name) if name is not None else ""
    w.functions[called] = FunctionEffects(True, ())  # until its body is read: anything
    if body is not None:
        holder: list[Scope] = []

        def enter() -> None:  # a function gets its own $1 …, not the line's
            holder.append(w.scope)
            w.scope = w.scope.copy()
            w.scope.positional = None

        def leave() -> None:
            outer, inner = holder[0], w.scope
            changed = tuple(n for n in inner.vars if inner.lookup(n) != outer.lookup(n))
            w.functions[called] = FunctionEffects(inner.cwd != outer.cwd, changed, body, w.src)
            w.scope = outer

        w.push(enter, w.visit_task(body, depth + 1), leave)


def _declaration(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    """`export`, `declare`, `local`, `readonly`, `typeset`: assignments, whatever their quoting
    (`export "GUARD_X=1"` is an assignment too)."""
    keyword = node.children[0].type if node.children else ""
    flags = [w.text(c) for c in node.children if c.type == "word" and w.text(c).startswith("-")]
    exported = keyword == "export" or any("x" in f for f in flags if f.startswith("-"))
    if any("n" in f for f in flags):
        what = "un-exporting" if keyword == "export" else "a name reference"
        w.out.append(
            Request(
                "dynamic",
                w.span(node),
                f"{what} can change any variable, so what later words hold is not known",
                text=w.text(node)[:80],
                role="code",
            )
        )
    for child in node.children:
        if child.type == "variable_assignment":
            w.assign(child, depth, exported=exported)
        elif child.type == "variable_name":
            name = w.text(child)
            var = w.scope.lookup(name)
            if exported and not var.exported and var.options is not None:
                # `x=/p; export x`: the value reaches the programs run from now on
                arg = Arg(None, w.span(child), name, var.reason)
                set_variable(w, name, Var(var.options, var.reason, exported=True), arg, depth)
            elif exported:
                w.scope.assign(name, Var(var.options, var.reason, exported=True))
            if name.startswith("GUARD_"):  # exporting or declaring it changes what guard sees
                dynamic(
                    w,
                    Arg(None, w.span(child), name),
                    "code",
                    f"{keyword} {name} changes how guard judges what runs next",
                )
        elif child.is_named and not (child.type == "word" and w.text(child).startswith("-")):
            ev = w.evaluator()
            value = ev.value(child)
            w.walk_substitutions(ev, depth)
            arg = Arg(value.single(), w.span(child), w.text(child), value.unknown)
            text = value.single()
            if text is None:
                dynamic(w, arg, "code", f"{keyword} is given a word not known: {value.unknown}")
                continue
            name, eq, assigned = text.partition("=")
            if not name.replace("_", "a").isalnum() or name[:1].isdigit():
                dynamic(w, arg, "code", f"{keyword} is given {text!r}, which names no variable")
                continue
            if eq:
                set_variable(w, name, Var((assigned,), exported=exported), arg, depth)
            elif name.startswith("GUARD_"):
                dynamic(w, arg, "code", f"{keyword} {name} changes how guard judges what runs next")


def _assignment(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    w.assign(node, depth)


def _unset(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    for child in node.children:
        if child.type == "variable_name":
            name = w.text(child)
            w.scope.unset(name)
            if name.startswith(("GUARD_", "__guard_")):
                w.out.append(
                    Request(
                        "dynamic",
                        w.span(child),
                        f"unsetting {name} changes how guard judges what runs next",
                        text=name,
                        role="code",
                    )
                )
        elif child.is_named:
            w.collect_words(child, depth)


def _words_only(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    w.collect_words(node, depth)


NODES: dict[str, Handler] = {
    "program": _sequence,
    "compound_statement": _sequence,
    "do_group": _sequence,
    "else_clause": _sequence,
    "elif_clause": _elif,
    "negated_command": _sequence,
    "comment": _nothing,
    "list": _list,
    "pipeline": _pipeline,
    "subshell": _subshell,
    "if_statement": _if,
    "while_statement": _loop,
    "for_statement": _for,
    "select_statement": _for,
    "c_style_for_statement": _c_for,
    "case_statement": _case,
    "function_definition": _function,
    "declaration_command": _declaration,
    "variable_assignment": _assignment,
    "variable_assignments": _sequence,
    "unset_command": _unset,
    "arithmetic_expansion": _words_only,
    # `(( … ))` as a command: only its substitutions run anything
    "binary_expression": _words_only,
    "unary_expression": _words_only,
    "postfix_expression": _words_only,
    "parenthesized_expression": _words_only,
    "ternary_expression": _words_only,
    "compound_statement_arith": _words_only,
    "ERROR": _sequence,  # already reported as a syntax request; still walk what is inside
}
