"""Commands known to print only paths under the roots they were given (or only names and
numbers), as data. Their output fed to `xargs`, or used as `$( )` arguments, stands for paths
under those roots rather than for anything at all: `find src -name '*.py' | xargs wc -l` reads
under src, `wc -l $(git ls-files)` reads under the current directory.

One row per producer. `roots` says where the printed paths lie: "operands" (the operands
before the first expression word, find's ROOTS), "after-first" (the operands after a pattern,
as rg -l PATTERN PATHS), or "cwd" (under the current directory: git ls-files, and names and
numbers such as `id -u`, which are plain words a consumer reads relative to it). Symlinks under
a root are not followed here: a path printed is a name under the root.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple


class Producer(NamedTuple):
    roots: Literal["operands", "after-first", "cwd"]
    prints: Literal["paths", "name", "number"] = "paths"
    subcommand: tuple[str, ...] = ()  # the words after the name (`git ls-files`)
    needs: frozenset[str] = frozenset()  # one of these must be given (`rg -l`); letters too
    refuses: frozenset[str] = frozenset()  # these make it print other things or run things
    values: frozenset[str] = frozenset()  # its options that take a value
    expression: str = ""  # operands end at a word starting with one of these (find's -name)
    patterns: frozenset[str] = frozenset()  # options that give the pattern: no pattern operand
    leading: frozenset[str] = frozenset()  # options before the roots (find -L, -H, -D x, -O2)


def _v(*names: str) -> frozenset[str]:
    return frozenset(names)


_FIND_ACTIONS = _v(
    "-exec",
    "-execdir",
    "-ok",
    "-okdir",
    "-printf",
    "-fprintf",
    "-fprint",
    "-fprint0",
    "-fls",
    "-ls",
    "-delete",
    "-files0-from",
)

PRODUCERS: dict[str, tuple[Producer, ...]] = {
    "find": (
        Producer(
            "operands",
            refuses=_FIND_ACTIONS,
            expression="-(!",
            leading=_v("-H", "-L", "-P", "-D", "-O"),
            values=_v("-D"),
        ),
    ),
    "fd": (
        Producer(
            "after-first",
            refuses=_v(
                *("-x", "--exec", "-X", "--exec-batch", "-l", "--list-details", "--format"),
                *("--base-directory", "--search-path", "--exec-batch"),
            ),
            values=_v("-e", "--extension", "-t", "--type", "-d", "--max-depth", "-E", "--exclude"),
        ),
    ),
    "fdfind": (
        Producer(
            "after-first",
            refuses=_v("-x", "--exec", "-X", "--exec-batch", "--base-directory", "--search-path"),
        ),
    ),
    "rg": (
        Producer(
            "after-first",
            needs=_v("-l", "--files-with-matches", "--files-without-match"),
            values=_v("-g", "--glob", "-t", "--type", "-T", "--type-not", "-e", "--regexp", "-f"),
            patterns=_v("-e", "--regexp", "-f", "--file"),
            refuses=_v("--pre"),
        ),
        Producer("operands", needs=_v("--files"), refuses=_v("--pre")),
    ),
    "grep": (
        Producer(
            "after-first",
            needs=_v("-l", "-L", "--files-with-matches", "--files-without-match"),
            values=_v("--include", "--exclude", "--exclude-dir", "-e", "--regexp", "-f"),
            patterns=_v("-e", "--regexp", "-f", "--file"),
        ),
    ),
    "git": (
        Producer(  # names under its pathspecs (`git ls-files ..` prints ../…)
            "operands",
            subcommand=("ls-files",),
            refuses=_v("--format"),
            values=_v("-x", "--exclude", "-X", "--exclude-from", "--with-tree"),
        ),
        Producer("cwd", subcommand=("diff",), needs=_v("--name-only")),
        Producer("cwd", subcommand=("rev-parse",), needs=_v("--show-toplevel", "--show-prefix")),
    ),
    # ls prints the names in its directories, and file operands as given (`ls -d /etc/*`)
    "ls": (Producer("operands", refuses=_v("-a", "--all", "-l", "-R")),),
    # names and numbers: a word a consumer reads as a name relative to the current directory
    "id": (Producer("cwd", prints="number", needs=_v("-u", "-g", "-un", "-gn")),),
    "uname": (Producer("cwd", prints="name"),),
    "whoami": (Producer("cwd", prints="name"),),
    "nproc": (Producer("cwd", prints="number"),),
    "date": (Producer("cwd", prints="name", refuses=_v("-f", "--file", "-r", "--reference")),),
    "hostname": (Producer("cwd", prints="name"),),
}


def printed_roots(argv: Sequence[str]) -> tuple[str, ...] | None:
    """Where the paths `argv` prints lie, if it is a known producer; else None."""
    rows = PRODUCERS.get(argv[0].rsplit("/", 1)[-1]) if argv else None
    for row in rows or ():
        found = _roots(row, argv)
        if found is not None:
            return found
    return None


def _roots(row: Producer, argv: Sequence[str]) -> tuple[str, ...] | None:
    words = list(argv[1:])
    if tuple(words[: len(row.subcommand)]) != row.subcommand:
        return None
    words = words[len(row.subcommand) :]
    if row.prints != "paths" and any(w[:1] == "+" and ("/" in w or ".." in w) for w in words):
        return None  # a format that spells a path: `date +/etc/%F`
    if row.prints != "paths" and row.roots == "cwd" and not row.needs:
        return None if any(w.split("=", 1)[0] in row.refuses for w in words) else (".",)
    operands: list[str] = []
    given = patterned = False
    in_expression = False
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        name = word.split("=", 1)[0]
        if name in row.refuses:
            return None
        if word.startswith("-") and word != "-":
            given = given or name in row.needs or _letters_given(word, row.needs)
            patterned = patterned or name in row.patterns or word[:2] in row.patterns
            if row.expression and not operands and not in_expression and word[:2] in row.leading:
                skip = word in row.values
            elif row.expression and word[:1] in row.expression:
                in_expression = True
            elif name in row.values and "=" not in word:
                skip = True
            continue
        if row.expression and word[:1] in "(!":
            in_expression = True
        if not in_expression:
            operands.append(word)
        elif row.expression:
            continue
    if row.needs and not given:
        return None
    if row.roots == "cwd":
        return (".",)
    if row.roots == "after-first" and not patterned:
        operands = operands[1:]
    return tuple(operands) or (".",)


def _letters_given(word: str, needs: frozenset[str]) -> bool:
    """`-rl` gives -l."""
    if word.startswith("--"):
        return False
    return any(f"-{letter}" in needs for letter in word[1:])
