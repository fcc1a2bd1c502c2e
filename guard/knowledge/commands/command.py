"""One record per command: everything guard knows of a command name.

The reader is `command_for` (guard/knowledge/commands/__init__.py); no other module looks a
command name up in a table.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from guard.knowledge.commands.effect import Tool
from guard.knowledge.commands.interpreter import Interpreter
from guard.knowledge.commands.option_table import OptionTable
from guard.knowledge.commands.spec import Spec

Quiet = tuple[tuple[tuple[str, ...], str], ...]
# How many leading words an approval of the command keeps (guard/approvals/arity.py): for the
# name alone ("") and for the name and its first argument (`npm run`), the longer winning.
Arity = tuple[tuple[str, int], ...]
EXACT = 0  # a width of none: an approval remembers the exact argv
# The variables whose value carries the command's options (`NODE_OPTIONS`), each with how it
# is read (guard/projection/variables.py).
Env = tuple[tuple[str, OptionTable], ...]


class HomeFile(NamedTuple):
    """A file under home a command reads or writes of its own accord: `aws configure` saves
    keys in ~/.aws, `gh auth token` prints the one in ~/.config/gh/hosts.yml, `ssh-keygen`
    writes ~/.ssh (guard/projection/plain_commands.py reads them)."""

    under: str  # the path below ~
    mode: Literal["read", "write"]
    # the subcommand words that do it (a last "": and nothing after them; a last option: and
    # that option given, `config view --raw`); one option alone (`--import`): given anywhere;
    # none: always
    words: tuple[str, ...] = ()


class Copy(NamedTuple):
    """A subcommand that copies between this machine and another place (a container, a pod):
    after its `words`, the operands are the sources, then the destination; a side written
    `NAME:path` (`web:/app/log`, `ns/pod:/tmp`) is the other place, any other is a path here,
    read (a source) or written (the destination)."""

    words: tuple[str, ...]


def home_files(
    under: str, mode: Literal["read", "write"], *words: tuple[str, ...]
) -> tuple[HomeFile, ...]:
    """One `HomeFile` for each of `words`, all reaching ~/`under` the same way."""
    return tuple(HomeFile(under, mode, w) for w in words)


def arity(width: int | None, *subcommands: tuple[str, int]) -> Arity:
    """The approval widths of a command: `width` for its name (None: what an unknown tool
    gets), and the width after each first argument that names a mode of its own
    (`arity(2, ("run", 3), ("exec", EXACT))`)."""
    return ((("", width),) if width is not None else ()) + subcommands


class Runner(NamedTuple):
    """A tool whose subcommand runs any command: `uv run CMD …`, `bundle exec CMD …`."""

    subcommands: frozenset[str]
    values: frozenset[str] = frozenset()  # the subcommand's options that take a value
    flags: frozenset[str] = frozenset()  # … and those that do not
    skip: int = 0  # operands before the command (direnv exec DIR)
    # subcommands that are a command of their own, run with the words after them: `stack
    # eval CODE` is `ghc -e CODE`, `stack runghc F` is `runghc F`
    commands: dict[str, tuple[str, ...]] = {}  # noqa: RUF012
    # the first `--` after the command is the runner's, not the command's (`stack exec ghc --
    # -e CODE` runs `ghc -e CODE`)
    own_dashdash: bool = False


class Printer(NamedTuple):
    """A command that prints the files it names as they are (`cat F`), or unpacked (`gunzip -c
    F`): what it hands a pipe is what `< F` would give."""

    needs: str = ""  # option letters it must be given to print (gunzip's `c`)
    allows: str = ""  # option letters it may be given while it prints (`cdkq`)
    unpacks: bool = False  # what it prints is the file unpacked, not its bytes


class RecursiveRead(NamedTuple):
    """A tool that reads every file below a directory it is given, with these options (or
    always): what it reads is what is there, secrets included."""

    flags: frozenset[str]  # options that make it recurse (none: it always does)
    hidden: bool  # it reads names that start with "." too
    hidden_flags: frozenset[str] = frozenset()  # options that make it read those too
    values: frozenset[str] = frozenset()  # options whose value `recurse` makes it recurse
    follows: frozenset[str] = frozenset()  # options that make it follow links it meets below
    here: bool = True  # given no directory, it reads through the current one (tar does not)
    old_style: bool = False  # its first word may be its option letters without a dash (tar czf)
    # options whose value is a glob every file it reads matches (grep --include='*.py')
    includes: frozenset[str] = frozenset()
    lists: frozenset[str] = frozenset()  # options with which it only lists names (rg --files)


class Command(NamedTuple):
    """What guard knows of one command name (None or empty: nothing of that kind).

    Immutable as a frozen dataclass is, but a named tuple: `dataclasses` imports `inspect` and
    with it `ast`, which the checker's start-up must not pay for (see interpreter_code_test)."""

    name: str = ""  # the name the knowledge is filed under (`mkfs` for `mkfs.ext4`)
    spec: Spec | None = None  # which words are paths, code, commands (guard/languages/arguments.py)
    effects: Tool | None = None  # what it destroys, discards, publishes … (projection/effects.py)
    interpreter: Interpreter | None = None  # how it takes code (-c, -e, stdin)
    subcommands: bool = False  # a CLI with subcommands: the verb model reads its subcommand path
    own_rows: str = ""  # why the verb model leaves it to its rows ("" when it does not)
    quiet: Quiet = ()  # subcommand paths that remove nothing lost, each with why
    help_last: str = ""  # why a last operand `help` asks for help (`aws s3 rm help`)
    arity: Arity = ()  # how many words an approval keeps (none: as for a tool nobody knows)
    env: Env = ()  # the variables that carry its options
    # options with which it only shows what it would do (`kubectl --dry-run=client`, `rsync -n`):
    # named per command, since a tool that does not know one may do the change all the same
    dry_run: frozenset[str] = frozenset()
    # what it writes is made of what it reads (a copy; a compiler's output, as every spec of
    # kind "compiler"): running that is running what it was made of, not code nobody knows
    builds: bool = False
    home: tuple[HomeFile, ...] = ()  # files under home it reads or writes of its own accord
    # options that point it at another home (`--homedir`, `--kubeconfig`), or option letters
    # with which it writes elsewhere or only prints (`ssh-keygen -f FILE`, `-l`)
    home_elsewhere: frozenset[str] = frozenset()
    copies: tuple[Copy, ...] = ()  # subcommands that copy between here and another place
    runner: Runner | None = None  # a subcommand that runs the command it is given (uv run)
    recursive_read: RecursiveRead | None = None  # it reads every file below a directory given
    at_files: bool = False  # it reads more arguments from `@FILE` (binutils, the compilers)
    stdin_file_list: frozenset[str] = frozenset()  # options: it reads file names from its input
    container: bool = False  # a container engine: options that give a container the host's powers
    # it names files (their names, sizes, modes) without reading what they hold (`ls .env`)
    names_only: bool = False
    metadata_only: bool = False  # what it writes is a file's mode, owner or times, not its data
    # arguments that mean more than its spec says, each read by the walk's reader of that name
    # (guard/projection/plain_commands.py): "downloads" (where wget and curl put what they
    # fetch), "pager-commands" (less +CMD), "absolute-extracts" (cpio -i), "git-transports"
    # (git's ext:: runs a shell command)
    corners: frozenset[str] = frozenset()
    prints_files: Printer | None = None  # it prints the files it names (cat, gunzip -c)

    @property
    def known(self) -> bool:
        """Whether guard has any knowledge of the command."""
        return self.spec is not None or self.effects is not None or self.interpreter is not None
