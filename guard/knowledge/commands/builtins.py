"""Shell builtins and commands that print or compute: their words are data, or they change the
shell."""

from __future__ import annotations

from guard.knowledge.commands.command import EXACT, Command, arity
from guard.knowledge.commands.effect import E, Tool
from guard.knowledge.commands.spec import PRINT, Spec, opts

COMMANDS: dict[str, Command] = {
    "echo": Command(spec=PRINT, arity=arity(1)),
    "printf": Command(spec=Spec(kind="printf", operands="data"), arity=arity(1)),
    ":": Command(spec=PRINT),
    "true": Command(spec=PRINT),
    "false": Command(spec=PRINT),
    "yes": Command(spec=PRINT),
    "sleep": Command(spec=PRINT),
    "seq": Command(spec=PRINT),
    "expr": Command(spec=PRINT),
    "basename": Command(names_only=True, spec=PRINT),
    "dirname": Command(names_only=True, spec=PRINT),
    "read": Command(
        spec=Spec(
            kind="assigns",
            operands="data",
            values=opts("-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"),
        )
    ),
    "set": Command(spec=Spec(kind="positional", operands="data")),
    "shift": Command(spec=Spec(kind="positional", operands="data")),
    "exit": Command(spec=PRINT),
    "return": Command(spec=PRINT),
    "unset": Command(spec=PRINT),
    "wait": Command(spec=PRINT),
    "kill": Command(
        spec=PRINT,
        effects=Tool(
            values=opts("-s", "-n"),
            effects=(
                E("system", "processes", "kills every process it may (pid -1)", check="kill-all"),
                E(
                    "system",
                    "processes",
                    "sends a signal that stops processes",
                    check="signal-pids",
                    without=("-l", "-L", "--list", "-0"),
                ),
            ),
        ),
        arity=arity(EXACT),
    ),
    "jobs": Command(spec=PRINT),
    "fg": Command(spec=PRINT),
    "bg": Command(spec=PRINT),
    "ulimit": Command(spec=PRINT),
    "umask": Command(spec=PRINT),
    "getopts": Command(spec=Spec(kind="assigns", operands="data")),
    "let": Command(spec=PRINT),
    "alias": Command(spec=Spec(kind="alias", operands="data")),
    "unalias": Command(spec=PRINT),
    "shopt": Command(spec=PRINT),
    "type": Command(spec=PRINT),
    "which": Command(spec=PRINT, arity=arity(1)),
    "whoami": Command(spec=PRINT),
    "id": Command(spec=PRINT),
    "hostname": Command(spec=PRINT),
    "uname": Command(spec=PRINT),
    "tput": Command(spec=PRINT),
    "export": Command(spec=PRINT),
    "declare": Command(spec=PRINT),
    "typeset": Command(spec=PRINT),
    "local": Command(spec=PRINT),
    "readonly": Command(spec=PRINT),
    "disown": Command(spec=PRINT),
    "break": Command(spec=PRINT),
    "continue": Command(spec=PRINT),
    "pwd": Command(spec=PRINT, arity=arity(1)),
    "clear": Command(spec=PRINT),
    "reset": Command(spec=PRINT),
    "env-check": Command(spec=PRINT),
    "bind": Command(spec=Spec(kind="bind", operands="data")),
    "help": Command(spec=PRINT),
    "logout": Command(spec=PRINT),
    "dirs": Command(spec=PRINT),
    "suspend": Command(spec=PRINT),
    "times": Command(spec=PRINT),
    "caller": Command(spec=PRINT),
    "mapfile": Command(
        spec=Spec(
            kind="assigns",
            operands="data",
            values=opts("-d", "-n", "-O", "-s", "-u", "-c"),
            options={"-C": "code"},
        )
    ),
    "readarray": Command(
        spec=Spec(
            kind="assigns",
            operands="data",
            values=opts("-d", "-n", "-O", "-s", "-u", "-c"),
            options={"-C": "code"},
        )
    ),
    "ssh-add": Command(spec=PRINT),
    "notify-send": Command(spec=PRINT),
    "whereis": Command(spec=PRINT),
    "info": Command(spec=PRINT),
    "apropos": Command(spec=PRINT),
    "whatis": Command(spec=PRINT),
    "tldr": Command(spec=PRINT),
    "tealdeer": Command(spec=PRINT),
    "cheat": Command(spec=PRINT),
    "navi": Command(spec=PRINT),
    "pinfo": Command(spec=PRINT),
    "getent": Command(spec=PRINT),
    "date": Command(
        spec=Spec(operands="data", options={"-r": "read", "--reference": "read", "-f": "read"}),
        arity=arity(1),
    ),
    "builtin": Command(spec=Spec(kind="builtin", operands="command"), arity=arity(EXACT)),
    "command": Command(spec=Spec(kind="command", operands="command"), arity=arity(EXACT)),
    "exec": Command(
        spec=Spec(kind="exec", operands="command", values=opts("-a")), arity=arity(EXACT)
    ),
    "eval": Command(spec=Spec(kind="eval", operands="code"), arity=arity(EXACT)),
    "hash": Command(spec=Spec(operands="data", options={"-p": "execute"})),
    "enable": Command(spec=Spec(operands="data", options={"-f": "execute"})),
    "complete": Command(
        spec=Spec(
            operands="data",
            values=opts("-A", "-G", "-W", "-X", "-P", "-S", "-o", "-F"),
            options={"-C": "code"},
        )
    ),
    "compgen": Command(
        spec=Spec(  # -f, -d, -G list files: the word is where
            operands="data",
            values=opts("-A", "-W", "-X", "-P", "-S", "-o", "-F"),
            text=opts("-A", "-W", "-X", "-P", "-S", "-o", "-F"),
            options={"-C": "code", "-G": "read"},
            flags={"-f": "path", "-d": "path"},
        )
    ),
    "history": Command(spec=Spec(operands="write", flags={"-r": "read", "-n": "read"})),
    "fc": Command(spec=Spec(kind="fc", operands="data")),
    "coproc": Command(spec=Spec(kind="coproc", operands="command")),
    "source": Command(spec=Spec(kind="source"), arity=arity(EXACT)),
    ".": Command(spec=Spec(kind="source"), arity=arity(EXACT)),
    "trap": Command(spec=Spec(kind="trap")),
    "cd": Command(spec=Spec(kind="cd")),
    "pushd": Command(spec=Spec(kind="pushd")),
    "popd": Command(spec=Spec(kind="popd")),
    "test": Command(names_only=True, spec=Spec(kind="test")),
    "[": Command(names_only=True, spec=Spec(kind="test")),
    "[[": Command(names_only=True),  # bash's own test: its operands are named, not read
}
