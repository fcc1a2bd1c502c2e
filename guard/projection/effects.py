"""The reader of guard/knowledge/commands/ (its record): what one command destroys, discards,
publishes, runs
elsewhere or escalates, as `effect` requests.

Called for every command the walker reaches (wrapped ones, `$( )`, xargs and find -exec
included). The argv is split into options and operands with the tool's own list of options that
take a value, so `git commit -m "…--force…"` or `rm --version` never match; long options may be
abbreviated where the tool allows it (`git reset --ha`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from guard.knowledge import (
    COMPOUND_LENGTH,
    DESTRUCTIVE_OPTIONS,
    DESTRUCTIVE_VERBS,
    PATH_ENDS,
    PATH_LENGTH,
    SCALE_VERBS,
    ZERO_COUNTS,
    Command,
    Effect,
    Interpreter,
    Spec,
    Tool,
    command_for,
)
from guard.languages import Parsed, given, parse
from guard.projection.accesses import add_effect
from guard.projection.effect_checks import CHECKS, EffectCall, Found
from guard.projection.interpreter_effects import inline_code
from guard.projection.vital_targets import LOCAL_TARGETS
from guard.projection.walk_records import Arg, Stdin
from guard.projection.walker import Walker, dynamic


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
    record = command_for(base)
    name = record.name
    tool = record.effects
    if tool is None:
        if record.interpreter is not None:
            inline_code(w, argv, record.interpreter, stdin, depth)
            _script_verbs(w, argv, record.interpreter, span)
        elif spec is None and name not in w.functions and not record.own_rows:
            words = [a.value for a in argv]
            parsed = parse(words, _NO_VALUES)
            if not _help(parsed, record, _NO_VALUES, words, subcommands=True):
                _verbs(w, argv, record, span, parsed, unknown=True)
        elif spec is not None and record.subcommands:
            values = [a.value for a in argv]
            if _may_name_verb(values):
                tool = _spec_tool(name, spec)
                parsed = parse(values, tool)
                if not _help(parsed, record, tool, values, subcommands=True) and not _dry(
                    parsed, record
                ):
                    _verbs(w, argv, record, span, parsed, unknown=False)
        return
    values = [a.value for a in argv]
    by_word, always = _index(name, tool)
    verbs = record.subcommands and _may_name_verb(values)
    if not verbs and not always and None not in values and not any(v in by_word for v in values):
        return  # `git status`: no row can match (the common case, without parsing)
    parsed = parse(values, tool)
    if _help(parsed, record, tool, values, subcommands=verbs or record.subcommands):
        return
    if _dry(parsed, record):
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
    if verbs and not any(kind in ("destroy", "discard") for kind, _ in seen):
        _verbs(w, argv, record, span, parsed, unknown=False)


def _help(
    parsed: Parsed, record: Command, tool: Tool, words: list[str | None], *, subcommands: bool
) -> bool:
    """Whether the command only prints its help or version (guard/knowledge/verbs.py says how a
    CLI with subcommands is asked for help). Only the word itself asks for help: `--help=false`
    and `-h=false` set a flag to false and the command runs (cobra, Go's flag package), and an
    option the tool reads a value for is that option (`cargo yank --version 1.0`). A version is
    asked for before any subcommand; `tool delete x --version` may be the tool's own option."""
    options = parsed.options
    given = parsed.values
    for flag in ("--help", "-help"):
        if flag in options and flag not in given and flag in words:
            return True
    if (
        "--version" in options
        and "--version" not in given
        and "--version" in words
        and not parsed.operands
    ):
        return True
    if not subcommands:
        return False
    if "-h" in options and "-h" not in tool.values and "-h" in words:
        return True
    ops = parsed.operands[: parsed.dashdash]
    if ops and ops[0] == "help":
        return True
    return bool(record.help_last) and len(ops) > 1 and ops[-1] == "help"


_NOT_DRY = frozenset({"none", "false", "0", "no", "off"})  # --dry-run=none: it runs


def _dry(parsed: Parsed, record: Command) -> bool:
    """Whether one of the options the command's record names as a dry run is given as the
    tool's own (not after its command, as `ssh HOST cmd --dry-run`), without a value that
    says no (`kubectl --dry-run=none` changes the cluster)."""
    for option in record.dry_run:
        if option in parsed.options:
            return (parsed.values.get(option) or "").lower() not in _NOT_DRY
    return False


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


@lru_cache(maxsize=1024)
def _word(pattern: str) -> re.Pattern[str]:
    """A word pattern: `|` separates alternatives, `*` is any run of characters (compiled
    once: a tool's quiet rows are matched against every command of it)."""
    alternatives = (re.escape(p).replace(r"\*", ".*") for p in pattern.split("|"))
    return re.compile("|".join(alternatives))


# ---- the verb model (guard/knowledge/verbs.py) -------------------------------------------

_NO_VALUES = Tool()  # a tool guard does not know: no option is known to take a value
_SPEC_TOOLS: dict[str, Tool] = {}
_VERB_WORD = re.compile(r"[a-z][a-z0-9]*(?:[-_:][a-z0-9]+)+")  # delete-bucket, db:drop
# a task named with dots, its verb last (mix ecto.drop, db.reset): not a file's name, whose
# last part is its extension (reset.py)
_DOTTED_VERB = re.compile(r"[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)*\.([a-z]+)")
_CAMEL_WORD = re.compile(r"[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+")  # DeleteInstance, deleteAll
_CAMEL_PART = re.compile(r"[A-Za-z][a-z0-9]*")


def _spec_tool(name: str, spec: Spec) -> Tool:
    """The options a command spec says take a value, as effects read an argv."""
    tool = _SPEC_TOOLS.get(name)
    if tool is None:
        tool = _SPEC_TOOLS[name] = Tool(values=spec.values | frozenset(spec.options))
    return tool


def _may_name_verb(values: list[str | None]) -> bool:
    """A cheap first look: whether any of the first words could be a verb of the model."""
    if _destructive_option(values) is not None or _scaled_to_zero(values):
        return True
    for value in values[1 : 2 * PATH_LENGTH + 2]:
        if value is None or value.startswith("-"):
            continue
        if value in DESTRUCTIVE_VERBS or value in SCALE_VERBS or _VERB_WORD.fullmatch(value):
            return True
        dotted = _DOTTED_VERB.fullmatch(value)
        if dotted is not None and dotted.group(1) in DESTRUCTIVE_VERBS:
            return True
    return False


def _verbs(
    w: Walker,
    argv: list[Arg],
    record: Command,
    span: tuple[int, int],
    parsed: Parsed,
    *,
    unknown: bool,
    options: bool = True,
) -> None:
    """`destroy:NAME` when a word of the subcommand path removes, revokes or undoes something
    of the tool's, or scales it to zero, unless the tool's quiet rows say why not. A tool
    guard does not know is read the same way, its first three operands being the path.
    `options`: whether its options are read too (a verb, a count of zero)."""
    path: list[str | None]
    if unknown:  # its words not known stand in no place of the path
        path = [op for op in parsed.operands if op is not None]
        path = path[:3]
    else:
        path = [op for op in parsed.operands[: min(parsed.dashdash, PATH_LENGTH)]]
    for pattern, _why in record.quiet:
        if len(path) >= len(pattern) and all(
            word is not None and _word(p).fullmatch(word)
            for p, word in zip(pattern, path, strict=False)
        ):
            return
    reason = _verb_reason(path, parsed, "unknown tool" if unknown else "subcommand")
    if reason is None and unknown and options:  # `kafka-delete-records`, `./reset-db.sh`
        reason = _named_verb(argv[0].value or "")
    # an option that is a verb, or a count of what runs set to zero; after a known tool's path
    # that ended at a word that only reads or runs a command of its own, the option is that
    # command's (`docker run img find . -delete`). A tool guard does not know has no such path:
    # its option values stand among its operands (`--topic x`).
    values = [a.value for a in argv]
    if reason is None and options and (unknown or not _path_reads_only(path)):
        option = _destructive_option(values)
        if option is not None:
            who = "unknown tool" if unknown else "subcommand"
            reason = f"{who}, destructive option ({option})"
        elif _scaled_to_zero(values):
            reason = "scales to zero (a count of 0)"
    if reason is not None:
        add_effect(w, span, "destroy", record.name, reason, tuple([a.shown for a in argv]))


_SCRIPT_LANGUAGES = frozenset({"python", "js", "ruby", "perl", "php"})


def _script_verbs(
    w: Walker, argv: list[Arg], interpreter: Interpreter, span: tuple[int, int]
) -> None:
    """`python manage.py flush`, `php artisan db:wipe`, `node scripts/db.js drop`: the script
    an interpreter runs is a tool guard does not know, and its words are read by the verb model
    as such a tool's are, as `./manage.py flush` is (`python -m django flush`, a module, is read
    as that command where the interpreter's options are). Not its options: a script's own flag
    (`script.py --delete`) says what the workspace's code does."""
    if interpreter.language not in _SCRIPT_LANGUAGES:
        return
    at = 1
    while at < len(argv):
        value = argv[at].value
        if value is None or value == "-" or value[:2] in interpreter.code:
            return  # not known, or code given (`-c`, `-cCODE`, `-e`), or read from stdin
        clustered = value[:1] == "-" and value[1:2] != "-" and "=" not in value
        if clustered and any(f"-{letter}" in interpreter.code for letter in value[1:]):
            return  # code in a cluster of letters: `perl -ne CODE`, `ruby -pe CODE`
        if value == "--":
            at += 1
            break
        if value[:1] != "-":
            break
        name = value.partition("=")[0]
        if name in interpreter.code:
            return
        at += 2 if name in interpreter.values and "=" not in value else 1
    tool = argv[at:]
    if not tool or tool[0].value is None:
        return
    if at > 1 and argv[at - 1].value == "-m":
        return  # `python -m MODULE …`: read as that command already (interpreter_effects)
    words = [a.value for a in tool]
    parsed = parse(words, _NO_VALUES)
    script = Command(name=(tool[0].value or "").rsplit("/", 1)[-1])
    if not _help(parsed, script, _NO_VALUES, words, subcommands=True):
        _verbs(w, tool, script, span, parsed, unknown=True, options=False)


def _named_verb(program: str) -> str | None:
    """A tool guard does not know whose name is made of a destructive verb and other words
    (`kafka-delete-records`, `drop_all.sh`): what it does is what its name says."""
    name = program.rsplit("/", 1)[-1].lower()
    stem = name.rsplit(".", 1)[0] if "." in name else name
    parts = re.split(r"[-_]", stem)
    if len(parts) > 1 and any(part in DESTRUCTIVE_VERBS for part in parts):
        return f"unknown tool, destructive verb in its name ({name})"
    return None


def _destructive_option(values: Sequence[str | None]) -> str | None:
    """The first option, before `--`, that is a verb (`--remove`, Go's `-purge`)."""
    for value in values[1:]:
        if value is None or value[:1] != "-":
            continue
        if value == "--":
            return None
        name = value.partition("=")[0]
        if f"-{name}" in DESTRUCTIVE_OPTIONS or name in DESTRUCTIVE_OPTIONS:
            return name
    return None


def _scaled_to_zero(values: Sequence[str | None]) -> bool:
    """Whether a count of what runs is set to 0 (`--desired-count 0`, `--node-count=0`)."""
    for at, value in enumerate(values[1:], 1):
        if value is None or value[:2] != "--":
            continue
        name, eq, given = value.partition("=")
        if name in ZERO_COUNTS:
            count = given if eq else values[at + 1] if at + 1 < len(values) else None
            if count is not None and (count == "0" or count.endswith("=0")):
                return True  # `--scale web=0` too
    return False


def _path_reads_only(path: Sequence[str | None]) -> bool:
    """Whether the subcommand path ends at a word that only reads or runs a command of its own
    (`get`, `run`): an option there is that command's, or only shapes what is shown."""
    return any(word is not None and word.lower() in PATH_ENDS for word in path)


def _verb_reason(path: Sequence[str | None], parsed: Parsed, who: str) -> str | None:
    for at, word in enumerate(path):
        if word is None:
            return None
        low = word.lower()  # DELETE, Delete: many CLIs take their verbs in any case
        if low in PATH_ENDS:
            return None
        hit = low in DESTRUCTIVE_VERBS
        parts: list[str] = []
        if not hit and at < COMPOUND_LENGTH:
            if _VERB_WORD.fullmatch(low):
                parts = re.split("[-_:]", low)  # delete-bucket, force-delete, batch-delete-x
            elif low != word and _CAMEL_WORD.fullmatch(word):
                parts = [p.lower() for p in _CAMEL_PART.findall(word)]  # DeleteInstance
            elif (dotted := _DOTTED_VERB.fullmatch(low)) is not None:
                parts = [dotted.group(1)]  # ecto.drop
        if parts:
            hit = parts[0] not in PATH_ENDS and any(p in DESTRUCTIVE_VERBS for p in parts)
        if hit:
            return f"{who}, destructive verb ({word})"
        if (word in SCALE_VERBS or word.endswith(":scale")) and _to_zero(parsed):
            return f"scales to zero ({word})"
    return None


def _to_zero(parsed: Parsed) -> bool:
    """Whether a count of zero is given: `--replicas=0`, `--replicas 0`, `web=0`, `0`."""
    counts = [v for v in parsed.values.values() if v is not None]
    counts += [op for op in parsed.operands if op is not None]
    return any(c == "0" or c.endswith("=0") for c in counts)
