"""What an interpreter record says: how one program takes code (the rows are in interpreters.py)."""

from __future__ import annotations

from typing import NamedTuple

from guard.knowledge.commands.spec import opts

# The options through which programs take code, by long convention (`-e`, `-c`, `--eval` …):
# given to a program guard does not know, with a value written like code, it may run it.
CODE_OPTIONS = opts(
    *("-e", "--eval", "-eval", "-c", "--command", "--exec", "--execute", "-execute"),
    *("--do", "--run-string", "-g", "--goal", "--expr", "--expression", "-x", "--code"),
)


class Interpreter(NamedTuple):
    """How one program takes code.

    `code`: options whose value is code (`-c`, `-e`, `--eval`), given apart or attached.
    `scripts`: options whose value is a file of code it runs (`-f FILE`, `--load FILE`).
    `values`: other options that take a value (not code).
    `quiet`: options with which it runs nothing unless code is also given (`--version`).
    `code_words`: a first operand after which the next operand is code (`deno eval CODE`).
    `stdin`: with no script and no code option, it runs code read from standard input.
    `any_option`: every option may carry code (PowerShell abbreviates and folds case).
    `edits`: its operands are files it edits, not scripts: its code still comes from standard
    input (`printf 'w\\nq\\n' | ed -s FILE`).
    `connects`: its operands name the machine it connects to (ftp HOST): its code still comes
    from standard input.
    `script_words`: a first operand after which the next operand is the script (`deno run F`).
    `languages`: options that say which language the code is in (`osascript -l JavaScript`):
    given one that names another language than `language`, the code is not read.
    `files`: its operands are files it opens, among which its options may stand (`vim FILE -c
    CMD`), and an operand `+CMD` is code too (`+NUM`, `+/PAT` only place the cursor).
    `stdin_letters`: short options with which a program that takes no code from standard input
    does (`vim -es <<< CMDS`).
    """

    language: str  # python, js, ruby, perl, php, applescript, vim, ed; "unread": guard cannot read
    code: frozenset[str] = frozenset()
    scripts: frozenset[str] = frozenset()
    values: frozenset[str] = frozenset()
    quiet: frozenset[str] = opts("--version", "-V", "--help", "-h")
    code_words: frozenset[str] = frozenset()
    stdin: bool = True
    any_option: bool = False
    edits: bool = False
    languages: frozenset[str] = frozenset()
    script_words: frozenset[str] = frozenset()
    connects: bool = False
    files: bool = False
    # letters of short options with which it reads its code from standard input all the same
    # (vim's `-e`, `-E`, `-es`: Ex mode reads Ex commands from a pipe or a heredoc)
    stdin_letters: str = ""
