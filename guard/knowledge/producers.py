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
    # which of the files below its roots it may print, for the secrets among them (what reads
    # what it prints reads those): names starting with "." only with `hidden_flags` (fd, rg,
    # ls), none that git does not track (`tracked`), only names matching the value of a
    # `names` option when the expression only narrows (find -name PAT)
    hidden: bool = True
    hidden_flags: frozenset[str] = frozenset()
    tracked: bool = False
    names: frozenset[str] = frozenset()


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
            names=_v("-name", "-iname"),
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
            hidden=False,
            hidden_flags=_v("-H", "--hidden", "-u", "--unrestricted"),
        ),
    ),
    "fdfind": (
        Producer(
            "after-first",
            refuses=_v("-x", "--exec", "-X", "--exec-batch", "--base-directory", "--search-path"),
            hidden=False,
            hidden_flags=_v("-H", "--hidden", "-u", "--unrestricted"),
        ),
    ),
    "rg": (
        Producer(
            "after-first",
            needs=_v("-l", "--files-with-matches", "--files-without-match"),
            values=_v("-g", "--glob", "-t", "--type", "-T", "--type-not", "-e", "--regexp", "-f"),
            patterns=_v("-e", "--regexp", "-f", "--file"),
            refuses=_v("--pre"),
            hidden=False,
            hidden_flags=_v("--hidden", "-.", "-u", "-uu", "-uuu", "--unrestricted"),
        ),
        Producer(
            "operands",
            needs=_v("--files"),
            refuses=_v("--pre"),
            hidden=False,
            hidden_flags=_v("--hidden", "-.", "-u", "-uu", "-uuu", "--unrestricted"),
        ),
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
            tracked=True,  # `--others` lists what git does not track
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
