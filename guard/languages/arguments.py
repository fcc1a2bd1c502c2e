"""Reading one argv with its command's spec: which arguments are paths, code or a command.

Pure: argv elements are strings, or None where the word's value is unknown. The result names
argv indexes (so the walker can point at the source text) with a role, and where a path is only
part of an argument (`--log-file=/x`, `-C/x`, `of=/x`) the value itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from guard.knowledge.commands.spec import TEXT_VALUES, Role, Spec

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_REMOTE = re.compile(r"^[^/:]+:")  # host:path, user@host:path (no slash before the colon)
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")

ACCESS_ROLES = frozenset({"read", "write", "execute", "chdir", "path"})


class Use(NamedTuple):
    at: int  # the argv index
    role: Role
    value: str | None = None  # the path when it is only part of argv[at]; else argv[at]


class Reading:
    """What an argv does: the uses of its arguments, the options given (each with its value,
    when it takes one), and the command it runs, if any."""

    __slots__ = ("options", "run", "unknown_args", "uses")

    def __init__(self) -> None:
        self.uses: list[Use] = []
        self.options: dict[str, str | None] = {}  # `-r`, `-d` → "recurse", `--hidden`
        self.run: int | None = None  # argv[run:] is a command this one runs
        self.unknown_args = False  # the command run gets more arguments nobody knows (xargs)


def is_local_path(text: str) -> bool:
    """Whether a word that names a path names a local one (not a URL, not host:path)."""
    if text[:1] == "/":
        return "://" not in text  # no host:path starts with a slash
    if not text or _URL.match(text):
        return False
    return not (_REMOTE.match(text) and not text.startswith(("./", "~")))


def looks_like_path(text: str) -> bool:
    """Does this word look like a path (contains `/`, starts with `~` or `.`)? Such a word is a
    read wherever no spec declares it data: unknown is an access."""
    if not is_local_path(text) or text.startswith("@") or text.startswith("-"):
        return False
    return "/" in text or text.startswith(("~", "."))


def path_part(text: str) -> str | None:
    """The part of a word that names a path: the word, or the value of `key=VALUE`
    (`importtime=/x`, `linker=/x`, `Dir::Etc=/x`, `obj=/x`); None when none looks like one."""
    if "/" not in text and text[:1] not in ("~", "."):
        return None  # the common case: a plain word
    for _ in range(4):
        eq = text.find("=")
        slash = text.find("/")
        if eq < 0 or (0 <= slash < eq):
            return text if looks_like_path(text) else None
        text = text[eq + 1 :]
    return None


_SEPARATORS = "=:,"


def attached_values(arg: str) -> list[str]:
    """The values a single-dash word of an unknown command may carry attached: after the
    first `=`, `:` or `,` that comes before any `/` (`-conf=data/b.conf`, `-r:data/a.exe`,
    `-Wl,/x`), else everything after the option letter (`-odata/out` is `data/out`, not
    `/out`). Two letters then a slash (`-xf/etc/x`) may be a bundle with a value: both."""
    slash = arg.find("/")
    for k in range(2, slash if slash >= 0 else len(arg)):
        if arg[k] in _SEPARATORS:
            rest = arg[k + 1 :]
            if arg[k] == ",":  # -Wl,-rpath,/x: each piece
                return [path_part(piece) or piece for piece in rest.split(",")]
            return [path_part(rest) or rest]
    found = [arg[2:]]
    if slash == 3 and arg[1:3].isalpha():
        found.append(arg[3:])
    return found


def _value_use(spec: Spec, name: str, at: int, value: str | None = None) -> Use | None:
    """An option of `spec.values`: its value is a read when it looks like a path, unless the
    spec (or every spec, TEXT_VALUES) declares it data."""
    if name in TEXT_VALUES or name in spec.text:
        return None
    return Use(at, "path", value)


def read_argv(spec: Spec, argv: Sequence[str | None]) -> Reading:
    """Apply `spec` to `argv` (argv[0] is the command name)."""
    out = Reading()
    operands: list[int] = []
    flag_role: Role | None = None
    dropped_first = False
    stops = spec.stop_at_operand
    wrapper = spec.operands == "command"
    end_options = False
    i = 1
    n = len(argv)
    while i < n:
        arg = argv[i]
        if arg is None or end_options or arg == "-" or not arg.startswith("-"):
            if wrapper and arg is not None and spec.assignments and _ASSIGNMENT.match(arg):
                i += 1
                continue
            operands.append(i)
            if wrapper and len(operands) > spec.skip:
                out.run = i
                break
            if wrapper:  # flock FILE, timeout DURATION: a path-shaped one is a read
                out.uses.append(Use(i, spec.skipped))
            if stops and operands:
                end_options = True
            i += 1
            continue
        if arg == "--":
            end_options = True
            i += 1
            continue
        if arg.startswith("--"):
            name, eq, value = arg.partition("=")
            role = spec.options.get(name)
            takes = role is not None or name in spec.values
            out.options[name] = value if eq else (_word(argv, i + 1) if takes else None)
            end_options = end_options or name in spec.ends_options
            if role is not None:
                dropped_first = dropped_first or name in spec.first_drops
                if eq:
                    out.uses.append(Use(i, role, value))
                else:
                    out.uses.append(Use(i + 1, role))
                    i += 1
            elif name in spec.values:
                found = _value_use(spec, name, i, value) if eq else _value_use(spec, name, i + 1)
                if found is not None:
                    out.uses.append(found)
                if not eq:
                    i += 1
            elif name in spec.pairs and not eq:  # jq --rawfile NAME FILE
                if spec.pairs[name] != "data":
                    out.uses.append(Use(i + 2, spec.pairs[name]))
                i += 2
            elif name in spec.flags:
                flag_role = spec.flags[name]
            elif eq and path_part(value) is not None:  # an option guard does not know
                out.uses.append(Use(i, _option_role(name), path_part(value)))
            i += 1
            continue
        if arg in spec.options or arg in spec.values:  # a whole word: -TT, -exec-like names
            out.options[arg] = _word(argv, i + 1)
            role = spec.options.get(arg)
            dropped_first = dropped_first or arg in spec.first_drops
            end_options = end_options or arg in spec.ends_options
            if role is not None:
                out.uses.append(Use(i + 1, role))
            else:
                found = _value_use(spec, arg, i + 1)
                if found is not None:
                    out.uses.append(found)
            i += 2
            continue
        # a cluster of short options: -xvf FILE, -n1, -C/dir
        if spec.operands == "path" and not spec.options and not spec.values and "/" in arg[2:]:
            # a command guard does not know: `-o/out`, `-odata/out`, `-I../inc`, `-conf=x/y`,
            # `-r:x/y` most likely name a path: the whole remainder after the option
            for value in attached_values(arg):
                if looks_like_path(value):
                    out.uses.append(Use(i, "path", value))
            i += 1
            continue
        j = 1
        while j < len(arg):
            opt = "-" + arg[j]
            role = spec.options.get(opt)
            if role is not None or opt in spec.values:
                dropped_first = dropped_first or opt in spec.first_drops
                end_options = end_options or opt in spec.ends_options
                rest = arg[j + 1 :]
                out.options[opt] = rest or _word(argv, i + 1)
                if role is None:
                    found = _value_use(spec, opt, i, rest) if rest else _value_use(spec, opt, i + 1)
                    if found is not None:
                        out.uses.append(found)
                    if not rest:
                        i += 1
                elif rest:
                    out.uses.append(Use(i, role, rest))
                else:
                    out.uses.append(Use(i + 1, role))
                    i += 1
                break
            out.options[opt] = None
            if opt in spec.flags:
                flag_role = spec.flags[opt]
            j += 1
        i += 1
    if wrapper:
        out.unknown_args = spec.kind == "xargs"
        return out
    if spec.subcommands and operands and looks_like_path(argv[operands[0]] or "-"):
        # no subcommand is named like a path: after an option guard does not know
        # (`npm --userconfig /x install`) it is that option's value, and the subcommand follows
        out.uses.append(Use(operands[0], "path"))
        operands = operands[1:]
    if spec.subcommand_words and operands and argv[operands[0]] in spec.subcommand_words:
        out.uses.append(Use(operands[0], "data"))  # `yq eval EXPR FILE`: what to do
        operands = operands[1:]
    _operand_roles(spec, operands, flag_role, dropped_first, out)
    if spec.operands == "path" and not spec.options and not spec.values:
        _prefixed_paths(argv, operands, out)  # a command guard does not know
    return out


def _word(argv: Sequence[str | None], i: int) -> str | None:
    """argv[i], or None past the end (an option's value in the next word)."""
    return argv[i] if i < len(argv) else None


# `SATA:/dev/sda`, `file:/x`: a word, a colon, then an absolute path (no `@`: not
# `user@host:/path`; no `://`: not a URL)
_PREFIXED = re.compile(r"^[A-Za-z][A-Za-z0-9_.+-]*:(?=/)(?!//)")


def _prefixed_paths(argv: Sequence[str | None], operands: list[int], out: Reading) -> None:
    """`hddtemp SATA:/dev/sda`: an unknown command's `prefix:/path` operand may name a local
    path (or a remote one: unknown, so the strongest reading)."""
    for index in operands:
        word = argv[index]
        found = _PREFIXED.match(word) if word else None
        if found is not None and word is not None:
            out.uses.append(Use(index, "path", word[found.end() :]))


def _operand_roles(
    spec: Spec, operands: list[int], flag_role: Role | None, dropped_first: bool, out: Reading
) -> None:
    ops = list(operands)
    if spec.subcommands and ops:
        ops = ops[1:]
    if spec.first is not None and ops and not dropped_first:
        out.uses.append(Use(ops[0], spec.first))
        ops = ops[1:]
    if spec.last is not None and len(ops) >= 1 and (spec.first is not None or len(ops) >= 2):
        last = ops.pop()
        out.uses.append(Use(last, spec.last))
    role = flag_role or spec.operands
    for index in ops:
        out.uses.append(Use(index, role))
    if len(out.uses) > 1:
        out.uses.sort(key=_at)


def _at(use: Use) -> int:
    return use.at


def _option_role(name: str) -> Role:
    lowered = name.lower()
    if any(w in lowered for w in ("out", "log", "dest", "target", "write", "save", "dump")):
        return "write"
    return "path"
