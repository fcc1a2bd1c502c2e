"""Interpreters: a script, then its arguments; code given with -c or -e."""

from __future__ import annotations

from guard.knowledge.commands.spec import Spec, opts

INTERPRETER = Spec(
    operands="path",
    first="read",
    values=opts("-W", "-X", "-O", "-M"),
    text=opts("-M"),  # perl -MModule=args: a module name
    options={
        "--require": "read",  # node -r MODULE, ruby -r LIB: code loaded first
        "-r": "read",
        "-I": "read",  # perl, ruby: where modules are loaded from
        "-c": "data",
        "-e": "data",
        "-p": "data",
        "--eval": "data",
        "--print": "data",
        "-m": "data",
        "-E": "data",
    },
    first_drops=opts("-c", "-e", "-p", "--eval", "--print", "-m", "-E"),
    stop_at_operand=True,
    ends_options=opts("-c", "-m"),  # python -c CODE ARGS…, -m MODULE ARGS…: ARGS are the program's
)


SPECS: dict[str, Spec] = {
    # interpreters: a script, then its arguments
    **{
        n: INTERPRETER
        for n in (
            "python",
            "python2",
            "python3",
            "node",
            "nodejs",
            "ruby",
            "perl",
            "php",
            "deno",
            "bun",
            "lua",
            "Rscript",
            "pypy",
            "pypy3",
            "tsx",
            "ts-node",
        )
    },
}
