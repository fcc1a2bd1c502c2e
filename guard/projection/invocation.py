"""Commands: from a `command` node to argv, then to what it runs and touches.

Wrappers (`sudo`, `env`, `xargs`, `find -exec` …) run the rest of their argv as a command of its
own; shells and `eval` run strings, parsed again; everything else is read with its spec.
"""

from __future__ import annotations

import re
from itertools import product
from typing import NamedTuple

from tree_sitter import Node

from guard.knowledge.arguments import (
    ACCESS_ROLES,
    Reading,
    is_local_path,
    path_part,
    read_argv,
)
from guard.knowledge.commands import (
    AT_FILE_COMMANDS,
    CONTAINER_COMMANDS,
    CONTAINER_HOST_POWERS,
    CPIO_EXTRACTS,
    DEFAULT_WRITES,
    POSIX_SHELLS,
    STDIN_FILE_LISTS,
    SUBCOMMAND_HOME_WRITES,
    SYSTEM_BIN_DIRS,
    Spec,
    spec_for,
)
from guard.projection import paths
from guard.projection.requests import Access, DynamicRole, Request
from guard.projection.scope import MAX_ALTERNATIVES, Var
from guard.projection.walker import HANDLERS, FunctionEffects, Stdin, Walker
from guard.projection.words import Evaluator, plain_word


class Arg(NamedTuple):
    """One argv element: its value (None when unknown), where it came from, and why unknown.

    A named tuple rather than a dataclass: the walker makes one per word, on the hot path."""

    value: str | None
    span: tuple[int, int]
    source: str
    reason: str = ""
    glob: bool = False
    under: tuple[str, ...] | None = None  # unknown, but paths under these (`$(git ls-files)`)

    @property
    def shown(self) -> str:
        return self.value if self.value is not None else self.source


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
    if not words:
        for a in assignments:
            w.assign(a, depth)
        return
    for a in assignments:  # prefix assignments: values for the command's environment only
        name_node = a.child_by_field_name("name")
        value_node = a.child_by_field_name("value")
        if name_node is not None and value_node is not None:
            w.assigned_value(a, w.text(name_node), value_node, depth, exported=True)
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
        if ev is None:
            ev = w.evaluator()
        value = ev.value(word)
        source = src[start:end].decode("utf-8", "replace")
        if value.unknown:
            roots = _substituted_roots(w, word)
            columns.append([(Arg(None, span, source, value.unknown, under=roots),)])
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


def _substituted_roots(w: Walker, word: Node) -> tuple[str, ...] | None:
    """`$(git ls-files)`, `"$(find src -name x)"`: a substitution of a known producer stands
    for paths under the roots it was given (guard/knowledge/producers.py)."""
    if word.type == "string" and word.named_child_count == 1:
        word = word.named_children[0]
    if word.type != "command_substitution" or word.named_child_count != 1:
        return None
    from guard.projection.pipe_input import produced_roots

    return produced_roots(w, word.named_children[0])


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
    shown = tuple([a.shown for a in argv])
    w.out.append(Request("command", span, f"runs {name.value}", argv=shown))
    directory, _, base = name.value.rpartition("/")
    if "/" in name.value and paths.normalise(directory or "/") not in SYSTEM_BIN_DIRS:
        access(w, name, name.value, "execute", base)
    if name.value == "shopt" and any(a.value in _RISKY_SHOPTS for a in argv[1:]):
        dynamic(w, name, "code", _SHOPT_REASON)
    if name.value in _DECLARERS:  # reached as a command (`builtin export …`, `command declare`)
        _declared(w, argv, depth)
    if name.value in _NAME_TAKERS:
        from guard.projection.variables import ARITHMETIC_CODE

        for arg in argv[1:]:
            if arg.value is not None and ARITHMETIC_CODE.search(arg.value):
                dynamic(w, arg, "code", f"{name.value} evaluates a subscript that runs code")
    effects = w.functions.get(name.value)
    if effects is not None:  # a function defined in the line
        _call_function(w, name.value, effects, stdin, depth)
        return
    known = spec_for(name.value)
    command_effects(w, argv, known, stdin, span, depth)
    has_effects = known is None and knows_effects(name.value)
    spec = known or _UNKNOWN_COMMAND
    if spec.kind == "plain" or spec.kind == "wrapper":
        plain(Call(w, spec, argv, stdin, span, depth, extra_unknown))
        if known is None and len(argv) > 2 and not has_effects:  # may run a command it names
            from guard.projection.unknown_runner import may_run

            may_run(w, argv, stdin, span, depth, run_argv)
    elif spec.kind == "printf":  # its words are data, but bash lists a glob's directory first
        if any(a.glob for a in argv[1:]):
            _listed_directories(w, argv, Reading(), name.value)
        KINDS[spec.kind](Call(w, spec, argv, stdin, span, depth, extra_unknown))
    else:
        KINDS[spec.kind](Call(w, spec, argv, stdin, span, depth, extra_unknown))


def plain(c: Call) -> None:
    w, spec, argv, stdin, span, depth, extra_unknown = (
        c.w,
        c.spec,
        c.argv,
        c.stdin,
        c.span,
        c.depth,
        c.extra,
    )
    via = argv[0].value or ""
    via = via.rsplit("/", 1)[-1]
    if via == "dd":
        _dd(w, argv)
        return
    if via == "env":  # `env - cmd` is `env -i cmd`: the lone `-` is an option, not the command
        argv = [argv[0], *_env_options(argv[1:])]
    reading = read_argv(spec, [a.value for a in argv])
    if via in _CORNER_COMMANDS:
        _argument_corners(w, via, argv)
    for use in reading.uses:
        if use.at >= len(argv):
            continue
        arg = argv[use.at]
        if use.role == "code":
            run_code(
                w,
                arg.value if use.value is None else use.value,
                arg,
                depth,
                new_process=True,
                via=via,
            )
            continue
        if use.role in OPTION_VALUE_ROLES:
            option_value(
                w, use.role, arg, use.value if use.value is not None else arg.value, depth, via
            )
            continue
        if use.role not in ACCESS_ROLES:
            continue
        text = use.value if use.value is not None else arg.value
        if text is None and arg.under is not None:  # what a known producer printed
            for root in arg.under:
                access(w, arg, root, "read" if use.role == "path" else use.role, via)  # type: ignore[arg-type]
            continue
        if text is None:
            dynamic(w, arg, "path", f"an argument of {via} is not known: {arg.reason}")
            continue
        if use.role == "path":
            part = path_part(text)
            if part is None and _names_something(w, text):
                part = text  # a bare name that exists here: a file (or a link out) it may read
            if part is None:
                continue
            access(w, arg, part, "read", via)
        else:
            access(w, arg, text, use.role, via)  # type: ignore[arg-type]
    if any(a.glob for a in argv[1:]):
        _listed_directories(w, argv, reading, via)
    if via == "ln" and any(
        (a.value or "").startswith("-") and ("s" in (a.value or "")[1:] or a.value == "--symbolic")
        for a in argv[1:]
    ):
        _made_link(w, reading, argv)
    if reading.run is not None:
        inner = argv[reading.run :]
        if spec.assignments:  # `env NAME=value cmd`: the command's environment
            _environment(w, argv[1 : reading.run], depth)
        if via == "xargs":
            given = stdin.roots if stdin is not None else None
            only = given[0] if given and len(given) == 1 else None
            inner = _xargs_replaced(argv[: reading.run], inner, only)
        run_argv(w, inner, stdin, span, depth, extra_unknown=reading.unknown_args)
    elif spec.bare_reads_cwd and not any(u.role in ACCESS_ROLES for u in reading.uses):
        access(w, argv[0], ".", "read", via)
    if extra_unknown and spec.operands in ("read", "write", "path") and spec.kind == "plain":
        roots = stdin.roots if stdin is not None else None
        if roots is None:
            dynamic(w, argv[0], "path", f"{via} is given arguments read from standard input")
        for root in roots or ():  # paths a known producer printed: under the roots it was given
            access(w, argv[0], root, "read" if spec.operands == "path" else spec.operands, via)


_BARE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.@%+,-]*")


def _names_something(w: Walker, text: str) -> bool:
    """Whether a word that does not look like a path names something in the directory."""
    cwd = w.scope.cwd
    return cwd is not None and _BARE_NAME.fullmatch(text) is not None and bool(
        w.ctx.expand(f"{cwd}/{text}" if cwd != "/" else f"/{text}")
    )


def _listed_directories(w: Walker, argv: list[Arg], reading: Reading, via: str) -> None:
    """A glob is expanded by bash before any command sees it: `echo /srv/data/*` lists
    /srv/data, a read of that directory, even where the command takes its words as data."""
    accessed = {u.at for u in reading.uses if u.role in ACCESS_ROLES or u.role in _READING}
    for index, arg in enumerate(argv[1:], 1):
        if not arg.glob or arg.value is None or index in accessed:
            continue
        head = re.split(r"[*?\[]", arg.value, maxsplit=1)[0]
        directory = head.rpartition("/")[0] if "/" in head else "."
        access(w, arg, directory or "/", "read", f"{via} (a glob)")


_READING = frozenset({"sed-script", "awk-program", "file-list", "url", "sql", "sql-file"})


def _env_options(args: list[Arg]) -> list[Arg]:
    """env's arguments without a lone `-` among its options (before the command)."""
    for i, arg in enumerate(args):
        value = arg.value
        if value == "-":
            return args[:i] + _env_options(args[i + 1 :])
        if value is None or not value.startswith("-") or value == "--":
            break
    return args


def _declared(w: Walker, argv: list[Arg], depth: int) -> None:
    from guard.projection.variables import set_variable

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


def _made_link(w: Walker, reading: Reading, argv: list[Arg]) -> None:
    """`ln -s TARGET LINK`: paths through LINK later in the line lead somewhere not known."""
    operands = [u.at for u in reading.uses if u.role in ("read", "write")]
    if not operands or w.scope.cwd is None:
        return
    link = argv[operands[-1]].value
    target = argv[operands[0]].value
    if not link:
        return
    where = paths.absolute(link, w.scope.cwd)
    made = [where]
    name = (target or "").rstrip("/").rsplit("/", 1)[-1]
    if name not in ("", ".", ".."):  # `ln -s TARGET DIR` makes DIR/name
        made.append(f"{where}/{name}")
    w.scope.made_links = tuple(dict.fromkeys((*w.scope.made_links, *made)))


_CORNER_COMMANDS = (
    AT_FILE_COMMANDS
    | STDIN_FILE_LISTS.keys()
    | CONTAINER_COMMANDS
    | DEFAULT_WRITES.keys()
    | SUBCOMMAND_HOME_WRITES.keys()
    | {"git", "cpio"}
)


def _argument_corners(w: Walker, via: str, argv: list[Arg]) -> None:
    """Arguments that mean more than their command's spec says: `@FILE` lists for binutils,
    file lists read from standard input, git's `ext::` transport (a shell command), containers
    given the host's powers (`--privileged`, `--pid=host`)."""
    from guard.projection.option_values import file_list

    stdin_lists = STDIN_FILE_LISTS.get(via, frozenset())
    for arg in argv[1:]:
        value = arg.value
        if value is None:
            continue
        if value.startswith("@") and len(value) > 1 and via in AT_FILE_COMMANDS:
            file_list(w, arg, value[1:], 0, via)
        elif value in stdin_lists:
            dynamic(w, arg, "path", f"{via} {value} reads the names of files from its input")
        elif value.startswith("ext::") and via == "git":
            dynamic(w, arg, "code", "git's ext:: transport runs a shell command")
        elif via in CONTAINER_COMMANDS and CONTAINER_HOST_POWERS.match(value):
            dynamic(
                w,
                arg,
                "code",
                f"{value} gives the container the host's powers, "
                "and guard does not see what runs in it",
            )
    if via in CONTAINER_COMMANDS:
        _container_copy(w, via, argv)
    if via in DEFAULT_WRITES:
        _default_write(w, via, argv)
    if via in SUBCOMMAND_HOME_WRITES:
        _subcommand_home_write(w, via, argv)
    if via == "cpio":
        words = [a.value or "" for a in argv[1:]]
        extracts = any(
            v in CPIO_EXTRACTS or (v[:1] == "-" and v[1:2] != "-" and "i" in v) for v in words
        )
        if extracts and "--no-absolute-filenames" not in words:
            dynamic(
                w,
                argv[0],
                "path",
                "cpio -i writes the paths the archive holds, absolute ones too, "
                "not known before it runs",
            )


def _default_write(w: Walker, via: str, argv: list[Arg]) -> None:
    """`ssh-keygen` with no -f writes ~/.ssh/id_*; `gpg --import` writes ~/.gnupg."""
    triggers, elsewhere, under = DEFAULT_WRITES[via]
    words = [a.value or "" for a in argv[1:]]
    if triggers and not any(v.split("=", 1)[0] in triggers for v in words):
        return
    for v in words:
        if v.split("=", 1)[0] in elsewhere:
            return
        if v[:1] == "-" and v[1:2] != "-" and any(letter in elsewhere for letter in v[1:]):
            return
    home = w.scope.lookup("HOME").options
    if home and len(home) == 1:
        access(w, argv[0], f"{home[0].rstrip('/')}/{under}", "write", via)
    else:
        dynamic(w, argv[0], "path", f"{via} writes under ~/{under}, and $HOME is not known")


def _subcommand_home_write(w: Walker, via: str, argv: list[Arg]) -> None:
    """`aws configure`, `docker login`, `kubectl config set-context` … save under home."""
    rows, elsewhere = SUBCOMMAND_HOME_WRITES[via]
    words = [a.value or "" for a in argv[1:]]
    if any(v.split("=", 1)[0] in elsewhere for v in words):
        return
    operands = tuple(v for v in words if not v.startswith("-"))
    for subcommand, under in rows.items():
        if operands[: len(subcommand)] == subcommand:
            home = w.scope.lookup("HOME").options
            if home and len(home) == 1:
                access(w, argv[0], f"{home[0].rstrip('/')}/{under}", "write", via)
            else:
                dynamic(w, argv[0], "path", f"{via} writes under ~/{under}, and $HOME is not known")
            return


def _container_copy(w: Walker, via: str, argv: list[Arg]) -> None:
    """`docker cp SRC DEST`: the side that is not `container:path` is a host path read (SRC)
    or written (DEST)."""
    operands = [a for a in argv[1:] if a.value is None or not a.value.startswith("-")]
    if len(operands) < 3 or operands[0].value != "cp":
        return
    modes: tuple[tuple[Arg, Access], ...] = ((operands[1], "read"), (operands[2], "write"))
    for arg, mode in modes:
        value = arg.value
        if value is None:
            dynamic(w, arg, "path", f"a path {via} cp copies is not known: {arg.reason}")
        elif value != "-" and not re.match(r"^[A-Za-z0-9][\w.-]*:", value):
            access(w, arg, value, mode, via)


def _environment(w: Walker, args: list[Arg], depth: int) -> None:
    from guard.projection.variables import assigned

    for arg in args:
        name, eq, value = (arg.value or "").partition("=")
        if eq and name.replace("_", "a").isalnum() and not name[:1].isdigit():
            assigned(w, name, value, arg._replace(value=value), depth, exported=True)


def _xargs_replaced(options: list[Arg], inner: list[Arg], root: str | None = None) -> list[Arg]:
    """`xargs -I X cmd … X …`: every argument holding X is filled from input nobody knows."""
    from guard.projection.invocation_kinds import _substituted

    marker: str | None = None
    for i, arg in enumerate(options):
        value = arg.value or ""
        if value in ("-I", "--replace") and i + 1 < len(options):
            marker = options[i + 1].value
        elif value.startswith("-I") and len(value) > 2:
            marker = value[2:]
        elif value.startswith("--replace="):
            marker = value.split("=", 1)[1]
        elif value in ("-i", "--replace"):
            marker = "{}"
        elif value.startswith("-i") and len(value) > 2:
            marker = value[2:]
    if not marker:
        return inner
    # a producer's output (`find src | xargs -I{} …`): a lone marker is a path under its root
    return [_substituted(a, marker, root, "input xargs puts there") for a in inner]


def _dd(w: Walker, argv: list[Arg]) -> None:
    for arg in argv[1:]:
        if arg.value is None:
            dynamic(w, arg, "path", f"an argument of dd is not known: {arg.reason}")
        elif arg.value.startswith("if="):
            access(w, arg, arg.value[3:], "read", "dd")
        elif arg.value.startswith("of="):
            access(w, arg, arg.value[3:], "write", "dd")


def dynamic(w: Walker, arg: Arg, role: DynamicRole, reason: str) -> None:
    w.out.append(Request("dynamic", arg.span, reason, text=arg.source, role=role))


def access(w: Walker, arg: Arg, text: str, mode: Access, via: str) -> None:
    """A path the command would touch: a request when it lies outside the workspace."""
    if not is_local_path(text):
        return
    if text.startswith("/"):
        _access_at(w, arg, text, mode, via)
        return
    for fallback in w.scope.fallback_cwds:  # where the shell is if a `cd` failed
        _access_at(w, arg, _joined(fallback, text), mode, via)
    cwd = w.scope.cwd
    if cwd is None:
        reason = f"{text} is relative to a directory that is not known: {w.scope.cwd_reason}"
        dynamic(w, arg, "path", reason)
        return
    _access_at(w, arg, _joined(cwd, text), mode, via)


def _joined(directory: str, path: str) -> str:
    return f"{directory}/{path}" if directory != "/" else f"/{path}"


def _access_at(w: Walker, arg: Arg, raw: str, mode: Access, via: str) -> None:
    path = paths.normalise(raw)
    if paths.is_plumbing(path):
        return
    if mode == "execute" and paths.normalise(path.rsplit("/", 1)[0] or "/") in SYSTEM_BIN_DIRS:
        return  # the system's own programs (su -s /bin/bash, git --exec-path=/usr/lib/git-core)
    if mode == "execute" and path in SYSTEM_BIN_DIRS:
        return
    # symlinks resolve before `..`, as the kernel does (`link/../x` is next to link's target);
    # a path through a link made earlier in this line is not known
    made = w.scope.made_links
    if made:
        lexical = "/" + "/".join(p for p in raw.split("/") if p not in ("", "."))
        if any(
            form == link or form.startswith(link + "/") for link in made for form in (lexical, path)
        ):
            dynamic(w, arg, "path", f"{raw} goes through a link this line makes")
            return
    # resolvers return normal paths; only `..` read before links needs normalising again
    resolved = _resolved(w, arg, raw) if ".." in raw else _resolved(w, arg, path, normal=True)
    if arg.glob:  # what the pattern matches now: a match may be a link that leads out
        for match in w.ctx.expand(path):
            found = paths.normalise(match)
            if not paths.inside_any(found, w.ctx.workspace) and not paths.is_plumbing(found):
                resolved = found
                break
    if w.ctx.protected is not None:
        _protected(w, arg, raw, path, resolved, mode, via)
    if paths.inside_any(resolved, w.ctx.workspace) or (
        resolved != path and paths.is_plumbing(resolved)
    ):
        if arg.glob and ".." not in raw and _skipdots_off(w) and _glob_may_climb(path):
            resolved = _resolved(w, arg, _climbing(path))
            if paths.inside_any(resolved, w.ctx.workspace):
                return
        else:
            return
    shown = paths.display(resolved, w.ctx.home)
    w.out.append(
        Request(
            "external_directory",
            arg.span,
            f"{mode} {shown} ({via}) is outside the workspace",
            path=resolved,
            access=mode,
            via=via,
        )
    )


def _protected(
    w: Walker, arg: Arg, raw: str, path: str, resolved: str, mode: Access, via: str
) -> None:
    """A `protected` request when the access reaches a protected path: as written, after
    symlinks, through what a glob matches now, or through what it could match later."""
    assert w.ctx.protected is not None
    match = w.ctx.protected.match
    hit = match(resolved, mode) or (match(path, mode) if path != resolved else None)
    where = resolved if hit is not None and match(resolved, mode) else path
    if hit is None and arg.glob:
        for found in w.ctx.expand(path):
            hit = match(paths.normalise(found), mode)
            if hit is not None:
                where = paths.normalise(found)
                break
        else:
            hit = w.ctx.protected.may_match(path, mode)
            where = path
    if hit is None or (hit.agent_only and via in NAMES_ONLY):
        return  # `ls .env`, `test -f key.pem`: naming a secret reads nothing of it
    shown = paths.display(where, w.ctx.home)
    w.out.append(
        Request(
            "protected",
            arg.span,
            f"{mode} {shown} ({via}) is a protected path ({hit.pattern})",
            path=where,
            access=mode,
            via=via,
        )
    )


# commands that name files (their names, sizes, modes) without reading what they hold
NAMES_ONLY = frozenset(
    {"ls", "find", "fd", "stat", "test", "[", "[[", "du", "realpath", "readlink", "basename",
     "dirname", "tree", "exa", "eza", "lsd"}
)


def _resolved(w: Walker, arg: Arg, raw: str, *, normal: bool = False) -> str:
    """`raw` with its existing links resolved (resolvers return normal paths: only `..` read
    before links needs normalising again); a path guard may not look through
    (`/proc/1/root/…`) stays as written, and where it leads is not known."""
    try:
        return w.ctx.resolve(raw) if normal else paths.normalise(w.ctx.resolve(raw))
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        dynamic(w, arg, "path", f"guard cannot follow the links of {raw}: {why}")
        return paths.normalise(raw)


def _skipdots_off(w: Walker) -> bool:
    """Whether the line turned `globskipdots` off. With it on (bash 5.2's default; zsh never
    matches them) no glob matches `.` or `..`: `ls -d */`, `du -s .[^.]* *` stay inside."""
    return any(r.reason == _SHOPT_REASON for r in w.out)


_SHOPT_REASON = "this shell option changes where cd goes or what globs match"


def _glob_may_climb(path: str) -> bool:
    """A glob component that can match `..` once `globskipdots` is off (`.[.]`, `.?`): one
    starting with a literal dot (bash's dot rule; `[^…]` negates as `[!…]` does)."""
    import fnmatch

    return any(
        part[:1] == "." and any(c in part for c in "*?[") and fnmatch.fnmatchcase("..", part)
        for part in path.replace("[^", "[!").split("/")
    )


def _climbing(path: str) -> str:
    import fnmatch

    return "/".join(
        ".." if any(c in part for c in "*?[") and fnmatch.fnmatchcase("..", part) else part
        for part in path.split("/")
    )


HANDLERS["command"] = command_node
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


def is_shell(name: str) -> bool:
    return name.rsplit("/", 1)[-1] in POSIX_SHELLS


# Late imports: these modules build on the names above.
from guard.projection.effects import command_effects, knows_effects  # noqa: E402
from guard.projection.invocation_kinds import KINDS, run_code  # noqa: E402
from guard.projection.option_values import OPTION_VALUE_ROLES, option_value  # noqa: E402
from guard.projection.redirects import redirect_stdin, visit_redirect  # noqa: E402
