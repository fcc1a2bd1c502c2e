"""Where a fish line means something else than the bash guard reads it as.

guard judges every line as bash. A line typed into fish (`guard init fish`) is judged the same
way, and then checked here for what fish reads differently; each difference found is a reason
to ask — guard never allows a line it may have misread. What differs (fish 3):

- unquoted `(…)` is a command substitution in fish (`(cat cmd.txt)` runs the file's text as a
  command); bash reads a subshell or a syntax error;
- inside single quotes fish takes `\\'` and `\\\\` as escapes; bash takes nothing;
- unquoted `\\x2e`, `\\n`, `\\u…`, `\\e` … are escapes in fish, plain letters in bash;
- `$$name` is the variable that `$name` names, not bash's process id;
- `**` matches through every directory below; `>?` and `<?` are redirections;
- `and`, `or`, `not` run the rest of the command; `function`, `alias`, `abbr`, `bind`,
  `complete`, `funcsave`, `emit` … define code that runs later; `set -x`/`-U` (and `set` of a
  variable already in the environment, such as PATH) change what later commands run with.

Pure: the line, the commands the projection found, the names of the environment.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

RUNS_REST = frozenset({"and", "or", "not"})
DEFINES_CODE = frozenset({
    "function", "functions", "alias", "abbr", "bind", "complete", "funcsave", "funced", "emit",
    "commandline", "fish_add_path",
})  # fmt: skip
SET = "set"


def fish_problems(
    text: str, commands: Iterable[Sequence[str]], environment: Collection[str]
) -> tuple[str, ...]:
    """One reason per way `text`, as fish runs it, could differ from the bash guard judged;
    ``commands``: the argv of each command the projection found."""
    found = list(_in_text(text))
    for argv in commands:
        if not argv:
            continue
        name = argv[0]
        if name in RUNS_REST:
            found.append(f"fish's `{name}` runs the rest of its command, which guard reads as "
                         "arguments")  # fmt: skip
        elif name in DEFINES_CODE:
            found.append(f"fish's `{name}` defines code that runs later")
        elif name == SET and _sets_environment(argv[1:], environment):
            found.append("fish's `set` changes the environment of the commands after it")
    return tuple(dict.fromkeys(found))


def _sets_environment(args: Sequence[str], environment: Collection[str]) -> bool:
    flags = [a for a in args if a.startswith("-")]
    names = [a for a in args if not a.startswith("-")][:1]
    if any(f in ("--export", "--universal", "--path") for f in flags):
        return True
    short = "".join(f[1:] for f in flags if not f.startswith("--"))
    if any(c in short for c in "xU"):
        return True
    erasing = "e" in short or "--erase" in flags
    return bool(names) and not erasing and names[0] in environment


def _in_text(text: str) -> Iterable[str]:
    """The differences a scan of the text finds, quoting as fish quotes."""
    quote = ""
    i = 0
    while i < len(text):
        c = text[i]
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if quote == "'":
            if c == "\\":
                yield "a backslash inside single quotes is an escape in fish, not in bash"
                i += 1
            elif c == "'":
                quote = ""
        elif quote == '"':
            if c == "\\":
                i += 1
            elif c == '"':
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "\\":
            if nxt.isalnum():
                yield f"`\\{nxt}` is an escape in fish, a plain {nxt!r} in bash"
            i += 1
        elif c == "#" and (i == 0 or text[i - 1] in " \t\n;|&"):
            newline = text.find("\n", i)
            i = len(text) if newline < 0 else newline
            continue
        elif c == "(" and (i == 0 or text[i - 1] != "$"):
            yield "unquoted ( … ) is a command substitution in fish"
        elif c == "$" and nxt == "$":
            yield "$$ in fish names a variable by another's value"
        elif c == "*" and nxt == "*":
            yield "** in fish matches through every directory below"
        elif c in "<>" and nxt == "?":
            yield f"{c}? is a redirection in fish"
        i += 1
