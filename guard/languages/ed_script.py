"""ed's commands, as `printf … | ed -s FILE` or a heredoc gives them: the ones that run a
shell (`!cmd`, `r !cmd`, `w !cmd`, `e !cmd`) and the files the others read or write (`r F`,
`e F`, `w F`, `f F`). Text typed after `a`, `i` and `c` is text up to a lone `.`, not commands.
Pure: text in, findings out (guard/languages/inline_code.py's `Finding`).
"""

from __future__ import annotations

import re

from guard.languages.inline_code import Finding

# an ed address, or a range of them: 1,$  .,+2  /re/  ?re?  'a  ;  %
_ADDRESS = re.compile(
    r"""(?:\s|[0-9.$+\-,;%^]|'[a-z]|/(?:[^/\\\n]|\\.)*/?|\?(?:[^?\\\n]|\\.)*\??)*"""
)
_TEXT_INPUT = frozenset("aic")  # a, i, c: the lines after them are text up to a lone `.`
# r F reads F; w F and W F write it; e F, E F and f F make F the file a later `w` writes
_FILE_COMMANDS = {"r": "read", "e": "write", "E": "write", "w": "write", "W": "write", "f": "write"}
_GLOBAL = re.compile(r"[gGvV](/(?:[^/\\\n]|\\.)*/?)")  # g/re/COMMANDS: each line's commands


def ed_findings(script: str) -> list[Finding]:
    """What ed does with `script`: shell lines it runs, files it reads or writes."""
    found: list[Finding] = []
    typing = False
    for line in script.split("\n"):
        if typing:
            typing = line != "."
            continue
        rest = line[_ADDRESS.match(line).end() :]  # type: ignore[union-attr]
        each = _GLOBAL.match(rest)
        if each is not None:  # g/re/cmd: cmd runs on every matching line
            rest = rest[each.end() :].lstrip() or "p"
        if not rest:
            continue
        command, argument = rest[0], rest[1:]
        if command == "!":
            found.append(Finding("shell", argument))
        elif command in _TEXT_INPUT and argument.strip() in ("", "l", "n", "p"):
            typing = True
        elif command in _FILE_COMMANDS:
            if command == "w" and argument[:1] == "q":  # wq FILE
                argument = argument[1:]
            target = argument.strip()
            if target.startswith("!"):  # r !cmd, w !cmd, e !cmd: a shell runs cmd
                found.append(Finding("shell", target[1:]))
                if command in "wW":  # … with the text ed holds on its standard input
                    found.append(Finding("dynamic", f"ed pipes the text it edits into {target}"))
            elif target and argument[:1] in (" ", "\t"):
                found.append(Finding(_FILE_COMMANDS[command], target))  # type: ignore[arg-type]
    return found
