"""The reader of guard/knowledge/effect_knowledge.py: what one command destroys, discards,
publishes, runs
elsewhere or escalates, as `effect` requests.

Called for every command the walker reaches (wrapped ones, `$( )`, xargs and find -exec
included). The argv is split into options and operands with the tool's own list of options that
take a value, so `git commit -m "…--force…"` or `rm --version` never match; long options may be
abbreviated where the tool allows it (`git reset --ha`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from guard.knowledge.commands.interpreters import interpreter_for
from guard.knowledge.commands.spec import Spec
from guard.knowledge.effect_argv import given, parse
from guard.knowledge.effect_knowledge import (
    ALIASES,
    DESTRUCTIVE_VERBS,
    TOOLS,
    Effect,
    Tool,
)
from guard.projection.accesses import add_effect
from guard.projection.effect_checks import CHECKS, EffectCall, Found
from guard.projection.interpreter_effects import inline_code
from guard.projection.vital_targets import LOCAL_TARGETS
from guard.projection.walk_records import Arg, Stdin
from guard.projection.walker import Walker, dynamic


def knows_effects(command: str) -> bool:
    """Whether guard has effect knowledge of a command (aws, gcloud, gh … have no spec)."""
    base = command.rsplit("/", 1)[-1]
    return (ALIASES.get(base) or base) in TOOLS


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
    if w.destroys:
        w.destroys.pop(base, None)  # a new command of that name: what it destroys is its own
    name = ALIASES.get(base) or ("mkfs" if base.startswith("mkfs.") else base)
    tool = TOOLS.get(name)
    if tool is None:
        record = interpreter_for(name)
        if record is not None:
            inline_code(w, argv, record, stdin, depth)
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
        effect = row.effect
        if found is None or (effect.kind, found.target) in seen:
            continue
        seen.add((effect.kind, found.target))
        shown = tuple([a.shown for a in argv])
        reason = found.reason or effect.reason
        request = add_effect(w, span, effect.kind, found.target, reason, shown)
        if effect.kind == "destroy" and found.target in LOCAL_TARGETS and found.whole:
            w.destroys[base] = request  # the paths it touches are what it destroys


class _Row(NamedTuple):
    """A table row made ready to match: word patterns compiled, flag alternatives split."""

    effect: Effect
    subs: tuple[re.Pattern[str] | None, ...]  # None: matched already by the index
    word: re.Pattern[str] | None
    flags: tuple[tuple[str, ...], ...]


_Index = tuple[dict[str, tuple[_Row, ...]], tuple[_Row, ...]]
_ROWS: dict[str, _Index] = {}


def _index(name: str, tool: Tool) -> _Index:
    """A tool's rows by their literal first subcommand words (each with the rows that match
    any first word, in table order), and those rows alone; built once per tool."""
    index = _ROWS.get(name)
    if index is None:
        by_word: dict[str, list[tuple[int, _Row]]] = {}
        always: list[tuple[int, _Row]] = []
        for at, row in enumerate(tool.effects):
            words = row.sub[0].split("|") if row.sub else ["*"]
            literal = not any("*" in word for word in words)
            ready = _Row(
                row,
                tuple(None if literal and i == 0 else _word(p) for i, p in enumerate(row.sub)),
                _word(row.word) if row.word else None,
                tuple(tuple(alt.split("+")) for alt in row.flags),
            )
            if not literal:
                always.append((at, ready))
            else:
                for word in words:
                    by_word.setdefault(word, []).append((at, ready))
        merged = {
            word: tuple(r for _, r in sorted(rows + always, key=_first))
            for word, rows in by_word.items()
        }
        index = _ROWS[name] = (merged, tuple(r for _, r in always))
    return index


def _first(item: tuple[int, _Row]) -> int:
    return item[0]


def _match(ready: _Row, call: EffectCall, tool: Tool) -> Found | None:
    row = ready.effect
    parsed = call.parsed
    ops = parsed.operands
    k = len(ready.subs)
    if k:
        if len(ops) < k:
            return None
        for pattern, word in zip(ready.subs, ops, strict=False):
            if word is None or (pattern is not None and not pattern.fullmatch(word)):
                return None
    if ready.word is not None:
        anywhere = ready.word
        if not any(op is not None and anywhere.fullmatch(op) for op in ops[k:]):
            return None
    if ready.flags and not any(
        all(given(parsed, flag, tool) for flag in alt) for alt in ready.flags
    ):
        return None
    if row.without and any(given(parsed, flag, tool) for flag in row.without):
        return None
    if row.check:
        return CHECKS[row.check](call, row)
    return Found(row.target)


def _word(pattern: str) -> re.Pattern[str]:
    """A word pattern: `|` separates alternatives, `*` is any run of characters."""
    alternatives = (re.escape(p).replace(r"\*", ".*") for p in pattern.split("|"))
    return re.compile("|".join(alternatives))


# ---- unknown tools --------------------------------------------------------------------------


def _unknown_tool(w: Walker, argv: list[Arg], name: str, span: tuple[int, int]) -> None:
    """A command guard knows nothing of, whose first operands name a destructive verb."""
    operands = [a.value for a in argv[1:] if a.value and not a.value.startswith("-")][:3]
    for word in operands:
        if word is None:
            continue
        hit = word in DESTRUCTIVE_VERBS
        if (
            not hit
            and ("-" in word or "_" in word or ":" in word)
            and re.fullmatch(_VERB_WORD, word)
        ):
            parts = re.split("[-_:]", word)
            hit = parts[0] in DESTRUCTIVE_VERBS or parts[-1] in DESTRUCTIVE_VERBS
        if hit:
            reason = f"unknown tool, destructive verb ({word})"
            add_effect(w, span, "destroy", name, reason, tuple([a.shown for a in argv]))
            return


_VERB_WORD = r"[a-z][a-z0-9]*(?:[-_:][a-z0-9]+)+"  # delete-bucket, force_delete, db:drop
