"""GNU parallel, read as xargs is read: the jobs it runs are commands built from its arguments.

`parallel [OPTIONS] COMMAND… ::: ARGS… [::: ARGS…]` runs COMMAND once per argument (each
combination of the groups), the argument shell-quoted in place of `{}` (`{.}`, `{/}`, `{1}` …)
or after the command, and runs the result through a shell (`-q` keeps the words apart); a
replacement that begins the command is not quoted (`parallel {} ::: 'echo a; id'` runs both). With
literal `:::` arguments every job is known and walked as the shell line it is: `parallel gzip
::: a b` runs `gzip a` and `gzip b`. Arguments read from standard input, `::::` files or `-a`
are not known: the command is read as xargs's is (its extra arguments come from input; from a
known producer, `find src | parallel gzip`, they are paths under what it was given). Jobs on
other machines, perl replacement strings (`{= … =}`) and options that run code ask. The options
are data in guard/knowledge/commands/shells.py (`PARALLEL`).
"""

from __future__ import annotations

import itertools
import re
import shlex

from guard.knowledge import PARALLEL
from guard.projection.accesses import access
from guard.projection.plain_commands import substituted
from guard.projection.walk_records import Arg, Stdin
from guard.projection.walker import Call, Walker, dynamic, run_code

MAX_JOBS = 64  # more known jobs than this are not walked one by one: the line asks
_REPLACEMENT = re.compile(r"\{(?:\d+)?(?:\.|/|//|/\.)?\}|\{#\}|\{%\}")
_PLAIN_WORD = re.compile(r"[\w@%+=:,./{}#-]+")


def parallel(c: Call) -> None:
    w, argv = c.w, c.argv
    read = _options(w, argv)
    if read is None:
        return
    start, quote = read
    semaphore = (argv[0].value or "").rsplit("/", 1)[-1] == "sem" or any(
        a.value == "--semaphore" for a in argv[1:start]
    )
    if semaphore:  # `sem CMD…`: one job, the command's words run through a shell
        _known_jobs(c, argv[start:], [], quote)
        return
    end = next((i for i in range(start, len(argv)) if argv[i].value in PARALLEL.separators), None)
    command = argv[start : end if end is not None else len(argv)]
    groups = _groups(w, argv, end) if end is not None else None
    if any(a.value is not None and "{=" in a.value for a in command):
        dynamic(w, command[0], "code", "parallel runs perl code in a {= … =} replacement")
        return
    if groups is not None and all(g is not None for g in groups):
        known = [g for g in groups if g is not None]
        _known_jobs(c, command, known, quote)
        return
    if groups is None and any(a.value in ("--pipe", "--pipepart") for a in argv[1:start]):
        # its input is split into blocks on the command's standard input: no arguments added
        c.w.calls.run_argv(c.w, command, c.stdin, c.span, c.depth, extra_unknown=False)
        return
    _unknown_input(c, command, quote, from_stdin=end is None)


def _options(w: Walker, argv: list[Arg]) -> tuple[int, bool] | None:
    """Where the command starts, and whether -q keeps its words apart; None when an option
    already asked."""
    quote = False
    i = 1
    while i < len(argv):
        arg, value = argv[i], argv[i].value
        if value is None:
            dynamic(w, arg, "code", f"an option of parallel is not known: {arg.reason}")
            return None
        if value == "--":
            return i + 1, quote
        if not value.startswith("-") or value in PARALLEL.separators or value == "-":
            return i, quote
        name, eq, attached = value.partition("=")
        if not value.startswith("--") and len(value) > 2 and value[:2] in PARALLEL.values:
            name, eq, attached = value[:2], "=", value[2:]  # -j4, -I{}
        given = attached if eq else (argv[i + 1].value if i + 1 < len(argv) else None)
        if name in PARALLEL.remote:
            dynamic(w, arg, "code", f"parallel {name} runs the jobs on other machines")
        elif name in PARALLEL.code:
            dynamic(w, arg, "code", f"parallel {name} runs code guard does not read")
        elif name in PARALLEL.reads or name in PARALLEL.writes:
            if given is None:
                dynamic(w, arg, "path", f"a path parallel {name} names is not known")
            else:
                access(w, arg, given, "read" if name in PARALLEL.reads else "write", "parallel")
        elif name in ("-q", "--quote"):
            quote = True
        i += 1 if eq or name not in PARALLEL.values else 2
    return i, quote


def _groups(w: Walker, argv: list[Arg], at: int) -> list[list[str] | None]:
    """The argument groups after the command: `:::` words as given, `::::` files (read, their
    lines not known)."""
    groups: list[list[str] | None] = []
    kind = ""
    for arg in argv[at:]:
        if arg.value in PARALLEL.separators:
            kind = arg.value or ""
            groups.append([] if kind.startswith(":::") and not kind.startswith("::::") else None)
            continue
        if kind.startswith("::::"):
            if arg.value is None:
                dynamic(w, arg, "path", "a file of arguments parallel reads is not known")
            else:
                access(w, arg, arg.value, "read", "parallel")
            continue
        group = groups[-1]
        if group is not None:
            if arg.value is None:
                groups[-1] = None
            else:
                group.append(arg.value)
    return groups


def _known_jobs(c: Call, command: list[Arg], groups: list[list[str]], quote: bool) -> None:
    """Every job, walked as the shell line (or argv) parallel makes of it."""
    w = c.w
    jobs = 1
    for group in groups:
        jobs *= max(len(group), 1)
    if jobs > MAX_JOBS:
        dynamic(w, c.argv[0], "code", f"parallel runs {jobs} jobs, more than guard reads")
        return
    words = [a.value for a in command]
    if any(word is None for word in words):
        unknown = next(a for a in command if a.value is None)
        dynamic(w, unknown, "code", f"the command parallel runs is not known: {unknown.reason}")
        return
    where = command[0] if command else c.argv[0]
    for number, combo in enumerate(itertools.product(*[g for g in groups if g]), 1):
        line = _job(words, list(combo), number, quote)  # type: ignore[arg-type]
        run_code(w, line, where._replace(reason=""), c.depth, new_process=True, via="parallel")


def _job(words: list[str], args: list[str], number: int, quote: bool) -> str:
    """The shell line of one job: the arguments in place of the replacement strings, or after
    the command; with no command, the arguments are the command."""
    if not words:
        return " ".join(args)

    def fill(m: re.Match[str], *, raw: bool = False) -> str:
        token = m.group(0)
        if token == "{#}":
            return str(number)
        if token == "{%}":
            return "1"
        digits = re.match(r"\{(\d+)", token)
        index = int(digits.group(1)) - 1 if digits else 0
        value = args[index] if 0 <= index < len(args) else ""
        rest = token[len(digits.group(0)) : -1] if digits else token[1:-1]
        if rest == ".":
            value = re.sub(r"\.[^./]*$", "", value)
        elif rest == "/":
            value = value.rsplit("/", 1)[-1]
        elif rest == "//":
            value = value.rsplit("/", 1)[0] if "/" in value else "."
        elif rest == "/.":
            value = re.sub(r"\.[^./]*$", "", value.rsplit("/", 1)[-1])
        return value if raw else shlex.quote(value)

    def fill_first(m: re.Match[str]) -> str:
        return fill(m, raw=m.start() == 0)

    if any(_REPLACEMENT.search(word) for word in words):
        # an argument that begins the command (`parallel {} ::: 'echo a; id'`) is the command's
        # text, as parallel runs it: not quoted (bash runs `echo a; id`), unlike one after it
        filled = [
            _REPLACEMENT.sub(fill_first if at == 0 else fill, word) for at, word in enumerate(words)
        ]
    else:
        filled = [*words, *(shlex.quote(a) for a in args)]
    if quote:
        return " ".join(shlex.quote(word) for word in filled)
    return " ".join(filled)


def _unknown_input(c: Call, command: list[Arg], quote: bool, *, from_stdin: bool) -> None:
    """Arguments from input nobody knows: the command is read as xargs's is."""
    w = c.w
    if not command:
        dynamic(w, c.argv[0], "code", "parallel runs the commands it reads from its input")
        return
    plain_words = quote or all(
        a.value is not None and _PLAIN_WORD.fullmatch(a.value) for a in command
    )
    if not plain_words:
        dynamic(w, c.argv[0], "code", "parallel runs shell commands built from its input")
        return
    stdin = c.stdin if from_stdin else Stdin("pipe")
    roots = stdin.roots if stdin is not None else None
    root = roots[0] if roots and len(roots) == 1 else None
    replaced = any(a.value is not None and _REPLACEMENT.search(a.value) for a in command)
    inner = [
        substituted(
            a, m.group(0), root, "input parallel puts there", stdin.secrets if stdin else ()
        )
        if a.value is not None and (m := _REPLACEMENT.search(a.value))
        else a
        for a in command
    ]
    w.calls.run_argv(w, inner, stdin, c.span, c.depth, extra_unknown=not replaced)
