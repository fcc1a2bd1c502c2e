"""`guard explain`: the projection and verdict of a command line, without running anything."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Callable, Iterator
from typing import Any

from guard.cli import summary
from guard.entry import LineRequest, as_json, decide_line
from guard.errors import GuardError
from guard.printable import escaped
from guard.projection import display
from guard.verdict import Judgement

COLOURS = {"allow": "32", "ask": "33", "deny": "31"}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("explain", help=summary("explain"))
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--jsonl",
        action="store_true",
        help="read commands from stdin, one JSON string per line; one object each",
    )
    p.add_argument("--cwd", help="the directory the line would run in (default: here)")
    p.add_argument("--session", help="the session whose approvals count")
    p.add_argument(
        "--enforce",
        action="store_true",
        help="also print the Landlock ruleset guarded-bash would run the line under",
    )
    p.add_argument(
        "command",
        nargs="*",
        help="the command line: its words after explain's options (or after --), or one "
        "quoted word; - reads it from stdin",
    )
    p.set_defaults(run=run, error_status=2)


FLAGS = ("--json", "--jsonl", "--enforce", "--help")  # explain's options, for `arguments`
VALUED = ("--cwd", "--session")  # … and those that take a value
# written after a line's first word, these could be the line's or explain's (-h and --help
# there are the line's: `guard explain df -h`)
AMBIGUOUS = ("--json", "--jsonl", "--enforce", *VALUED)


def arguments(argv: list[str]) -> list[str]:
    """`explain [OPTIONS] WORDS…` as argparse reads it: ``--`` put before the first word that
    is not one of explain's options, so `guard explain ls -la` explains `ls -la`. A word after
    the line that is exactly one of explain's options (`guard explain ls --json`) could be either,
    and an unknown option before it could be the line's: GuardError, with what to type."""
    at = 1
    while at < len(argv):
        word = argv[at]
        if word in ("--", "-"):
            return argv
        name = _own(word)
        if name in VALUED and "=" not in word:
            at += 2
        elif name or word == "-h":
            at += 1
        elif word.startswith("-"):
            raise GuardError(
                f"guard: explain has no option {escaped(word)}; to explain a line that starts "
                f"with it, put the line after --: guard explain -- {_typed(argv[at:])}"
            )
        else:
            break
    line = argv[at:]
    for i, word in enumerate(line):
        name = word.split("=", 1)[0]
        if name in AMBIGUOUS:
            taken = 2 if name in VALUED and "=" not in word else 1
            options, rest = line[i : i + taken], line[:i] + line[i + taken :]
            raise GuardError(
                f"guard: is {escaped(word)} part of the line or an option of explain? Options "
                f"go before the line: guard explain {_typed([*argv[1:at], *options])} -- "
                f"{_typed(rest)}; a line with it goes after --: guard explain -- {_typed(line)}"
            )
    return [*argv[:at], "--", *line] if line else argv


def _typed(words: list[str]) -> str:
    return escaped(shlex.join(words))


def _own(word: str) -> str:
    """The explain option ``word`` names (`--js` is short for `--json`, `--cwd=x` is
    `--cwd`), or ""; GuardError when it is short for more than one."""
    name = word.split("=", 1)[0]
    if not name.startswith("--") or len(name) < 3:
        return ""
    if name in FLAGS or name in VALUED:
        return name
    matches = [o for o in (*FLAGS, *VALUED) if o.startswith(name)]
    if len(matches) > 1:
        raise GuardError(f"guard: {escaped(word)} could be {' or '.join(matches)}; write it whole")
    return matches[0] if matches else ""


def run(args: argparse.Namespace) -> int:
    from guard.verdict import current_session

    session = args.session or current_session()
    if args.jsonl:
        return _jsonl(args, session)
    if not args.command:
        print(
            "guard: explain needs a command line, e.g. guard explain -- 'cat /etc/hosts'",
            file=sys.stderr,
        )
        return 2
    command = " ".join(args.command)
    if args.command == ["-"]:
        command = sys.stdin.read().removesuffix("\n")  # the line as a file holds it, all of it
    result = decide_line(LineRequest(command, cwd=args.cwd, session=session))
    for warning in result.warnings + result.notes:
        print(escaped(warning), file=sys.stderr)
    if args.json:
        out = as_json(result)
        if args.enforce:  # issue 17: the ruleset the line would run under
            from guard.kernel import describe_json

            out["enforce"] = describe_json(result, result.context.env)
        print(json.dumps(out, ensure_ascii=True))
    else:
        sys.stdout.write(render(result, colour=_colour()))
        if args.enforce:  # issue 17: the ruleset the line would run under
            from guard.kernel import describe

            sys.stdout.write(describe(result, result.context.env))
    return 0


def _jsonl(args: argparse.Namespace, session: str) -> int:
    """One object per input line, in order, flushed as it is written: a line that is not a JSON
    string, or that guard fails on, is an object with a `syntax` request (and an `error`)."""
    from guard.entry import JsonLines
    from guard.verdict import LineCache, agent_session

    cache = LineCache()
    encoded = JsonLines()
    env = dict(os.environ)
    agent = agent_session(env)  # the same for every line: this environment and this stdin
    status = 0
    out = sys.stdout
    pending: list[str] = []  # answers not yet written: one write for many (PYTHONUNBUFFERED too)

    def flush() -> None:
        out.write("".join(pending))
        pending.clear()
        out.flush()

    try:
        for number, raw in enumerate(_lines(sys.stdin.fileno(), flush), 1):
            line = raw.decode("utf-8", "surrogateescape")
            if not line.strip():
                continue
            try:
                command = json.loads(line)
            except (json.JSONDecodeError, RecursionError) as exc:
                command = None
                problem = f"line {number} is not JSON: {getattr(exc, 'msg', exc)}"
            else:
                problem = f"line {number} is not a JSON string"
            if isinstance(command, str):
                try:
                    asked = LineRequest(
                        command, cwd=args.cwd, env=env, session=session, cache=cache, agent=agent
                    )
                    text = encoded.line(decide_line(asked))
                except Exception as exc:  # fail closed, and go on with the next line
                    status = 2
                    why = str(exc).removeprefix("guard: ")
                    text = _line(_problem(command, f"guard could not check line {number}: {why}"))
            else:
                status = 2
                text = _line(
                    _problem(line.rstrip("\n"), f"{problem}; write one JSON string per line")
                )
            pending.append(text)
            if len(pending) >= 256:
                flush()
    finally:
        flush()
        cache.close()
    return status


def _lines(fd: int, flush: Callable[[], None]) -> Iterator[bytes]:
    """The lines read from `fd`; `flush` is called before each read that may wait, so a client
    that writes one line and waits gets its answer, and a stream is answered in big writes."""
    rest = b""
    while True:
        flush()
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if rest:
                yield rest
            return
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        yield from lines


def _line(answer: dict[str, Any]) -> str:
    return json.dumps(answer, ensure_ascii=True) + "\n"


def _problem(command: str, problem: str) -> dict[str, Any]:
    """The answer for a line guard could not read: it asks, with a `syntax` request."""
    reason = f"guard: {problem}"
    return {
        "command": command,
        "decision": "ask",
        "reasons": [f"ask: {reason}"],
        "requests": [
            {
                "surface": "syntax",
                "decision": "ask",
                "by": "default",
                "reason": reason,
                "span": [0, len(command.encode("utf-8", "surrogateescape"))],
                "text": command[:80],
            }
        ],
        "warnings": [],
        "error": reason,
    }


def _colour() -> bool:
    import os

    return (
        sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    )


def render(result: Judgement, *, colour: bool) -> str:
    """The line with the parts that matter marked, one line per request, and the verdict."""
    command = result.projection.command
    marks = [d.request.span for d in result.verdict.decided if d.decision != "allow"]
    lines = ["  " + escaped(ln) for ln in command.split("\n")]
    if marks and "\n" not in command:
        lines.append("  " + underline(command, marks))
    home = result.context.home
    effects: list[str] = []
    for d in result.verdict.decided:
        r = d.request
        if r.surface == "effect":  # in a section of their own, below
            shown = _tag(d.decision, colour)
            effects.append(
                f"  {shown:<5} effect  {r.kind} {r.target}  ({r.text})  {r.reason}   [{d.by}]"
            )
            continue
        what = {
            "command": lambda r=r: "runs " + " ".join(r.argv),
            "external_directory": lambda r=r: f"{r.access} {display(r.path, home)} ({r.via})",
            "protected": lambda r=r: f"{r.access} {display(r.path, home)} ({r.via})",
            "dynamic": lambda r=r: f"unknown: {r.text} — {r.reason}",
            "syntax": lambda r=r: f"syntax: {r.reason}",
        }[r.surface]()
        what = escaped(what)
        tag: str = d.decision
        if colour:
            tag = f"\x1b[{COLOURS[d.decision]}m{tag}\x1b[0m"
        lines.append(f"  {tag:<5} {r.surface:<18} {what}   [{d.by}]")
    roots = ", ".join(display(root, home) for root in result.context.workspace)
    why = result.workspace_why
    if roots:
        lines.append(f"workspace: {roots}" + (f" ({why})" if why else ""))
    else:
        lines.append(f"workspace: {why or 'none'}")
    if effects:
        lines.append("effects:")
        lines.extend(effects)
    verdict = result.verdict.decision
    head = f"\x1b[1;{COLOURS[verdict]}m{verdict}\x1b[0m" if colour else verdict
    lines.append(f"verdict: {head}")
    for reason in result.verdict.reasons:
        lines.append(f"  - {escaped(reason)}")
    return "\n".join(lines) + "\n"


def _tag(decision: str, colour: bool) -> str:
    return f"\x1b[{COLOURS[decision]}m{decision}\x1b[0m" if colour else decision


def underline(command: str, marks: list[tuple[int, int]]) -> str:
    """``^`` under the characters of the escaped ``command`` that the byte spans ``marks``
    cover, so the marks stay under their text when a control character prints as ``\\e``."""
    flags = bytearray(len(command.encode("utf-8", "surrogateescape")) + 1)
    for start, end in marks:
        flags[max(0, start) : max(end, start + 1)] = b"\x01" * (max(end, start + 1) - max(0, start))
    out, pos = [], 0
    for ch in command:
        size = len(ch.encode("utf-8", "surrogateescape"))
        out.append(("^" if any(flags[pos : pos + size]) else " ") * len(escaped(ch)))
        pos += size
    return "".join(out).rstrip()
