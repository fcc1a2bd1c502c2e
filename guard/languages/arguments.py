"""Reading one argv with its command's spec: which arguments are paths, code or a command.

Pure: argv elements are strings, or None where the word's value is unknown. The result names
argv indexes (so the walker can point at the source text) with a role, and where a path is only
part of an argument (`--log-file=/x`, `-C/x`, `of=/x`) the value itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from guard.knowledge import TEXT_VALUES, Role, Spec

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_REMOTE = re.compile(r"^[^/:]+:")  # host:path, user@host:path (no slash before the colon)
# env and sudo take any word with `=` before their command as a variable for its environment
# (`env 'BASH_FUNC_f%%=() { …; }' bash -c f` gives bash a function), not only a shell name
_ASSIGNMENT = re.compile(r"^[^=\s-][^=]*=")

ACCESS_ROLES = frozenset({"read", "write", "edit", "execute", "chdir", "path"})


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
    if ":" not in text:  # the common case: neither a URL nor host:path
        return bool(text)
    if _URL.match(text):
        return False
    return not (_REMOTE.match(text) and not text.startswith(("./", "~")))


def looks_like_path(text: str) -> bool:
    """Does this word look like a path (contains `/`, starts with `~` or `.`)? Such a word is a
    read wherever no spec declares it data: unknown is an access."""
    if not is_local_path(text) or text.startswith("@") or text.startswith("-"):
        return False
    return "/" in text or text.startswith(("~", "."))


def path_part(text: str) -> str | None:
    """The part of a word that names a path: the word, the value of `key=VALUE`
    (`importtime=/x`, `linker=/x`, `Dir::Etc=/x`, `obj=/x`), the file of `@/x` or a `file:`
    URL's path; None when none looks like one."""
    if "/" not in text and text[:1] not in ("~", ".") and not _DOT_VALUE.search(text):
        return None  # the common case: a plain word
    if text[:2] == "@/" or text[:2] == "@.":  # @FILE: arguments or data read from FILE
        return path_part(text[1:])
    if text[:5].lower() == "file:":  # file:///x, file://localhost/x, file:/x: a local file
        rest = text[5:]
        if rest.startswith("//"):
            host, sep, rest = rest[2:].partition("/")
            if host[:1] in (".", "~"):  # `file://.env`: no host is named so; the aws CLI's
                return host + sep + rest  # relative path
            if host not in ("", "localhost") or not sep:
                return None
            rest = "/" + rest
        if rest.startswith("/"):
            return rest
        return rest if rest[:1] == "~" or rest[:2] in ("./", "..") else None  # npm's file:../x
    for _ in range(4):
        eq = text.find("=")
        slash = text.find("/")
        if eq < 0 or (0 <= slash < eq):
            return text if looks_like_path(text) else None
        text = text[eq + 1 :]
    return None


_SEPARATORS = "=:,"
_DOT_VALUE = re.compile(r"[=,]\.[^.\d]|^@\.")  # k=.env, id=x,src=.env, @.env


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


class _Scan:
    """Where reading an argv has got to: the word at `i`, the operands so far, and what the
    options before it said of the operands (a flag's role, a dropped first operand)."""

    __slots__ = (
        "argv", "dropped_first", "end_options", "flag_role", "i", "operands", "out", "spec"
    )

    def __init__(self, spec: Spec, argv: Sequence[str | None]) -> None:
        self.spec = spec
        self.argv = argv
        self.out = Reading()
        self.operands: list[int] = []
        self.flag_role: Role | None = None
        self.dropped_first = False
        self.end_options = False
        self.i = 1

    def option_seen(self, name: str) -> None:
        """What any option says of the rest: it drops the first operand, or ends the options."""
        self.dropped_first = self.dropped_first or name in self.spec.first_drops
        self.end_options = self.end_options or name in self.spec.ends_options

    def value_use(self, name: str, at: int, value: str | None = None) -> None:
        found = _value_use(self.spec, name, at, value)
        if found is not None:
            self.out.uses.append(found)


def read_argv(spec: Spec, argv: Sequence[str | None]) -> Reading:
    """Apply `spec` to `argv` (argv[0] is the command name)."""
    scan = _Scan(spec, argv)
    n = len(argv)
    while scan.i < n:
        arg = argv[scan.i]
        if arg is None or scan.end_options or arg == "-" or not arg.startswith("-"):
            if _operand(scan, arg):
                break
        elif arg == "--":
            scan.end_options = True
            scan.i += 1
        elif arg.startswith("--"):
            _long_option(scan, arg)
        elif arg in spec.options or arg in spec.values:  # a whole word: -TT, -exec-like names
            _whole_word_option(scan, arg)
        elif spec.operands == "path" and not spec.options and not spec.values and "/" in arg[2:]:
            # a command guard does not know: `-o/out`, `-odata/out`, `-I../inc`, `-conf=x/y`,
            # `-r:x/y` most likely name a path: the whole remainder after the option
            for value in attached_values(arg):
                if looks_like_path(value):
                    scan.out.uses.append(Use(scan.i, "path", value))
            scan.i += 1
        else:  # a cluster of short options: -xvf FILE, -n1, -C/dir
            _short_options(scan, arg)
    return _operands_read(scan)


def _operand(scan: _Scan, arg: str | None) -> bool:
    """An operand (or a wrapper's assignment); True when it starts the command a wrapper runs."""
    spec, i = scan.spec, scan.i
    wrapper = spec.operands == "command"
    if wrapper and arg is not None and spec.assignments and _ASSIGNMENT.match(arg):
        scan.i += 1
        return False
    scan.operands.append(i)
    if wrapper and len(scan.operands) > spec.skip:
        scan.out.run = i
        return True
    if wrapper:  # flock FILE, timeout DURATION: a path-shaped one is a read
        scan.out.uses.append(Use(i, spec.skipped))
    if spec.stop_at_operand:
        scan.end_options = True
    scan.i += 1
    return False


def _long_option(scan: _Scan, arg: str) -> None:
    """`--name`, `--name=value`, `--name value`."""
    spec, argv, out, i = scan.spec, scan.argv, scan.out, scan.i
    name, eq, value = arg.partition("=")
    role = spec.options.get(name)
    takes = role is not None or name in spec.values
    out.options[name] = value if eq else (_word(argv, i + 1) if takes else None)
    scan.end_options = scan.end_options or name in spec.ends_options
    if role is not None:
        scan.dropped_first = scan.dropped_first or name in spec.first_drops
        if eq:
            out.uses.append(Use(i, role, value))
        else:
            out.uses.append(Use(i + 1, role))
            i += 1
    elif name in spec.values:
        if eq:
            scan.value_use(name, i, value)
        else:
            scan.value_use(name, i + 1)
            i += 1
    elif name in spec.pairs and not eq:  # jq --rawfile NAME FILE
        if spec.pairs[name] != "data":
            out.uses.append(Use(i + 2, spec.pairs[name]))
        i += 2
    elif name in spec.flags:
        scan.flag_role = spec.flags[name]
    elif eq and path_part(value) is not None:  # an option guard does not know
        out.uses.append(Use(i, _option_role(name), path_part(value)))
    scan.i = i + 1


def _whole_word_option(scan: _Scan, arg: str) -> None:
    """A single-dash option named whole (`-TT`, `-exec`), its value the next word."""
    i = scan.i
    scan.out.options[arg] = _word(scan.argv, i + 1)
    role = scan.spec.options.get(arg)
    scan.option_seen(arg)
    if role is not None:
        scan.out.uses.append(Use(i + 1, role))
    else:
        scan.value_use(arg, i + 1)
    scan.i = i + 2


def _short_options(scan: _Scan, arg: str) -> None:
    """A cluster of short options (`-xvf FILE`, `-n1`, `-C/dir`): flags until one that takes a
    value, which is the rest of the word or else the next word."""
    spec, out, i = scan.spec, scan.out, scan.i
    for j in range(1, len(arg)):
        opt = "-" + arg[j]
        role = spec.options.get(opt)
        if role is not None or opt in spec.values:
            scan.option_seen(opt)
            rest = arg[j + 1 :]
            out.options[opt] = rest or _word(scan.argv, i + 1)
            if rest:
                if role is None:
                    scan.value_use(opt, i, rest)
                else:
                    out.uses.append(Use(i, role, rest))
            else:
                if role is None:
                    scan.value_use(opt, i + 1)
                else:
                    out.uses.append(Use(i + 1, role))
                i += 1
            break
        out.options[opt] = None
        if opt in spec.flags:
            scan.flag_role = spec.flags[opt]
    scan.i = i + 1


def _operands_read(scan: _Scan) -> Reading:
    """The roles of the operands, once the options are read."""
    spec, argv, out, operands = scan.spec, scan.argv, scan.out, scan.operands
    if spec.operands == "command":
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
    _operand_roles(spec, operands, scan.flag_role, scan.dropped_first, out)
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
