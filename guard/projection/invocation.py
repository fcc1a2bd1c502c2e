"""Commands: from a `command` node to argv, then to what it runs and touches.

Wrappers (`sudo`, `env`, `xargs`, `find -exec` …) run the rest of their argv as a command of its
own; shells and `eval` run strings, parsed again; everything else is read with its spec.
"""

from __future__ import annotations

from itertools import product

from tree_sitter import Node

from guard.knowledge import SYSTEM_BIN_DIRS, Spec, command_for
from guard.languages import Reading
from guard.projection import paths
from guard.projection.accesses import SHOPT_REASON, access
from guard.projection.code_runners import CODE_KINDS
from guard.projection.effects import command_effects
from guard.projection.pipe_input import produced_listing
from guard.projection.plain_commands import listed_directories, plain
from guard.projection.redirects import redirect_stdin, visit_redirect, written_text
from guard.projection.requests import Request
from guard.projection.shell_state import MAX_ALTERNATIVES, Var
from guard.projection.special_commands import KINDS as COMMAND_KINDS
from guard.projection.unknown_runner import may_run, may_run_option_code, may_run_text
from guard.projection.variables import ARITHMETIC_CODE, set_variable
from guard.projection.walk_records import Arg, FunctionEffects, Stdin
from guard.projection.walker import Call, Handler, KindHandler, Walker, dynamic
from guard.projection.words import Evaluator, plain_word, quoted_literal
from guard.projection.wordwise_tools import TOOL_KINDS


def command_node(w: Walker, node: Node, depth: int, stdin: Stdin | None) -> None:
    words: list[Node] = []
    redirects: list[Node] = []
    assignments: list[Node] = []
    for child in node.named_children:
        kind = child.type
        if kind == "command_name":
            words.append(child.named_children[0] if child.named_child_count else child)
        elif kind == "variable_assignment":
            assignments.append(child)
        elif kind in _REDIRECTS:
            redirects.append(child)
        elif kind != "comment":
            words.append(child)
    if redirects:
        stdin = redirect_stdin(w, redirects, stdin)
        for r in redirects:
            visit_redirect(w, r, depth)
        written_text(w, node, redirects, stdin)
    if not words:
        for a in assignments:
            w.assign(a, depth)
        return
    for a in assignments:  # prefix assignments: values for the command's environment only
        name_node = a.child_by_field_name("name")
        value_node = a.child_by_field_name("value")
        if name_node is not None and value_node is not None:
            w.assigned_value(
                a, w.text(name_node), value_node, depth, exported=True, for_command=True
            )
    columns, combos, ev = _word_columns(w, words)
    if ev is not None:
        w.walk_substitutions(ev, depth)
    if combos > MAX_ALTERNATIVES:
        w.out.append(
            Request(
                "dynamic",
                w.span(node),
                "the command has too many possible forms",
                text=w.text(node)[:80],
                role="command_name",
            )
        )
        return
    if combos == 1:
        run_argv(w, [arg for col in columns for arg in col[0]], stdin, w.span(node), depth)
        return
    seen: set[tuple[str, ...]] = set()
    for choice in product(*columns):
        argv = [arg for group in choice for arg in group]
        key = tuple(a.shown for a in argv)
        if key not in seen:
            seen.add(key)
            run_argv(w, argv, stdin, w.span(node), depth)


def _word_columns(
    w: Walker, words: list[Node]
) -> tuple[list[list[tuple[Arg, ...]]], int, Evaluator | None]:
    """Each word's possible fields (one column per word), how many argvs they combine to, and
    the evaluator if a word needed one (its substitutions are walked next)."""
    ev: Evaluator | None = None  # made only when a word needs more than its own text
    columns: list[list[tuple[Arg, ...]]] = []
    fixed = w.fixed_span
    src = w.src
    combos = 1
    for word in words:
        start, end = word.start_byte, word.end_byte
        span = fixed or (start, end)
        kind = word.type
        if kind == "word" or kind == "number":
            text = plain_word(src[start:end])
            if text is not None:  # the common case, without the evaluator
                columns.append([(Arg(text, span, text),)])
                continue
        elif kind == "raw_string" or kind == "string":
            text = quoted_literal(kind, src[start:end])
            if text is not None:  # 'x', "a b": the quotes removed, without the evaluator
                columns.append([(Arg(text, span, src[start:end].decode("utf-8", "replace")),)])
                continue
        if ev is None:
            ev = w.evaluator()
        value = ev.value(word)
        source = src[start:end].decode("utf-8", "replace")
        if value.unknown:
            roots, secrets = _substituted_roots(w, word)
            columns.append(
                [(Arg(None, span, source, value.unknown, under=roots, secrets=secrets),)]
            )
        elif len(value.alternatives) == 1 and len(value.alternatives[0]) == 1:
            columns.append([(Arg(value.alternatives[0][0], span, source, "", value.glob),)])
        else:
            columns.append(
                [
                    tuple(Arg(f, span, source, glob=value.glob) for f in alt)
                    for alt in value.alternatives
                ]
            )
        combos *= len(columns[-1])
    return columns, combos, ev


def _substituted_roots(w: Walker, word: Node) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """`$(git ls-files)`, `"$(find src -name x)"`: a substitution of a known producer stands
    for paths under the roots it was given (guard/knowledge/producers.py), and the protected
    files below them it may print."""
    if word.type == "string" and word.named_child_count == 1:
        word = word.named_children[0]
    if word.type != "command_substitution" or word.named_child_count != 1:
        return None, ()
    return produced_listing(w, word.named_children[0])


def run_argv(
    w: Walker,
    argv: list[Arg],
    stdin: Stdin | None,
    span: tuple[int, int],
    depth: int,
    *,
    extra_unknown: bool = False,
) -> None:
    """One command with its argv: a `command` request, then what it does with its arguments."""
    if not argv:
        return
    name = argv[0]
    if name.value is None:
        dynamic(w, name, "command_name", f"the command name is not known: {name.reason}")
        return
    if name.glob:
        dynamic(w, name, "command_name", f"the command name is a pattern: {name.value}")
        return
    if name.value in _RESERVED and name.source == name.value:
        # `then`, `do`, `}` … as a command: tree-sitter misread a construct (coproc NAME if …)
        w.out.append(
            Request(
                "syntax",
                name.span,
                f"guard cannot read how {name.value!r} is used here",
                text=name.source,
            )
        )
        return
    if "PATH" in w.scope.vars and "/" not in name.value and name.value not in w.functions:
        path = w.scope.vars["PATH"]
        if path.options is None and not path.reason.endswith("is not set"):
            dynamic(
                w,
                name,
                "command_name",
                f"{name.value} is looked up in a $PATH that is not known: {path.reason}",
            )
    shown = tuple([a.source if a.value is None else a.value for a in argv])  # each `a.shown`
    w.out.append(Request("command", span, f"runs {name.value}", argv=shown))
    directory, _, base = name.value.rpartition("/")
    if "/" in name.value and paths.normalise(directory or "/") not in SYSTEM_BIN_DIRS:
        access(w, name, name.value, "execute", base)
    if name.value == "shopt" and any(a.value in _RISKY_SHOPTS for a in argv[1:]):
        dynamic(w, name, "code", SHOPT_REASON)
    if name.value in _DECLARERS:  # reached as a command (`builtin export …`, `command declare`)
        _declared(w, argv, depth)
    if name.value in _NAME_TAKERS:
        for arg in argv[1:]:
            if arg.value is not None and ARITHMETIC_CODE.search(arg.value):
                dynamic(w, arg, "code", f"{name.value} evaluates a subscript that runs code")
    effects = w.functions.get(name.value)
    if effects is not None:  # a function defined in the line
        _call_function(w, name.value, effects, stdin, depth)
        return
    record = command_for(name.value)
    known = record.spec
    command_effects(w, argv, known, stdin, span, depth)
    has_effects = known is None and record.effects is not None
    spec = known or _UNKNOWN_COMMAND
    if spec.kind == "plain" or spec.kind == "wrapper":
        plain(Call(w, spec, argv, stdin, span, depth, extra_unknown))
        if known is None and not has_effects:  # may run a command it names, or a line of one
            if len(argv) > 2:
                may_run(w, argv, stdin, span, depth, run_argv)
            may_run_text(w, argv, depth)
            may_run_option_code(w, argv)
    elif spec.kind == "printf":  # its words are data, but bash lists a glob's directory first
        if any(a.glob for a in argv[1:]):
            listed_directories(w, argv, Reading(), name.value)
        KINDS[spec.kind](Call(w, spec, argv, stdin, span, depth, extra_unknown))
    else:
        KINDS[spec.kind](Call(w, spec, argv, stdin, span, depth, extra_unknown))


def _declared(w: Walker, argv: list[Arg], depth: int) -> None:
    exported = argv[0].value == "export"
    for arg in argv[1:]:
        if arg.value is not None and arg.value.startswith("-"):
            exported = exported or "x" in arg.value
            continue
        if arg.value is None:
            dynamic(w, arg, "code", f"{argv[0].value} is given a word not known: {arg.reason}")
            continue
        name, eq, value = arg.value.partition("=")
        if eq:
            set_variable(
                w, name, Var((value,), exported=exported), arg._replace(value=value), depth
            )
        elif name.startswith(("GUARD_", "__guard_")):
            dynamic(w, arg, "code", f"{argv[0].value} {name} changes how guard judges lines")


def _call_function(
    w: Walker, name: str, effects: FunctionEffects, stdin: Stdin | None, depth: int
) -> None:
    """Walk the body again with the caller's scope (its variables may have changed since the
    definition), and let its cd and assignments reach the caller, as bash does."""
    if effects.body is None or effects.source != w.src or name in w.calling:
        if effects.changes_dir:
            w.scope.change_dir(None, f"the function {name} changes the directory")
        for changed in effects.sets:
            w.scope.assign(changed, Var(None, f"${changed} is set by the function {name}"))
        return
    body = effects.body
    saved: list[tuple[str, ...] | None] = []

    def enter() -> None:
        w.calling.add(name)
        saved.append(w.scope.positional)
        w.scope.positional = None  # its own $1 …, not known here

    def leave() -> None:
        w.calling.discard(name)
        w.scope.positional = saved[0]

    w.push(enter, w.visit_task(body, depth + 1, stdin), leave)


# shopt options after which cd or globs reach places the line does not name
_RISKY_SHOPTS = frozenset({"cdable_vars", "autocd", "globskipdots"})
_DECLARERS = frozenset({"export", "declare", "typeset", "local", "readonly"})
# Commands that read their arguments as variable names or numbers: a subscript there is evaluated.
_NAME_TAKERS = frozenset(
    {
        "let",
        "read",
        "printf",
        "test",
        "[",
        "unset",
        "declare",
        "typeset",
        "local",
        "export",
        "readonly",
        "mapfile",
        "readarray",
        "getopts",
        "wait",
        "shift",
        "return",
        "exit",
        "ulimit",
        "kill",
    }
)
# Reserved words never name a command in a line tree-sitter read right.
_RESERVED = frozenset(
    {
        "then",
        "do",
        "done",
        "fi",
        "elif",
        "else",
        "esac",
        "in",
        "{",
        "}",
        "!",
        "[[",
        "]]",
        "function",
        "select",
        "until",
        "while",
        "if",
        "case",
        "for",
    }
)
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_UNKNOWN_COMMAND = Spec()


KINDS: dict[str, KindHandler] = {**COMMAND_KINDS, **CODE_KINDS, **TOOL_KINDS}
NODES: dict[str, Handler] = {"command": command_node}
