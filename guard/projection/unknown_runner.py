"""Fail closed on tools guard does not know: an operand that names a command guard knows, with
words after it, may be a command the tool runs (`entr rm -rf data`, `mywrap git push -f`).

Those words are projected as a command it may run, with the reason "unknown tool may run NAME",
so their effects and accesses are judged as if they ran. Only names guard has knowledge of
count (a spec in guard/knowledge/commands/ or effect knowledge in
guard/knowledge/commands/ (its record)): any other
name run that way would be judged as a command nobody knows, which the unknown tool's own
reading already covers (each path-shaped word is a read). Names of plain data builtins
(`echo`, `true`, `test` …) are not looked at: running them changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from guard.projection.requests import Request
from guard.projection.walk_records import Stdin
from guard.projection.walker import Walker, run_code

# names so common as plain words (subcommands, arguments) that running them is harmless
_HARMLESS = frozenset(
    {
        "echo",
        "printf",
        "true",
        "false",
        ":",
        "test",
        "[",
        "time",
        "date",
        "help",
        "type",
        "which",
        "pwd",
        "ls",
        "cat",
        "head",
        "tail",
        "wc",
        "sort",
        "uniq",
        "yes",
        "sleep",
        "wait",
        "read",
        "id",
        "env",
    }
)
MAX_LOOKED_AT = 8  # operands looked at: a tool's own arguments come first


def may_run(
    w: Walker,
    argv: list[Any],  # list[Arg]: guard/projection/invocation.py stays out of the import graph
    stdin: Stdin | None,
    span: tuple[int, int],
    depth: int,
    run: Callable[..., None],
) -> None:
    """Project `argv[i:]` as a command, for the first operand `i` that names a known command
    and has words after it."""
    from guard.knowledge import command_for

    tool = (argv[0].value or "").rsplit("/", 1)[-1]
    looked = 0
    for i in range(1, len(argv) - 1):
        word = argv[i].value
        if word is None or word.startswith("-") or "=" in word:
            continue
        looked += 1
        if looked > MAX_LOOKED_AT:
            return
        if word in _HARMLESS:
            return  # the first command named is the one it would run: this one changes nothing
        if "/" in word:
            continue
        record = command_for(word)
        if record.spec is None and record.effects is None:
            continue
        before = len(w.out)
        run(w, argv[i:], stdin, span, depth)
        _mark(w, before, tool, word)
        return


def may_run_text(w: Walker, argv: list[Any], depth: int) -> None:
    """An argument that is a shell command line naming a command guard knows (`nodemon --exec
    'rm -rf dist'`, `hyperfine 'make test'`, `mytool --cmd='git push -f'`) may be one the
    tool runs through a shell: walked as that code, its effects marked as the tool's maybe."""
    from guard.knowledge import command_for

    tool = (argv[0].value or "").rsplit("/", 1)[-1]
    for arg in argv[1 : MAX_LOOKED_AT + 1]:
        text = arg.value
        if text is None or not _COMMAND_LINE.search(text):
            continue
        if text.startswith("-"):  # --cmd='rm -rf dist': the option's value
            text = text.partition("=")[2]
        first = text.split(None, 1)[0] if text.strip() else ""
        if not first or first in _HARMLESS or "/" in first:
            continue
        record = command_for(first)
        if record.spec is None and record.effects is None:
            continue
        before = len(w.out)
        run_code(w, text, arg._replace(value=text), depth, new_process=True, via=tool)
        _mark(w, before, tool, first)


def may_run_option_code(w: Walker, argv: list[Any]) -> None:
    """A program guard does not know given code through an option that takes code by long
    convention (`-e`, `-c`, `--eval`, `--do` …: CODE_OPTIONS), written like code (brackets,
    quotes, `;`, `$`): it may run it, in a language guard cannot read, so it asks."""
    from guard.knowledge import CODE_OPTIONS
    from guard.projection.walker import dynamic

    tool = (argv[0].value or "").rsplit("/", 1)[-1]
    for at, arg in enumerate(argv[1:], 1):
        word = arg.value
        if word is None or word[:1] != "-" or word == "--":
            continue
        name, eq, value = word.partition("=")
        if name not in CODE_OPTIONS:
            continue
        given = argv[at + 1] if not eq and at + 1 < len(argv) else arg
        text = value if eq else given.value
        if text is not None and _CODE_LIKE.search(text):
            dynamic(w, given, "code", f"{tool} may run the code given to {name}, not read")
            return


_CODE_LIKE = re.compile(r"[()\[\]{};$`\"'<>|&]")
_COMMAND_LINE = re.compile(r"\S\s+\S|[;|&]")  # words and blanks, or a list or pipe


def _mark(w: Walker, before: int, tool: str, word: str) -> None:
    why = f"unknown tool may run {word} ({tool})"
    for k in range(before, len(w.out)):
        r: Request = w.out[k]
        if r.surface == "command" and r.argv[:1] == (word,) and r.reason == f"runs {word}":
            w.out[k] = r._replace(reason=why)
        elif r.surface == "effect":
            w.out[k] = r._replace(reason=f"{r.reason} ({why})")
