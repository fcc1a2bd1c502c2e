"""Commands that run code: shells and `-c` strings, `eval`, `source`, `trap`, `bind -x`,
`exec`/`command`/`builtin`, `coproc`, tmux's send-keys, `fc`, GNU parallel, SQL clients.

Each kind is one function with the same signature; `CODE_KINDS` maps a spec's kind to it. The
code they find goes back to the walk through `walker.run_code`.
"""

from __future__ import annotations

import re

from guard.knowledge import is_shell
from guard.projection.accesses import access
from guard.projection.option_values import sql_text
from guard.projection.parallel_jobs import parallel
from guard.projection.plain_commands import plain
from guard.projection.walk_records import Arg, Stdin
from guard.projection.walker import Call, KindHandler, Walker, dynamic, run_code


def _shell(c: Call) -> None:
    """`bash -c STRING [$0 [args…]]`, `sh script args`, or code read from standard input."""
    w, argv, stdin, depth = c.w, c.argv, c.stdin, c.depth
    from guard.languages import parse_bash_argv

    via = (argv[0].value or "sh").rsplit("/", 1)[-1]
    words = [a.value if a.value is not None else f"\0unknown{i}" for i, a in enumerate(argv)]
    inv = parse_bash_argv(words, stdin_is_tty=False, stderr_is_tty=False)
    by_value = {words[i]: argv[i] for i in range(len(argv) - 1, 0, -1)}
    if inv.mode == "error":
        dynamic(w, argv[0], "code", f"{via}'s arguments cannot be read: {inv.error}")
        return
    if inv.rcfile is not None and inv.rcfile in by_value:  # its code runs first
        access(w, by_value[inv.rcfile], inv.rcfile, "execute", via)
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
    from guard.languages import looks_like_path

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
    w.calls.run_argv(w, argv[i:], stdin, span, depth, extra_unknown=extra)


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


def _coproc(c: Call) -> None:
    """`coproc CMD …` and `coproc NAME { …; }`: the command runs in the background."""
    w, argv, span, depth = c.w, c.argv, c.span, c.depth
    rest = argv[1:]
    if len(rest) >= 2 and rest[1].value == "{":
        rest = rest[2:]
    saved = w.scope
    w.scope = w.scope.copy()  # a coprocess is a subshell: its cd and variables stay there
    try:
        w.calls.run_argv(w, rest, None, span, depth)
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


def _screen(c: Call) -> None:
    """`screen CMD …` runs CMD in a new window, as a wrapper does; `-X`/`-Q` send a command to
    a running session (`stuff` types into it, `exec` runs a program there), where it runs
    unchecked by this line."""
    argv, i = c.argv, 1
    while i < len(argv):
        value = argv[i].value
        if value is None or value in ("-X", "-Q"):
            why = "screen sends a command to another session, where it runs unchecked"
            dynamic(c.w, argv[i], "code", why if value else f"{why}: {argv[i].reason}")
            return
        if not value.startswith("-"):
            break  # the command it runs
        i += 2 if value in c.spec.values else 1
    plain(c)


def _fc(c: Call) -> None:
    """`fc` re-runs commands from the history. In a guarded shell `fc` is the hook's function,
    which checks the command it re-runs; `builtin fc` and `command fc` skip it, so those ask.
    (A shell without a hook has no history: `bash -c` keeps none.)"""
    argv = c.argv
    if any(a.value is not None and a.value.startswith("-") and "l" in a.value for a in argv[1:]):
        return  # fc -l only lists
    for at, arg in enumerate(argv[1:], 1):  # `fc -e EDITOR`: a command line, run on the file
        value = arg.value
        if value is None:
            dynamic(c.w, arg, "code", f"an option of fc is not known: {arg.reason}")
            return
        if value == "--" or value[:1] != "-" or value[1:2].isdigit():
            return  # the history's commands (`fc 10 20`, `fc -5`): the hook's fc checks them
        if "e" in value[1:]:
            attached = value[value.index("e", 1) + 1 :]
            editor = arg if attached else argv[at + 1] if at + 1 < len(argv) else None
            given = attached if attached else editor.value if editor is not None else "-"
            if editor is not None and given is None:
                dynamic(c.w, editor, "code", f"the editor fc runs is not known: {editor.reason}")
            elif editor is not None and given not in ("-", None):
                run_code(c.w, given, editor, c.depth, new_process=True, via="fc -e")
            return


def _builtin(c: Call) -> None:
    w, argv, stdin, span, depth, extra = c.w, c.argv, c.stdin, c.span, c.depth, c.extra
    if len(argv) > 1 and argv[1].value == "fc":
        _fc_unhooked(w, argv[1:])
        return
    w.calls.run_argv(w, argv[1:], stdin, span, depth, extra_unknown=extra)


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


def _sql_client(c: Call) -> None:
    """A database client: its arguments as its spec says, and SQL on its standard input (a
    heredoc or here-string) read as the code it is."""
    plain(c)
    if c.stdin is not None and c.stdin.kind == "text":
        via = (c.argv[0].value or "").rsplit("/", 1)[-1]
        text = c.stdin.text
        if text is None and c.stdin.raw is not None:
            # an unquoted heredoc: read as written; what its expansions add is not known
            text = c.stdin.raw
            if re.search(r"\$[A-Za-z_{(@*#?0-9]|`", text):
                dynamic(c.w, c.argv[0], "code", f"the SQL given to {via} is built from expansions")
        sql_text(c.w, c.argv[0], text, c.depth, via)
    elif c.stdin is not None and c.stdin.kind == "pipe" and not _sql_given(c):
        via = (c.argv[0].value or "").rsplit("/", 1)[-1]
        dynamic(c.w, c.argv[0], "code", f"{via} runs SQL read from a pipe, not known before")


_FIRST = frozenset({"-cmd", "-init"})


def _sql_given(c: Call) -> bool:
    """Whether the client is given its SQL otherwise than on standard input: an option of its
    spec's `sql` or `sql-file` roles (`psql -c`, `-f`), or SQL operands after the database
    (`sqlite3 DB SQL`); then what a pipe brings is not run as SQL."""
    spec = c.spec
    # sqlite3's and duckdb's -cmd and -init run first, then what standard input brings
    takes = {o for o, role in spec.options.items() if role in ("sql", "sql-file")} - _FIRST
    words = [a.value or "" for a in c.argv[1:]]
    valued = spec.values | spec.options.keys()  # options with a value: no operands
    attached = (w[:2] in takes and len(w) > 2 and w not in valued for w in words)  # `-cSQL`
    if any(w.split("=", 1)[0] in takes for w in words) or any(attached):
        return True
    operands = [
        w
        for i, w in enumerate(words)
        if not w.startswith("-") and (i == 0 or words[i - 1] not in valued)
    ]
    return spec.operands == "sql" and len(operands) > (1 if spec.first is not None else 0)


def _alias(c: Call) -> None:
    """`alias name='code'`: the code runs whenever the name is typed later."""
    w, argv, depth = c.w, c.argv, c.depth
    for arg in argv[1:]:
        if arg.value is None:
            dynamic(w, arg, "code", f"an alias is set to something not known: {arg.reason}")
        elif "=" in arg.value and not arg.value.startswith("-"):
            _later(w, arg.value.split("=", 1)[1], arg, depth, "alias")


CODE_KINDS: dict[str, KindHandler] = {
    "shell": _shell,
    "eval": _eval,
    "source": _source,
    "trap": _trap,
    "exec": _exec,
    "command": _command,
    "alias": _alias,
    "bind": _bind,
    "coproc": _coproc,
    "tmux": _tmux,
    "screen": _screen,
    "fc": _fc,
    "builtin": _builtin,
    "parallel": parallel,
    "sql": _sql_client,
}
