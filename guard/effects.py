"""The reader of guard/effect_knowledge.py: what one command destroys, discards, publishes, runs
elsewhere or escalates, as `effect` requests.

Called for every command the walker reaches (wrapped ones, `$( )`, xargs and find -exec
included). The argv is split into options and operands with the tool's own list of options that
take a value, so `git commit -m "…--force…"` or `rm --version` never match; long options may be
abbreviated where the tool allows it (`git reset --ha`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from guard.commands import Spec
from guard.effect_knowledge import (
    ALIASES,
    DESTRUCTIVE_VERBS,
    INTERPRETERS,
    TOOLS,
    Effect,
    Tool,
)
from guard.invocation import Arg, dynamic
from guard.patterns import render_argv
from guard.requests import Request
from guard.walker import Stdin, Walker


class Parsed(NamedTuple):
    """An argv split by a tool's options: every option given, values, operands in order."""

    options: frozenset[str]
    values: dict[str, str | None]
    operands: tuple[str | None, ...]
    dashdash: int  # how many operands came before `--` (all of them when there is none)


class Found(NamedTuple):
    target: str
    reason: str = ""  # "" keeps the row's reason


class EffectCall(NamedTuple):
    w: Walker
    argv: list[Arg]
    parsed: Parsed
    stdin: Stdin | None
    depth: int
    name: str


def parse(argv: Sequence[str | None], tool: Tool) -> Parsed:
    """Split argv[1:]: bundled short options, `--opt=value`, values in the next word, `--`."""
    options: set[str] = set()
    values: dict[str, str | None] = {}
    operands: list[str | None] = []
    dashdash = -1
    i, n = 1, len(argv)
    while i < n:
        arg = argv[i]
        i += 1
        if arg is None or dashdash >= 0 or arg == "-" or not arg.startswith("-"):
            operands.append(arg)
            if tool.ends_at_operand:
                operands.extend(argv[i:])
                break
            continue
        if arg == "--":
            dashdash = len(operands)
            continue
        mine = options if operands or not tool.global_first else set()  # git -C DIR: git's
        if arg.startswith("--") or (tool.single_dash_long and len(arg) > 2):
            name, eq, value = arg.partition("=")
            mine.add(name)
            if eq:
                values[name] = value
            elif name in tool.values and i < n:
                values[name] = argv[i]
                i += 1
            continue
        for j in range(1, len(arg)):
            opt = "-" + arg[j]
            mine.add(opt)
            if opt in tool.values:
                if j + 1 < len(arg):
                    values[opt] = arg[j + 1 :]
                elif i < n:
                    values[opt] = argv[i]
                    i += 1
                break
    return Parsed(frozenset(options), values, tuple(operands), dashdash if dashdash >= 0 else n)


def command_effects(
    w: Walker,
    argv: list[Arg],
    spec: Spec | None,
    stdin: Stdin | None,
    span: tuple[int, int],
    depth: int,
) -> None:
    """Append the effect requests of one command (argv[0] is its name, known)."""
    base = (argv[0].value or "").rsplit("/", 1)[-1]
    name = ALIASES.get(base) or ("mkfs" if base.startswith("mkfs.") else base)
    tool = TOOLS.get(name)
    if tool is None:
        language = INTERPRETERS.get(name) or INTERPRETERS.get(name.rstrip("0123456789."))
        if language is not None:
            from guard.interpreter_effects import inline_code

            inline_code(w, argv, language, stdin, depth)
        elif spec is None and name not in w.functions:
            _unknown_tool(w, argv, name, span)
        return
    values = [a.value for a in argv]
    by_word, always = _index(name, tool)
    if not always and None not in values and not any(v in by_word for v in values):
        return  # `git status`: no row can match (the common case, without parsing)
    parsed = parse(values, tool)
    if "--help" in parsed.options or "--version" in parsed.options:
        return
    first = parsed.operands[0] if parsed.operands else None
    if first is None and parsed.operands and by_word:
        unknown = next(a for a in argv[1:] if a.value is None)
        reason = f"{name}'s subcommand is not known, so what it destroys or publishes is not"
        dynamic(w, unknown, "command_name", f"{reason}: {unknown.reason}")
        return
    rows = by_word.get(first, always) if first is not None else always
    call = EffectCall(w, argv, parsed, stdin, depth, name)
    seen: set[tuple[str, str]] = set()
    for row in rows:
        found = _match(row, call, tool)
        if found is None or (row.kind, found.target) in seen:
            continue
        seen.add((row.kind, found.target))
        shown = tuple([a.shown for a in argv])
        add_effect(w, span, row.kind, found.target, found.reason or row.reason, shown)


_ROWS: dict[str, tuple[dict[str, tuple[Effect, ...]], tuple[Effect, ...]]] = {}


def _index(name: str, tool: Tool) -> tuple[dict[str, tuple[Effect, ...]], tuple[Effect, ...]]:
    """A tool's rows by their literal first subcommand words (each with the rows that match
    any first word, in table order), and those rows alone; built once per tool."""
    index = _ROWS.get(name)
    if index is None:
        by_word: dict[str, list[tuple[int, Effect]]] = {}
        always: list[tuple[int, Effect]] = []
        for at, row in enumerate(tool.effects):
            words = row.sub[0].split("|") if row.sub else ["*"]
            if any("*" in word for word in words):
                always.append((at, row))
            else:
                for word in words:
                    by_word.setdefault(word, []).append((at, row))
        merged = {
            word: tuple(row for _, row in sorted(rows + always)) for word, rows in by_word.items()
        }
        index = _ROWS[name] = (merged, tuple(row for _, row in always))
    return index


def add_effect(
    w: Walker, span: tuple[int, int], kind: str, target: str, reason: str, argv: tuple[str, ...]
) -> None:
    where = w.fixed_span or span
    text = render_argv(argv)
    w.out.append(Request("effect", where, reason, argv=argv, text=text, kind=kind, target=target))


def _match(row: Effect, call: EffectCall, tool: Tool) -> Found | None:
    parsed = call.parsed
    ops = parsed.operands
    k = len(row.sub)
    if k:
        if len(ops) < k:
            return None
        for pattern, word in zip(row.sub, ops, strict=False):
            if word is None or not _word(pattern).fullmatch(word):
                return None
    if row.word:
        anywhere = _word(row.word)
        if not any(op is not None and anywhere.fullmatch(op) for op in ops[k:]):
            return None
    if row.flags and not any(
        all(_given(parsed, flag, tool) for flag in alt.split("+")) for alt in row.flags
    ):
        return None
    if row.without and any(_given(parsed, flag, tool) for flag in row.without):
        return None
    if row.check:
        return CHECKS[row.check](call, row)
    return Found(row.target)


def _given(parsed: Parsed, flag: str, tool: Tool) -> bool:
    if flag in parsed.options:
        return True
    if not tool.abbreviations or not flag.startswith("--"):
        return False
    return any(len(o) >= 4 and o.startswith("--") and flag.startswith(o) for o in parsed.options)


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _word(pattern: str) -> re.Pattern[str]:
    """A word pattern: `|` separates alternatives, `*` is any run of characters."""
    found = _PATTERNS.get(pattern)
    if found is None:
        alternatives = (re.escape(p).replace(r"\*", ".*") for p in pattern.split("|"))
        found = _PATTERNS[pattern] = re.compile("|".join(alternatives))
    return found


# ---- unknown tools --------------------------------------------------------------------------


_VERB_WORD = r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*"  # patterns compile at first use (re caches)


def _unknown_tool(w: Walker, argv: list[Arg], name: str, span: tuple[int, int]) -> None:
    """A command guard knows nothing of, whose first operands name a destructive verb."""
    operands = [a.value for a in argv[1:] if a.value and not a.value.startswith("-")][:3]
    for word in operands:
        if word is None or not re.fullmatch(_VERB_WORD, word):
            continue
        parts = re.split("[-_]", word)
        if (
            word in DESTRUCTIVE_VERBS
            or parts[0] in DESTRUCTIVE_VERBS
            or (parts[-1] in DESTRUCTIVE_VERBS and len(parts) > 1)
        ):
            reason = f"unknown tool, destructive verb ({word})"
            add_effect(w, span, "destroy", name, reason, tuple([a.shown for a in argv]))
            return


# ---- checks: what words and options cannot say ----------------------------------------------


def _git_checkout_paths(c: EffectCall, row: Effect) -> Found | None:
    ops = c.parsed.operands
    if c.parsed.dashdash < len(ops):
        return Found(row.target)
    if any(op is not None and re.match(_PATHLIKE, op) for op in ops[1:]):
        return Found(row.target)
    return None


_PATHLIKE = r"^(\.|\.\.|\*|:/.*|\.{1,2}/.*)$"


def _git_restore_worktree(c: EffectCall, row: Effect) -> Found | None:
    tool = TOOLS["git"]
    staged = _given(c.parsed, "-S", tool) or _given(c.parsed, "--staged", tool)
    worktree = _given(c.parsed, "-W", tool) or _given(c.parsed, "--worktree", tool)
    if staged and not worktree:
        return None
    return Found(row.target) if len(c.parsed.operands) > 1 else None


def _git_push_plus(c: EffectCall, row: Effect) -> Found | None:
    refs = c.parsed.operands[2:]
    return Found(row.target) if any(r is not None and r.startswith("+") for r in refs) else None


def _git_push_delete(c: EffectCall, row: Effect) -> Found | None:
    refs = c.parsed.operands[2:]
    return Found(row.target) if any(r is not None and r[:1] == ":" for r in refs) else None


def _as_user(c: EffectCall, row: Effect) -> Found | None:
    """`sudo -u postgres …` is privilege:postgres; `su - bob` is privilege:bob."""
    values = c.parsed.values
    user = values.get("-u") if "-u" in values else values.get("--user", row.target)
    if c.name == "su" and "-u" not in values:
        ops = [op for op in c.parsed.operands if op != "-"]
        user = ops[0] if ops and (ops[0] is None or not ops[0].startswith("-")) else row.target
    if user is None:
        return Found("?", "runs as a user not known")
    return Found(user)


def _git_prune_now(c: EffectCall, row: Effect) -> Found | None:
    prune = c.parsed.values.get("--prune")
    return Found(row.target) if prune in ("now", "all") else None


def _find_delete(c: EffectCall, row: Effect) -> Found | None:
    words = [a.value for a in c.argv[1:]]
    if "-delete" in words:
        return Found(row.target)
    for i, word in enumerate(words[:-1]):
        if word in ("-exec", "-execdir", "-ok", "-okdir"):
            inner = (words[i + 1] or "").rsplit("/", 1)[-1]
            if inner in ("rm", "shred", "unlink", "rmdir", "srm"):
                return Found(row.target, f"find runs {inner} on every file it matches")
    return None


def _rsync_delete(c: EffectCall, row: Effect) -> Found | None:
    opts = c.parsed.options
    return (
        Found(row.target) if any(o == "--del" or o.startswith("--delete") for o in opts) else None
    )


def _operands(c: EffectCall, row: Effect) -> Found | None:
    return Found(row.target) if c.parsed.operands else None


def _dd_of(c: EffectCall, row: Effect) -> Found | None:
    for arg in c.argv[1:]:
        value = arg.value
        if value is None:  # could be of=/dev/…: the strongest reading
            return (
                Found(row.target, "dd is given an argument not known")
                if row.target == "device"
                else None
            )
        if value.startswith("of="):
            device = value[3:].startswith("/dev/") and not re.match(_PLUMBING, value[3:])
            if device == (row.target == "device"):
                return Found(row.target)
    return None


_PLUMBING = r"^/dev/(null|zero|stdout|stderr|tty|fd/\d+)$"


def _chmod_setuid(c: EffectCall, row: Effect) -> Found | None:
    ops = c.parsed.operands
    mode = ops[0] if ops else None
    if mode is None:
        return None
    if re.fullmatch(r"[0-7]{4,}", mode) and int(mode[-4]) & 6:
        return Found(row.target)
    if re.search(r"[+=][rwxXt]*s", mode):
        return Found(row.target)
    return None


def _http_delete(c: EffectCall, row: Effect) -> Found | None:
    values = c.parsed.values
    method = values.get("-X") or values.get("--request") or values.get("--method") or ""
    return Found(row.target) if method.upper() == "DELETE" else None


def _raw_after(c: EffectCall, operands: int) -> list[Arg]:
    """The argv words after the first `operands` operands, as given (options included)."""
    tool = TOOLS[c.name]
    seen, i = 0, 1
    while i < len(c.argv) and seen < operands:
        value = c.argv[i].value
        i += 1
        if value is None or not value.startswith("-") or value == "-":
            seen += 1
        elif value == "--":
            continue
        elif "=" not in value and (value in tool.values or value[-2:] in tool.values):
            i += 1
    return c.argv[i:]


def _inside(c: EffectCall, row: Effect, where: str, command: list[Arg]) -> Found:
    """`docker exec C CMD`, `kubectl exec POD -- CMD`: CMD's effects, reported where it runs."""
    from guard.interpreter_effects import remote_code

    target = f"{row.target}/{where}"
    if command and all(a.value is not None for a in command):
        text = " ".join(_quoted(a.value or "") for a in command)
        remote_code(c.w, text, c.argv[0], c.depth, target)
    return Found(target)


def _quoted(word: str) -> str:
    return word if re.fullmatch(r"[\w@%+=:,./-]+", word) else "'" + word.replace("'", "'\\''") + "'"


def _container_exec(c: EffectCall, row: Effect) -> Found | None:
    ops = c.parsed.operands
    skip = 2 if ops and ops[0] == "container" else 1
    if len(ops) <= skip:
        return Found(row.target)
    return _inside(c, row, ops[skip] or "?", _raw_after(c, skip + 1))


def _pod_exec(c: EffectCall, row: Effect) -> Found | None:
    ops = c.parsed.operands
    pod = ops[1] if len(ops) > 1 and c.parsed.dashdash > 1 else "?"
    words = [a.value for a in c.argv]
    command = c.argv[words.index("--") + 1 :] if "--" in words else []
    return _inside(c, row, pod or "?", command)


def _copy_to_remote(c: EffectCall, row: Effect) -> Found | None:
    ops = [op for op in c.parsed.operands if op is not None]
    if len(ops) < 2:
        return None
    found = re.match(_REMOTE_SPEC, ops[-1])
    return Found(f"{row.target}/{found.group(1)}") if found else None


_REMOTE_SPEC = r"^(?:rsync://|scp://)?(?:[^@/:]+@)?([A-Za-z0-9][\w.-]*|\[[^]]+\]):"


def _kill_all(c: EffectCall, row: Effect) -> Found | None:
    words = [a.value for a in c.argv[1:]]
    if words and words[0] in ("-s", "-n"):
        words = words[2:]
    elif words and words[0] is not None and words[0].startswith("-"):
        words = words[1:]  # the signal (`kill -1 PID` sends signal 1), or `--`
    if words and words[0] == "--":
        words = words[1:]
    return Found(row.target) if "-1" in words else None


def _sql(c: EffectCall, row: Effect) -> Found | None:
    from guard.sql_effects import destroying_statement

    values = c.parsed.values
    texts: list[str | None] = []
    if c.name == "psql":
        texts = [values.get("-c"), values.get("--command")]
    elif c.name in ("mysql", "mariadb"):
        texts = [values.get("-e"), values.get("--execute")]
    else:  # sqlite3 DB [SQL …]
        texts = [values.get("-cmd"), *c.parsed.operands[1:]]
    given = [t for t in texts if t is not None]
    if not given and c.stdin is not None and c.stdin.kind == "text" and c.stdin.text:
        given = [c.stdin.text]
    for text in given:
        statement = destroying_statement(text)
        if statement is not None:
            return Found(row.target, f"SQL that destroys data: {statement}")
    return None


def _ssh(c: EffectCall, row: Effect) -> Found | None:
    from guard.interpreter_effects import remote_code

    ops = c.parsed.operands
    if not ops or "-N" in c.parsed.options or "-O" in c.parsed.options:
        return None
    host = (ops[0] or "?").rsplit("@", 1)[-1]
    command = ops[1:]
    target = f"{row.target}/{host}"
    if not command and c.stdin is not None and c.stdin.kind == "text" and c.stdin.text:
        remote_code(c.w, c.stdin.text, c.argv[0], c.depth, host)  # ssh HOST <<EOF … EOF
        return Found(target, f"runs code on {host}")
    if not command:
        return Found(target, f"opens a shell on {host}")
    if any(word is None for word in command):
        return Found(target, f"runs a command not known on {host}")
    remote_code(c.w, " ".join(w or "" for w in command), c.argv[0], c.depth, host)
    return Found(target, f"runs code on {host}")


CHECKS: dict[str, Callable[[EffectCall, Effect], Found | None]] = {
    "git-checkout-paths": _git_checkout_paths,
    "git-restore-worktree": _git_restore_worktree,
    "git-push-plus": _git_push_plus,
    "git-push-delete": _git_push_delete,
    "as-user": _as_user,
    "git-prune-now": _git_prune_now,
    "find-delete": _find_delete,
    "rsync-delete": _rsync_delete,
    "operands": _operands,
    "dd-of": _dd_of,
    "dd-device": _dd_of,
    "chmod-setuid": _chmod_setuid,
    "http-delete": _http_delete,
    "container-exec": _container_exec,
    "pod-exec": _pod_exec,
    "copy-to-remote": _copy_to_remote,
    "kill-all": _kill_all,
    "sql": _sql,
    "ssh": _ssh,
}
