"""Code that a command carries to somewhere else: an interpreter's inline code (`python -c`,
`node -e`, a heredoc on `python3`'s stdin) and the command `ssh HOST CMD` runs on HOST.

Inline code is read by guard/languages/inline_code.py; what it finds is handed back here as the
walker's
own requests: shell lines are walked as shell (as a `bash -c` string is), paths are accesses,
what cannot be seen is `dynamic`. A remote command is walked as shell too, and only its effects
are kept, reported with the host (its paths are the other machine's).
"""

from __future__ import annotations

import re

from guard.knowledge import Interpreter, command_for
from guard.projection.accesses import access, add_effect, written_code, written_path
from guard.projection.requests import Request
from guard.projection.walk_records import Arg, Stdin
from guard.projection.walker import MAX_NESTING, Walker, dynamic, run_code


def inline_code(
    w: Walker, argv: list[Arg], record: Interpreter, stdin: Stdin | None, depth: int
) -> None:
    """Find the code an interpreter runs (an option's value, or its stdin) and project it."""
    via = (argv[0].value or record.language).rsplit("/", 1)[-1]
    codes: list[Arg] = []
    quiet = False
    scripts: list[Arg] = []  # files given with an option: their code is read as files are
    language = record.language
    i = 1
    while i < len(argv):
        arg, value = argv[i], argv[i].value
        i += 1
        if value == "-" or (value == "--" and record.files):
            break  # the code comes from standard input; or only files it opens follow
        if value is None or value == "--" or not value.startswith("-"):
            if record.files:  # a file it opens (its options may follow), or `+CMD`
                codes.extend(_plus_code(arg))
                continue
            if not codes and value in record.code_words:
                codes.append(_next(argv, i))  # deno eval CODE
            elif not codes and (record.edits or record.connects or _stdin_named(argv)):
                continue  # the file it edits (ed), the host (ftp), the program `gdb -x
                # /dev/stdin` debugs: its commands come from stdin
            elif not codes and value in record.script_words:
                continue  # deno run SCRIPT: the script is the next operand
            elif not codes and value in _STDIN_FILES:
                break  # `python3 /dev/stdin <<< CODE`: the code comes from standard input
            elif not codes and _unknowable_script(w, arg, via):
                return  # `deno run https://…`, `python3 <(curl …)`
            elif not codes:
                script = _written_script(w, arg, via)
                if script is None:
                    return  # a script (or one not known): its code is a file guard reads as such
                codes.append(script)
            break
        name, eq, attached = value.partition("=")
        if not eq and ":" in value:  # nim --eval:CODE, --path:DIR
            before, colon, after = value.partition(":")
            if before in record.code or before in record.scripts or before in record.values:
                name, eq, attached = before, colon, after
        if record.any_option and name not in record.quiet:
            dynamic(w, arg, "code", f"{via}'s options may carry code guard cannot read")
            return
        attached_short = value[:2] in record.languages and value[2:3] not in ("", "-")
        if name in record.languages or attached_short:  # osascript -l JavaScript (-lJavaScript)
            chosen = value[2:] if attached_short else attached if eq else _next(argv, i).value
            if chosen is None or chosen.lower() != record.language:
                language = "unread"  # not the language guard reads
        if name in record.code:
            codes.append(arg._replace(value=attached) if eq else _next(argv, i))
            i += 0 if eq else 1
            continue
        if name in record.scripts:  # code given after the file runs too (vim -S f -c CODE)
            named = attached if eq else _next(argv, i).value if _takes(argv, i) else None
            if named not in _STDIN_FILES:  # `gdb -x /dev/stdin <<< …`: its code is stdin's
                scripts.append(arg)
            i += 0 if eq or not _takes(argv, i) else 1
            continue
        if name in record.values:
            i += 0 if eq else 1
            continue
        if name in record.quiet:
            quiet = True
            continue
        if value.startswith("--"):
            continue
        step = _cluster(w, argv, i, arg, record, codes, scripts, stdin, depth)
        if step is None:
            return
        i += step
    if not codes and not scripts and not quiet:
        codes = _stdin_code(w, argv, record, stdin, via)
    for code in codes:
        _project(w, argv, code, language, via, depth)


def _stdin_code(
    w: Walker, argv: list[Arg], record: Interpreter, stdin: Stdin | None, via: str
) -> list[Arg]:
    """The code it reads from standard input when given none otherwise: known text (a heredoc,
    `echo … |`), or none (a terminal, a file: a script); a pipe from anything else asks."""
    named = _stdin_named(argv)
    if not (record.stdin or named or _letters_given(argv, record.stdin_letters)) or stdin is None:
        return []  # nothing read from standard input
    if stdin.kind in ("terminal", "file"):
        return []  # interactive, or a script read from a file
    if stdin.kind == "text" and stdin.text is not None:
        return [Arg(stdin.text, argv[0].span, argv[0].source)]
    dynamic(w, argv[0], "code", f"{via} runs code read from a pipe, not known before")
    return []


def _stdin_named(argv: list[Arg]) -> bool:
    """Whether a word names standard input as a file (`gdb -x /dev/stdin`)."""
    return any(a.value in _STDIN_FILES for a in argv[1:])


def _letters_given(argv: list[Arg], letters: str) -> bool:
    """Whether a short option among the words (alone or in a cluster) is one of `letters`."""
    return bool(letters) and any(
        (a.value or "")[:1] == "-" and (a.value or "")[1:2] not in ("", "-")
        and any(c in letters for c in (a.value or "")[1:])
        for a in argv[1:]
    )  # fmt: skip


# `vim +`, `+42`, `+/pattern`: where the cursor starts, no command
_CURSOR = re.compile(r"\d*|[/?].*", re.DOTALL)


def _plus_code(arg: Arg) -> list[Arg]:
    """`vim +CMD FILE`: the Ex command run once the file is open (none for a cursor place)."""
    value = arg.value or ""
    if value[:1] == "+" and not _CURSOR.fullmatch(value[1:]):
        return [arg._replace(value=value[1:])]
    return []

# a script named by the descriptor it is read from
_STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_URL = re.compile(r"(?i)https?://")
_DESCRIPTOR = re.compile(r"/dev/fd/\d+|/proc/(?:self|thread-self|\d+)/fd/\d+")


def _unknowable_script(w: Walker, arg: Arg, via: str) -> bool:
    """A script fetched from a URL, or read from a descriptor other than standard input (a
    process substitution's): its code is not known before it runs, so it asks."""
    value = arg.value or ""
    if _URL.match(value):
        where = f"fetched from {value}"
    elif _DESCRIPTOR.fullmatch(value):
        where = f"read from {value}"
    else:
        return False
    dynamic(w, arg, "code", f"{via} runs code {where}, not known before it runs")
    return True


def _cluster(
    w: Walker,
    argv: list[Arg],
    i: int,
    arg: Arg,
    record: Interpreter,
    codes: list[Arg],
    scripts: list[Arg],
    stdin: Stdin | None,
    depth: int,
) -> int | None:
    """Read one cluster of short options (`-lane`, `-Ilib`, `-cCODE`): how many more words it
    takes, or None when the interpreter runs a module rather than inline code. A file given
    with an option (`-x FILE`) is noted in `scripts`, and the options after it are read on."""
    value = arg.value or ""
    for j in range(1, len(value)):
        opt = "-" + value[j]
        rest = value[j + 1 :]
        if opt in record.code:
            if rest and "-" + rest in record.code:  # node -pe CODE: --print --eval, the code next
                codes.append(_next(argv, i))
                return 1
            codes.append(arg._replace(value=rest) if rest else _next(argv, i))
            return 0 if rest else 1
        if opt in record.scripts:
            scripts.append(arg)
            return 0 if rest or not _takes(argv, i) else 1
        if opt in record.values:
            return 0 if rest else 1
        if opt == "-m" and record.language == "python":  # python -m twine upload: the module's
            module = arg._replace(value=rest) if rest else _next(argv, i)
            tool = [module, *argv[i + (0 if rest else 1) :]]
            known = command_for(module.value or "").spec
            w.calls.command_effects(w, tool, known, stdin, argv[0].span, depth)
            return None
    return 0


def _written_script(w: Walker, arg: Arg, via: str) -> Arg | None:
    """A script this line writes before it runs it (`cat > x.py <<EOF … EOF; python3 x.py`):
    its code is what the line put there; None for a script the line does not write."""
    key = written_path(w, arg.value) if arg.value else None
    wrote, content = written_code(w, key) if key is not None else (False, None)
    if not wrote:
        return None
    if content is None:
        return arg._replace(value=None, reason=f"{arg.source} is written by this line")
    return arg._replace(value=content, reason="")


def _takes(argv: list[Arg], i: int) -> bool:
    """Whether the word at `i` is the file an option names: not another option (`vim -S -c
    CODE` sources Session.vim and runs CODE), so what follows is read on, the strict way."""
    return i < len(argv) and not (argv[i].value or "").startswith("-")


def _next(argv: list[Arg], i: int) -> Arg:
    if i < len(argv):
        return argv[i]
    return Arg("", argv[0].span, argv[0].source)


def _project(w: Walker, argv: list[Arg], code: Arg, language: str, via: str, depth: int) -> None:
    from guard.languages import ed_findings, python_findings, script_findings, vim_findings

    if code.value is None:
        dynamic(w, code, "code", f"the code {via} runs is not known: {code.reason}")
        return
    if language == "unread":
        dynamic(w, code, "code", f"{via} runs code guard cannot read")
        return
    if language == "python":
        found = python_findings(code.value, w.ctx.home)
    elif language == "vim":
        found = vim_findings(code.value)
    elif language == "ed":
        found = ed_findings(code.value)
    else:
        found = script_findings(language, code.value)
    shown = tuple([a.shown for a in argv])
    for finding in found:
        if finding.what == "shell":
            run_code(w, finding.text, code._replace(reason=""), depth, new_process=True, via=via)
        elif finding.what in ("read", "write"):
            access(w, code, finding.text, finding.what, via)
        elif finding.what == "destroy":
            reason = f"{via} code removes {finding.text} and everything below it"
            add_effect(w, code.span, "destroy", "files", reason, shown)
        else:
            dynamic(w, code, "code", f"{via} code: {finding.text}")


def remote_code(w: Walker, text: str, arg: Arg, depth: int, host: str) -> None:
    """Walk what `ssh HOST CMD` runs on HOST and keep its effects, with the host."""
    if w.nesting >= MAX_NESTING:
        return  # the remote effect itself still asks
    found: list[Request] = []
    w.calls.walk_source(
        text,
        w.ctx,
        w.scope.child_process(None, None),
        found,
        nesting=w.nesting + 1,
        span=w.fixed_span or arg.span,
        functions={},
    )
    for r in found:
        if r.surface == "effect":
            w.out.append(r._replace(target=f"{r.target}@{host}", reason=f"{r.reason} (on {host})"))
