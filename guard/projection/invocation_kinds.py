"""Commands that are more than argument lists: cd, test, shells, eval, source, trap, find, exec.

Each kind is one function with the same signature; `KINDS` maps a spec's kind to it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from guard.knowledge.commands import FILE_TEST_OPERATORS, Spec
from guard.projection.invocation import Arg, Call, access, dynamic, is_shell, plain, run_argv
from guard.projection.requests import Access, Request
from guard.projection.walker import Stdin, Walker

MAX_NESTING = 8

KindHandler = Callable[[Call], None]

_TEST_PAIR_OPS = frozenset({"-nt", "-ot", "-ef"})


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
    from guard.projection.project import walk_source

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
    walk_source(
        text,
        w.ctx,
        scope,
        w.out,
        nesting=w.nesting + 1,
        span=w.fixed_span or arg.span,
        functions=w.functions,
        stdin=stdin,
    )


def _cd(c: Call) -> None:
    w, argv = c.w, c.argv
    operands = [
        a for a in argv[1:] if a.value is None or not a.value.startswith("-") or a.value == "-"
    ]
    if not operands:
        home = w.scope.lookup("HOME")
        target = home.options[0] if home.options and len(home.options) == 1 else None
        if target is None:
            w.scope.change_dir(None, "cd went to $HOME, which is not known")
            return
        _enter(w, Arg(target, argv[0].span, argv[0].source), target)
        return
    arg = operands[0]
    if len(operands) > 1 and argv[0].value == "cd":
        access(w, arg, arg.value or ".", "chdir", "cd")  # bash: too many arguments; stays
        return
    if arg.value is None:
        dynamic(w, arg, "chdir", f"cd goes to a directory that is not known: {arg.reason}")
        w.scope.change_dir(None, f"cd {arg.source} went somewhere not known")
        return
    if arg.value == "-":
        old = w.scope.oldpwd
        if old is None:
            w.scope.change_dir(None, "cd - went to $OLDPWD, which is not known")
            return
        _enter(w, arg, old)
        return
    if arg.glob:
        dynamic(w, arg, "chdir", f"cd goes to a pattern: {arg.value}")
        w.scope.change_dir(None, f"cd {arg.source} went to a pattern")
        return
    cdpath = w.scope.lookup("CDPATH")
    searched = cdpath.options != ("",) and not (
        cdpath.options is None and cdpath.reason.endswith("is not set")
    )
    if searched and not arg.value.startswith(("/", "./", "../")) and arg.value not in (".", ".."):
        dynamic(w, arg, "chdir", f"cd {arg.value} searches $CDPATH, so where it goes is not known")
        w.scope.change_dir(None, f"cd {arg.source} searched $CDPATH")
        return
    _enter(w, arg, arg.value)


def _enter(w: Walker, arg: Arg, target: str) -> None:
    from guard.projection import paths

    access(w, arg, target, "chdir", "cd")
    if target.startswith("/"):
        w.scope.change_dir(paths.normalise(target), may_fail=True)
    elif w.scope.cwd is not None:
        w.scope.change_dir(paths.absolute(target, w.scope.cwd), may_fail=True)
    else:
        w.scope.change_dir(None, w.scope.cwd_reason)


def _pushd(c: Call) -> None:
    w, argv = c.w, c.argv
    before = w.scope.cwd
    operands = [a for a in argv[1:] if a.value is None or not a.value.startswith(("-", "+"))]
    if not operands:
        w.scope.change_dir(None, "pushd swapped directories")
        return
    _cd(c)
    w.scope.dirstack.append(before)


def _popd(c: Call) -> None:
    w, argv = c.w, c.argv
    if len(argv) > 1 or not w.scope.dirstack:
        w.scope.change_dir(None, "popd went to a directory that is not known")
        return
    target = w.scope.dirstack.pop()
    w.scope.change_dir(target, "" if target is not None else "popd went somewhere not known")


def _test(c: Call) -> None:
    w, argv = c.w, c.argv
    args = argv[1:-1] if argv[0].value == "[" and argv and argv[-1].value == "]" else argv[1:]
    for i, arg in enumerate(args):
        if arg.value in FILE_TEST_OPERATORS and i + 1 < len(args):
            _test_path(w, args[i + 1])
        elif arg.value in _TEST_PAIR_OPS and 0 < i < len(args) - 1:
            _test_path(w, args[i - 1])
            _test_path(w, args[i + 1])


def _test_path(w: Walker, arg: Arg) -> None:
    if arg.value is None:
        dynamic(w, arg, "path", f"a path tested is not known: {arg.reason}")
    else:
        access(w, arg, arg.value, "read", "test")


def _shell(c: Call) -> None:
    """`bash -c STRING [$0 [args…]]`, `sh script args`, or code read from standard input."""
    w, argv, stdin, depth = c.w, c.argv, c.stdin, c.depth
    from guard.knowledge.bash_argv import parse_bash_argv

    via = (argv[0].value or "sh").rsplit("/", 1)[-1]
    words = [a.value if a.value is not None else f"\0unknown{i}" for i, a in enumerate(argv)]
    inv = parse_bash_argv(words, stdin_is_tty=False, stderr_is_tty=False)
    by_value = {words[i]: argv[i] for i in range(len(argv) - 1, 0, -1)}
    if inv.mode == "error":
        dynamic(w, argv[0], "code", f"{via}'s arguments cannot be read: {inv.error}")
        return
    if inv.rcfile is not None and inv.rcfile in by_value:
        access(w, by_value[inv.rcfile], inv.rcfile, "read", via)
    if inv.mode == "command" and inv.command is not None:
        code = by_value.get(inv.command, argv[-1])
        if not is_shell(via):
            dynamic(w, code, "code", f"{via} runs code guard cannot read")
            return
        positional = (
            None if any(p.startswith("\0unknown") for p in inv.positional) else (inv.positional)
        )
        arg0 = None if inv.arg0 is None or inv.arg0.startswith("\0unknown") else inv.arg0
        text = None if code.value is None else inv.command
        run_code(
            w,
            text,
            code,
            depth,
            new_process=True,
            via=via,
            positional=positional,
            arg0=arg0,
            stdin=c.stdin,
        )
        return
    if inv.mode == "script" and inv.script is not None:
        script = by_value.get(inv.script, argv[-1])
        if script.value is None:
            dynamic(w, script, "path", f"the script {via} runs is not known: {script.reason}")
        elif not _from_input(w, script, stdin, depth, via):
            access(w, script, script.value, "execute", via)
        for value in inv.positional:
            arg = by_value.get(value)
            if arg is not None and arg.value is not None and looks_path(arg.value):
                access(w, arg, arg.value, "read", via)
        return
    if inv.mode in ("stdin", "interactive"):
        _stdin_code(w, argv[0], stdin, depth, via)


def looks_path(text: str) -> bool:
    from guard.knowledge.arguments import looks_like_path

    return looks_like_path(text)


def _stdin_code(w: Walker, name: Arg, stdin: Stdin | None, depth: int, via: str) -> None:
    if stdin is None or stdin.kind in ("terminal", "file"):
        return
    if stdin.kind == "text" and stdin.text is not None:
        run_code(w, stdin.text, name, depth, new_process=True, via=via)
        return
    dynamic(w, name, "code", f"{via} runs commands read from a pipe, not known before they run")


def _eval(c: Call) -> None:
    w, argv, depth = c.w, c.argv, c.depth
    args = argv[1:]
    if not args:
        return
    unknown = next((a for a in args if a.value is None), None)
    text = None if unknown is not None else " ".join(a.value or "" for a in args)
    where = unknown or Arg(
        text, (args[0].span[0], args[-1].span[1]), " ".join(a.source for a in args)
    )
    run_code(w, text, where, depth, new_process=False, via="eval", stdin=c.stdin)


def _source(c: Call) -> None:
    w, argv, stdin, depth = c.w, c.argv, c.stdin, c.depth
    if len(argv) < 2:
        return
    script = argv[1]
    if script.value is None:
        dynamic(w, script, "code", f"the file sourced is not known: {script.reason}")
        return
    if _from_input(w, script, stdin, depth, argv[0].value or "source"):
        return
    via = argv[0].value or "source"
    if "/" not in script.value:  # bash looks for it on $PATH first, then here
        found = _on_path(w, script.value)
        if found is None:
            dynamic(w, script, "code", f"{via} {script.value} is looked up on a $PATH not known")
            return
        if found:
            access(w, script, found, "execute", via)
            return
    access(w, script, script.value, "execute", via)


def _on_path(w: Walker, name: str) -> str | None:
    """Where `source NAME` finds NAME on $PATH: the file, "" when it is on none of it (then the
    current directory's is used), None when $PATH is not known."""
    path = w.scope.lookup("PATH").options
    if path is None or len(path) != 1:
        return None
    for directory in path[0].split(":"):
        if directory and directory.startswith("/"):
            candidate = f"{directory.rstrip('/')}/{name}"
            if w.ctx.expand(candidate.replace("[", "[[]").replace("*", "[*]").replace("?", "[?]")):
                return candidate
    return ""


def _from_input(w: Walker, script: Arg, stdin: Stdin | None, depth: int, via: str) -> bool:
    """A script path that is a pipe or stdin (`source /dev/stdin`, `bash <(curl …)`): its code
    is what arrives there. True when handled."""
    from guard.projection import paths

    value = script.value or ""
    if not paths.is_plumbing(paths.normalise(value)) and not value.startswith("/proc/"):
        return False
    if value == "/dev/stdin" and stdin is not None and stdin.kind == "text" and stdin.text:
        run_code(w, stdin.text, script, depth, new_process=via not in ("source", "."), via=via)
    else:
        dynamic(w, script, "code", f"{via} runs code from {value}, not known before it runs")
    return True


def _trap(c: Call) -> None:
    w, argv, depth = c.w, c.argv, c.depth
    args = [a for a in argv[1:] if a.value is None or not a.value.startswith("-")]
    if len(args) >= 2:
        code = args[0]

        def walk() -> None:
            saved = w.scope
            w.scope = w.scope.copy()
            try:
                run_code(w, code.value, code, depth, new_process=False, via="trap")
            finally:
                w.scope = saved

        walk()  # with the variables it sees now (a signal may come at once) …
        w.stack.insert(0, walk)  # … and at the end of the line, when EXIT and most fire


def _find(c: Call) -> None:
    w, argv, span, depth = c.w, c.argv, c.span, c.depth
    i = 1
    roots: list[Arg] = []
    while i < len(argv) and argv[i].value in ("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"):
        i += 1
    while i < len(argv):
        value = argv[i].value
        if value is not None and (value.startswith("-") or value in ("(", "!", ")", ",")):
            break
        roots.append(argv[i])
        i += 1
    writes = any(a.value in ("-delete",) for a in argv[i:])
    for root in roots or [Arg(".", argv[0].span, argv[0].source)]:
        if root.value is None:
            dynamic(w, root, "path", f"a directory find searches is not known: {root.reason}")
        else:
            access(w, root, root.value, "write" if writes else "read", "find")
    while i < len(argv):
        value = argv[i].value
        if value in ("-exec", "-execdir", "-ok", "-okdir"):
            end = i + 1
            while end < len(argv) and argv[end].value not in (";", "+"):
                end += 1
            found = roots[0].value if roots and roots[0].value is not None else "."
            inner = [
                _substituted(
                    a, "{}", f"{found.rstrip('/') or '/'}/{{}}", "a file name find puts there"
                )
                for a in argv[i + 1 : end]
            ]
            run_argv(w, inner, None, span, depth)
            i = end + 1
            continue
        if value == "-files0-from" and i + 1 < len(argv):  # roots read from a list file
            listed = argv[i + 1]
            if listed.value is not None and listed.value != "-":
                access(w, listed, listed.value, "read", "find")
            dynamic(w, listed, "path", "find searches directories named in a list")
            i += 2
            continue
        mode = _FIND_PATH_OPTIONS.get(value or "")
        if mode is not None and i + 1 < len(argv):
            target = argv[i + 1]
            if target.value is not None:
                access(w, target, target.value, mode, "find")
            i += 2
            continue
        i += 1


_FIND_PATH_OPTIONS: dict[str, Access] = {
    **dict.fromkeys(("-fprint", "-fprint0", "-fprintf", "-fls"), "write"),
    **dict.fromkeys(("-newer", "-anewer", "-cnewer", "-samefile"), "read"),
}


def _substituted(arg: Arg, marker: str, path: str | None, what: str) -> Arg:
    """An argument a command fills in later (`find -exec … {}`, `xargs -I X`): a lone marker is
    a path under `path` when that is known; text around a marker (`sh -c 'rm {}'`) is unknown."""
    if arg.value is None or marker not in arg.value:
        return arg
    if arg.value == marker and path is not None:
        return arg._replace(value=path, reason=f"{arg.source} is {what}")  # known as a path only
    return arg._replace(value=None, reason=f"{arg.source} holds {what}")


def _exec(c: Call) -> None:
    argv = c.argv
    if (
        len(argv) > 1
        and argv[1].value
        and re.fullmatch(r"\{[A-Za-z_][A-Za-z0-9_]*\}", argv[1].value)
    ):
        argv = [argv[0], *argv[2:]]  # `exec {fd}> file`: the fd variable, not a command
    plain(c._replace(argv=argv))


def _command(c: Call) -> None:
    w, argv, stdin, span, depth, extra = c.w, c.argv, c.stdin, c.span, c.depth, c.extra
    i = 1
    while i < len(argv) and argv[i].value is not None and (argv[i].value or "").startswith("-"):
        if any(f in (argv[i].value or "") for f in "vV"):
            return  # `command -v x` only looks x up
        i += 1
    if i < len(argv) and argv[i].value == "fc":
        _fc_unhooked(w, argv[i:])
        return
    run_argv(w, argv[i:], stdin, span, depth, extra_unknown=extra)


def _alias(c: Call) -> None:
    """`alias name='code'`: the code runs whenever the name is typed later."""
    w, argv, depth = c.w, c.argv, c.depth
    for arg in argv[1:]:
        if arg.value is None:
            dynamic(w, arg, "code", f"an alias is set to something not known: {arg.reason}")
        elif "=" in arg.value and not arg.value.startswith("-"):
            _later(w, arg.value.split("=", 1)[1], arg, depth, "alias")


def _bind(c: Call) -> None:
    """`bind -x 'KEYSEQ: code'`: the code runs when the keys are pressed; `bind -f FILE`
    reads key bindings (and macros that type commands) from FILE."""
    w, argv, depth = c.w, c.argv, c.depth
    for i, arg in enumerate(argv[1:], 1):
        if arg.value is not None and arg.value.startswith("-f"):
            named = arg if arg.value != "-f" else (argv[i + 1] if i + 1 < len(argv) else None)
            bound = arg.value[2:] if named is arg else (named.value if named else "")
            if named is not None and bound is None:
                dynamic(w, named, "path", f"bind -f reads a file not known: {named.reason}")
            elif named is not None and bound:
                access(w, named, bound, "read", "bind -f")
        if arg.value is not None and arg.value.startswith("-x"):
            target = (
                Arg(arg.value[2:], arg.span, arg.source)
                if arg.value != "-x"
                else (argv[i + 1] if i + 1 < len(argv) else None)
            )
            if target is None:
                continue
            if target.value is None:
                dynamic(w, target, "code", f"bind -x runs code not known: {target.reason}")
            elif ":" in target.value:
                _later(
                    w, target.value.split(":", 1)[1].strip().strip("\"'"), target, depth, "bind -x"
                )


def _later(w: Walker, code: str, arg: Arg, depth: int, via: str) -> None:
    saved = w.scope
    w.scope = w.scope.copy()
    try:
        run_code(w, code, arg, depth, new_process=False, via=via)
    finally:
        w.scope = saved


def _assigns(c: Call) -> None:
    """`read x`, `mapfile arr`, `getopts o name`: variables set from input nobody can know."""
    from guard.projection.scope import Var
    from guard.projection.variables import set_variable

    w, spec, argv = c.w, c.spec, c.argv
    plain(c)  # options that carry code (mapfile -C)
    via = argv[0].value or "read"
    names: list[str] = []
    i = 1
    while i < len(argv):
        value = argv[i].value
        if value is not None and value.startswith("-") and len(value) > 1:
            i += 1 + _takes_next(value, spec)
            continue
        if value is not None:
            names.append(value)
        i += 1
    if via == "getopts":
        names = names[1:2]
    for name in names:
        set_variable(w, name, Var(None, f"${name} is set by {via} from input"), argv[0], c.depth)
    if via == "read" and not names:
        w.scope.assign("REPLY", Var(None, "$REPLY is set by read from input"))
    if via in ("mapfile", "readarray") and not names:
        w.scope.assign("MAPFILE", Var(None, "$MAPFILE is set from input"))
    for i, arg in enumerate(argv[1:], 1):  # `read -a arr`
        if arg.value == "-a" and i + 1 < len(argv) and argv[i + 1].value:
            name = argv[i + 1].value or ""
            set_variable(
                w, name, Var(None, f"${name} is set by {via} from input"), argv[0], c.depth
            )


def _takes_next(cluster: str, spec: Spec) -> int:
    """1 when the last option of a cluster like `-rp` takes the next argument as its value."""
    for j, letter in enumerate(cluster[1:], 1):
        if "-" + letter in spec.values:
            return 1 if j == len(cluster) - 1 else 0
    return 0


def _printf(c: Call) -> None:
    """`printf -v name FORMAT …` sets a variable; otherwise printf only prints."""
    from guard.projection.scope import Var
    from guard.projection.variables import set_variable

    w, argv = c.w, c.argv
    for i, arg in enumerate(argv[1:], 1):
        if arg.value == "-v" and i + 1 < len(argv):
            name = argv[i + 1].value or ""
            set_variable(w, name, Var(None, f"${name} is set by printf -v"), arg, c.depth)
        elif arg.value is not None and arg.value.startswith("-v") and len(arg.value) > 2:
            name = arg.value[2:]
            set_variable(w, name, Var(None, f"${name} is set by printf -v"), arg, c.depth)


def _positional(c: Call) -> None:
    """`shift [n]` and `set -- …` change $1 …: followed when known, else unknown from here."""
    w, argv = c.w, c.argv
    pos = w.scope.positional
    if argv[0].value == "shift":
        count = argv[1].value if len(argv) > 1 else "1"
        if pos is not None and count is not None and count.isdigit():
            w.scope.positional = pos[int(count) :]
        else:
            w.scope.positional = None
        return
    rest = argv[1:]
    for i, arg in enumerate(rest):
        if arg.value == "--" or arg.value is None or not arg.value.startswith(("-", "+")):
            new = rest[i + 1 :] if arg.value == "--" else rest[i:]
            values = tuple(a.value for a in new)
            w.scope.positional = None if None in values else tuple(v or "" for v in values)
            return


def _coproc(c: Call) -> None:
    """`coproc CMD …` and `coproc NAME { …; }`: the command runs in the background."""
    w, argv, span, depth = c.w, c.argv, c.span, c.depth
    rest = argv[1:]
    if len(rest) >= 2 and rest[1].value == "{":
        rest = rest[2:]
    saved = w.scope
    w.scope = w.scope.copy()  # a coprocess is a subshell: its cd and variables stay there
    try:
        run_argv(w, rest, None, span, depth)
    finally:
        w.scope = saved


_TMUX_RUNS = frozenset(
    {
        "new-session",
        "new",
        "new-window",
        "neww",
        "split-window",
        "splitw",
        "respawn-pane",
        "respawnp",
        "respawn-window",
        "respawnw",
        "run-shell",
        "run",
        "if-shell",
        "if",
        "display-popup",
        "popup",
    }
)
_TMUX_TYPES = frozenset({"send-keys", "send", "paste-buffer", "pasteb", "set-buffer", "setb"})


def _tmux(c: Call) -> None:
    """tmux runs shell commands given to it, and send-keys types into another terminal."""
    w, argv, depth = c.w, c.argv, c.depth
    plain(c)  # its own options: -f CONFIG, -S SOCKET
    verbs = [i for i, a in enumerate(argv[1:], 1) if a.value in _TMUX_RUNS | _TMUX_TYPES]
    if not verbs:
        return
    i = verbs[0]
    verb = argv[i].value or ""
    if verb in _TMUX_TYPES:
        dynamic(
            w,
            argv[i],
            "code",
            f"tmux {verb} types into another terminal, where it runs unchecked by this line",
        )
        return
    operands = [a for a in argv[i + 1 :] if a.value is None or not a.value.startswith("-")]
    if operands:
        last = operands[-1]
        run_code(w, last.value, last, depth, new_process=True, via=f"tmux {verb}")


def _fc(c: Call) -> None:
    """`fc` re-runs commands from the history. In a guarded shell `fc` is the hook's function,
    which checks the command it re-runs; `builtin fc` and `command fc` skip it, so those ask.
    (A shell without a hook has no history: `bash -c` keeps none.)"""
    argv = c.argv
    if any(a.value is not None and a.value.startswith("-") and "l" in a.value for a in argv[1:]):
        return  # fc -l only lists


def _builtin(c: Call) -> None:
    w, argv, stdin, span, depth, extra = c.w, c.argv, c.stdin, c.span, c.depth, c.extra
    if len(argv) > 1 and argv[1].value == "fc":
        _fc_unhooked(w, argv[1:])
        return
    run_argv(w, argv[1:], stdin, span, depth, extra_unknown=extra)


def _fc_unhooked(w: Walker, argv: list[Arg]) -> None:
    if any(a.value is not None and a.value.startswith("-") and "l" in a.value for a in argv[1:]):
        return
    dynamic(
        w,
        argv[0],
        "code",
        "fc runs commands from the history, not known from this line, "
        "and builtin/command fc skips guard's own check of them",
    )


def _parallel(c: Call) -> None:
    """GNU parallel runs its arguments as shell commands, filled from input: not known."""
    w, argv = c.w, c.argv
    dynamic(w, argv[0], "code", "parallel runs shell commands built from its input")


KINDS: dict[str, KindHandler] = {
    "plain": plain,
    "wrapper": plain,
    "xargs": plain,
    "cd": _cd,
    "pushd": _pushd,
    "popd": _popd,
    "test": _test,
    "shell": _shell,
    "eval": _eval,
    "source": _source,
    "trap": _trap,
    "find": _find,
    "exec": _exec,
    "command": _command,
    "alias": _alias,
    "bind": _bind,
    "assigns": _assigns,
    "printf": _printf,
    "positional": _positional,
    "coproc": _coproc,
    "tmux": _tmux,
    "fc": _fc,
    "builtin": _builtin,
    "parallel": _parallel,
}
