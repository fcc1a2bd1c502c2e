"""`guard explain`: the projection and verdict of a command line, without running anything."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from guard.judgement import Judgement, judge
from guard.paths import display
from guard.printable import escaped
from guard.requests import Decided

COLOURS = {"allow": "32", "ask": "33", "deny": "31"}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("explain", help="show what a command line would do and the verdict")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--jsonl",
        action="store_true",
        help="read commands from stdin, one JSON string per line; one object each",
    )
    p.add_argument("--cwd", help="the directory the line would run in (default: here)")
    p.add_argument("--session", help="the session whose approvals count")
    p.add_argument(
        "command",
        nargs="*",
        help="the command line (quote it, or put it after --); - reads it from stdin",
    )
    p.set_defaults(run=run, error_status=2)


def run(args: argparse.Namespace) -> int:
    from guard.session import current_session

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
    result = judge(command, cwd=args.cwd, session=session)
    for warning in result.warnings + result.notes:
        print(escaped(warning), file=sys.stderr)
    if args.json:
        print(json.dumps(as_json(result), ensure_ascii=True))
    else:
        sys.stdout.write(render(result, colour=_colour()))
    return 0


def _jsonl(args: argparse.Namespace, session: str) -> int:
    status = 0
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            command = json.loads(line)
        except json.JSONDecodeError as exc:
            command = None
            problem = f"line {number} is not JSON: {exc.msg}"
        else:
            problem = f"line {number} is not a JSON string"
        if not isinstance(command, str):
            print(json.dumps({"error": f"guard: {problem}; write one JSON string per line"}))
            status = 2
            continue
        print(
            json.dumps(as_json(judge(command, cwd=args.cwd, session=session)), ensure_ascii=True)
        )
    return status


def as_json(result: Judgement) -> dict[str, Any]:
    v = result.verdict
    return {
        "command": result.projection.command,
        "cwd": result.projection.cwd,
        "workspace": list(result.projection.workspace),
        "decision": v.decision,
        "reasons": list(v.reasons),
        "requests": [_request_json(d) for d in v.decided],
        "warnings": list(result.warnings + result.notes),
    }


def _request_json(d: Decided) -> dict[str, Any]:
    r = d.request
    out: dict[str, Any] = {
        "surface": r.surface,
        "decision": d.decision,
        "by": d.by,
        "reason": r.reason,
        "span": list(r.span),
    }
    if r.surface == "command":
        out["argv"] = list(r.argv)
    elif r.surface == "external_directory":
        out["path"] = r.path
        out["access"] = r.access
        out["via"] = r.via
    else:
        out["text"] = r.text
        if r.role:
            out["role"] = r.role
    return out


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
    for d in result.verdict.decided:
        r = d.request
        what = {
            "command": lambda r=r: "runs " + " ".join(r.argv),
            "external_directory": lambda r=r: f"{r.access} {display(r.path, home)} ({r.via})",
            "dynamic": lambda r=r: f"unknown: {r.text} — {r.reason}",
            "syntax": lambda r=r: f"syntax: {r.reason}",
        }[r.surface]()
        what = escaped(what)
        tag: str = d.decision
        if colour:
            tag = f"\x1b[{COLOURS[d.decision]}m{tag}\x1b[0m"
        lines.append(f"  {tag:<5} {r.surface:<18} {what}   [{d.by}]")
    verdict = result.verdict.decision
    head = f"\x1b[1;{COLOURS[verdict]}m{verdict}\x1b[0m" if colour else verdict
    lines.append(f"verdict: {head}")
    for reason in result.verdict.reasons:
        lines.append(f"  - {escaped(reason)}")
    return "\n".join(lines) + "\n"


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
