"""Interpreters: programs that run code — a script, code given with -c or -e, or code on stdin.

One `Interpreter` record per program says how it takes code and in which language guard reads
it; its argument `Spec` (which words are paths) is derived from the record. Python is read
through `ast`, JavaScript, Ruby, Perl, PHP and AppleScript by a token scan
(guard/languages/inline_code.py); code in any other language ("unread") cannot be seen through,
so inline code or code on a pipe or heredoc asks. Shells whose code is bash-compatible are in
shells.py (read as bash); the others (fish, nu, csh, pwsh …) are here, unread.

To teach guard an interpreter, add one row to `INTERPRETERS`.
"""

from __future__ import annotations

from guard.knowledge.commands.interpreter import Interpreter
from guard.knowledge.commands.spec import Spec, opts

_PYTHON = Interpreter("python", code=opts("-c"), values=opts("-W", "-X", "-Q"))
_NODE = Interpreter(
    "js",
    code=opts("-e", "--eval", "-p", "--print"),
    values=opts(
        *("-r", "--require", "--import", "--loader", "--experimental-loader", "-C"),
        *("--conditions", "--env-file", "--input-type", "--title"),
    ),
    quiet=opts("--version", "-v", "--help", "-h"),
)
_RUBY = Interpreter("ruby", code=opts("-e"), values=opts("-I", "-r", "-C", "-E", "-F"))
_PERL = Interpreter("perl", code=opts("-e", "-E"), values=opts("-I", "-M", "-m", "-x"))
_LUA = Interpreter("unread", code=opts("-e"), values=opts("-l"), quiet=opts("-v"))
_TCL = Interpreter("unread", quiet=opts())
_LISP = Interpreter(
    "unread",
    code=opts("--eval", "-eval", "-x", "-e"),
    scripts=opts("--load", "-load", "--script", "-i"),
    values=opts("--core", "--dynamic-space-size", "--control-stack-size"),
)
_POSIXISH_NOT = Interpreter(  # csh, tcsh, rc, es: -c STRING, or a script, or stdin
    "unread", code=opts("-c"), quiet=opts("--version", "--help")
)

INTERPRETERS: dict[str, Interpreter] = {
    **dict.fromkeys(
        (
            *("python", "python2", "python3", "pypy", "pypy3", "pythonw", "micropython"),
            *("graalpy", "jython", "ipython", "ipython3", "cpython"),
        ),
        _PYTHON,
    ),
    **dict.fromkeys(("node", "nodejs"), _NODE),
    "bun": _NODE._replace(
        values=opts("-r", "--preload", "--cwd", "-c", "--config", "--env-file"),
        code_words=opts(),
    ),
    "deno": Interpreter(
        "js", code=opts("--eval"), code_words=opts("eval"), values=opts("--config", "-c")
    ),
    **dict.fromkeys(("tsx", "ts-node", "ts-node-esm"), _NODE._replace(values=opts("-r"))),
    **dict.fromkeys(("qjs", "rhino", "d8", "jrunscript"), Interpreter("js", code=opts("-e"))),
    "gjs": Interpreter("js", code=opts("-c", "--command"), values=opts("-I", "--include-path")),
    "osascript": Interpreter("applescript", code=opts("-e"), values=opts("-l", "-s")),
    **dict.fromkeys(("ruby", "jruby", "truffleruby"), _RUBY),
    "irb": Interpreter("ruby"),
    "perl": _PERL,
    **dict.fromkeys(("raku", "perl6", "rakudo"), Interpreter("unread", code=opts("-e"))),
    **dict.fromkeys(
        ("php", "php-cli", "hhvm"),
        Interpreter(
            "php",
            code=opts("-r", "--run"),
            values=opts("-c", "-d", "-z"),
            scripts=opts("-f", "--file"),
        ),
    ),
    # code guard cannot read: inline code, or code on a pipe or heredoc, asks
    **dict.fromkeys(("lua", "luajit", "texlua"), _LUA._replace(values=opts("-l", "-j", "-b"))),
    **dict.fromkeys(("tclsh", "wish", "jimsh"), _TCL),
    "expect": Interpreter("unread", code=opts("-c"), scripts=opts("-f", "-b"), quiet=opts("-v")),
    "R": Interpreter("unread", code=opts("-e"), scripts=opts("-f", "--file")),
    **dict.fromkeys(("Rscript", "r"), Interpreter("unread", code=opts("-e"))),
    "julia": Interpreter(
        "unread",
        code=opts("-e", "--eval", "-E", "--print"),
        scripts=opts("-L", "--load"),
        values=opts("-p", "--procs", "-t", "--threads", "-J", "--sysimage", "--project"),
    ),
    "guile": Interpreter(
        "unread",
        code=opts("-c"),
        scripts=opts("-s", "-l"),
        values=opts("-e", "-L", "-C", "-x", "--language"),
    ),
    "racket": Interpreter(
        "unread",
        code=opts("-e", "--eval"),
        scripts=opts("-f", "--load", "-t", "--require", "-r", "--script"),
        values=opts("-l", "--lib", "-S", "--search"),
    ),
    **dict.fromkeys(("sbcl", "clisp", "ecl", "ccl", "ccl64", "lisp"), _LISP),
    **dict.fromkeys(("scheme", "chez", "petite"), Interpreter("unread", scripts=opts("--script"))),
    **dict.fromkeys(
        ("csi", "gsi"), Interpreter("unread", code=opts("-e", "-p"), scripts=opts("-s"))
    ),
    "mit-scheme": Interpreter("unread", code=opts("--eval"), scripts=opts("--load")),
    **dict.fromkeys(("ocaml", "utop"), Interpreter("unread", values=opts("-I"))),
    **dict.fromkeys(("ghc", "ghci"), Interpreter("unread", code=opts("-e"), stdin=False)),
    **dict.fromkeys(("runghc", "runhaskell"), Interpreter("unread")),
    "elixir": Interpreter("unread", code=opts("-e", "--eval"), scripts=opts("-r")),
    "iex": Interpreter("unread"),
    "erl": Interpreter("unread", code=opts("-eval"), values=opts("-s", "-run", "-pa", "-pz")),
    "escript": Interpreter("unread"),
    **dict.fromkeys(
        ("groovy", "scala", "clojure", "clj", "bb", "kotlin"),
        Interpreter("unread", code=opts("-e", "--eval"), scripts=opts("-f", "--file")),
    ),
    "jshell": Interpreter("unread", values=opts("-R", "-J", "--class-path")),
    "crystal": Interpreter("unread", code_words=opts("eval")),
    "octave": Interpreter("unread", code=opts("--eval")),
    "gnuplot": Interpreter("unread", code=opts("-e")),
    "dc": Interpreter("unread", code=opts("-e", "--expression"), scripts=opts("-f", "--file")),
    "m4": Interpreter("unread", values=opts("-D", "-U", "-I", "-d")),
    "gdb": Interpreter(
        "unread",
        code=opts("-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--init-eval-command"),
        scripts=opts("-x", "--command", "-ix", "--init-command"),
        values=opts("-p", "--pid", "-d", "--directory", "-c", "--core", "-s", "--symbols"),
    ),
    "lldb": Interpreter(
        "unread",
        code=opts("-o", "--one-line", "-O", "--one-line-before-file", "-k"),
        scripts=opts("-s", "--source", "-S", "--source-before-file"),
        values=opts("-p", "--attach-pid", "-n", "--attach-name", "-c", "--core"),
    ),
    **dict.fromkeys(
        ("vim", "nvim", "vi", "ex", "view", "gvim", "vimdiff"),
        Interpreter("vim", code=opts("-c", "--cmd"), scripts=opts("-S", "-s"), stdin=False),
    ),
    "emacs": Interpreter(
        "unread",
        code=opts("--eval", "--execute"),
        scripts=opts("-l", "--load", "--script"),
        values=opts("-f", "--funcall"),
        stdin=False,
    ),
    # shells whose code is not bash's (bash-compatible shells are in shells.py)
    "fish": Interpreter(
        "unread",
        code=opts("-c", "--command", "-C", "--init-command"),
        values=opts("-d", "--debug", "-o", "--debug-output", "-f", "--features"),
        quiet=opts("--version", "-v", "--help", "-h", "-n", "--no-execute"),
    ),
    **dict.fromkeys(
        ("nu", "nushell"),
        Interpreter(
            "unread",
            code=opts("-c", "--commands", "-e", "--execute"),
            scripts=opts("--config", "--env-config", "--plugin-config"),
            values=opts("--log-level", "-I", "--include-path", "--log-target", "--table-mode"),
        ),
    ),
    "elvish": Interpreter("unread", code=opts("-c"), values=opts("-rc", "-sock", "-db")),
    "xonsh": Interpreter("unread", code=opts("-c"), values=opts("--rc", "-D", "--shell-type")),
    **dict.fromkeys(("csh", "tcsh", "rc", "es", "ion", "murex", "ysh", "oil"), _POSIXISH_NOT),
    **dict.fromkeys(
        ("pwsh", "powershell", "pwsh-preview"), Interpreter("unread", any_option=True, quiet=opts())
    ),
}


def _spec(record: Interpreter) -> Spec:
    """Which of an interpreter's words are paths: a script, then its arguments; the code and
    the values of options are not paths, a script given with an option is read."""
    return Spec(
        operands="path",
        first="read",
        values=record.code | record.values,
        text=record.code,
        options={**dict.fromkeys(record.scripts, "read")},
        first_drops=record.code | record.scripts,
        stop_at_operand=True,
    )


# the spec for interpreters whose arguments guard knew before their records (kept as it was)
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

_KEPT = (
    *("python", "python2", "python3", "node", "nodejs", "ruby", "perl", "php", "deno", "bun"),
    *("pypy", "pypy3", "tsx", "ts-node"),
)

SPECS: dict[str, Spec] = {
    **{name: _spec(record) for name, record in INTERPRETERS.items()},
    **dict.fromkeys(_KEPT, INTERPRETER),
}
