"""Interpreters: programs that run code — a script, code given with -c or -e, or code on stdin.

One `Interpreter` record per program says how it takes code and in which language guard reads
it; its argument `Spec` (which words are paths) is derived from the record. Python is read
through `ast`, JavaScript, Ruby, Perl, PHP and AppleScript by a token scan
(guard/languages/inline_code.py); code in any other language ("unread") cannot be seen through,
so inline code or code on a pipe or heredoc asks. Shells whose code is bash-compatible are in
shells.py (read as bash); the others (fish, nu, csh, pwsh …) are here, unread.

To teach guard an interpreter, add its record to `COMMANDS`: its `Interpreter`, and the spec
`_spec` derives from it.
"""

from __future__ import annotations

from guard.knowledge.commands.build import DEPENDENCY, JVM_OPTIONS, NPM_QUIET
from guard.knowledge.commands.command import EXACT, Command, arity
from guard.knowledge.commands.interpreter import Interpreter
from guard.knowledge.commands.option_table import OptionTable
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


def _spec(record: Interpreter) -> Spec:
    """Which of an interpreter's words are paths: a script, then its arguments (for a client,
    the machine it connects to: no path); the code and the values of options are not paths,
    a script given with an option is read."""
    return Spec(
        operands="data" if record.connects else "path",
        first=None if record.connects else "read",
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

_PHP = Interpreter(
    "php",
    code=opts("-r", "--run"),
    values=opts("-c", "-d", "-z"),
    scripts=opts("-f", "--file"),
)

_DENO = Interpreter(
    "js",
    code=opts("--eval"),
    code_words=opts("eval"),
    script_words=opts("run"),
    values=opts("--config", "-c"),
)

_BUN = _NODE._replace(
    values=opts("-r", "--preload", "--cwd", "-c", "--config", "--env-file"),
    code_words=opts(),
)

_TSX = _NODE._replace(values=opts("-r"))

# JavaScript engines whose host objects are not node's (QuickJS's std/os, d8's os.system,
# Rhino's runCommand, jrunscript's exec, gjs's GLib.spawn_*): the token scan reads node's and
# Deno's APIs only, so their code is not read
_QJS = Interpreter("unread", code=opts("-e", "--eval"), values=opts("-I", "--include", "-m"))

_GJS = Interpreter("unread", code=opts("-c", "--command"), values=opts("-I", "--include-path"))

_JRUNSCRIPT = Interpreter(
    "unread", code=opts("-e"), scripts=opts("-f"), values=opts("-l", "-cp", "-classpath", "-J")
)

# osascript -l JavaScript runs JXA (app.doShellScript …), not AppleScript
_OSASCRIPT = Interpreter(
    "applescript", code=opts("-e"), values=opts("-l", "-s"), languages=opts("-l")
)

_IRB = Interpreter("ruby")

_RAKU = Interpreter("unread", code=opts("-e"))

_LUA_INTERPRETER = _LUA._replace(values=opts("-l", "-j", "-b"))

_EXPECT = Interpreter("unread", code=opts("-c"), scripts=opts("-f", "-b"), quiet=opts("-v"))

_R = Interpreter("unread", code=opts("-e"), scripts=opts("-f", "--file"))

_RSCRIPT = Interpreter("unread", code=opts("-e"))

_JULIA = Interpreter(
    "unread",
    code=opts("-e", "--eval", "-E", "--print"),
    scripts=opts("-L", "--load"),
    values=opts("-p", "--procs", "-t", "--threads", "-J", "--sysimage", "--project"),
)

_GUILE = Interpreter(
    "unread",
    code=opts("-c"),
    scripts=opts("-s", "-l"),
    values=opts("-e", "-L", "-C", "-x", "--language"),
)

_RACKET = Interpreter(
    "unread",
    code=opts("-e", "--eval"),
    scripts=opts("-f", "--load", "-t", "--require", "-r", "--script"),
    values=opts("-l", "--lib", "-S", "--search"),
)

_SCHEME = Interpreter("unread", scripts=opts("--script"))

_CSI = Interpreter("unread", code=opts("-e", "-p"), scripts=opts("-s"))

_MIT_SCHEME = Interpreter("unread", code=opts("--eval"), scripts=opts("--load"))

_OCAML = Interpreter("unread", code=opts("-e", "-eval"), values=opts("-I"))  # utop -e CODE

_GHC = Interpreter("unread", code=opts("-e"), stdin=False)

# Rebol (Red's `red` is also the restricted ed's name: that one is ed)
_RED = Interpreter("unread", code=opts("--do"), values=opts("-t", "-r", "-o"))

_NIM = Interpreter("unread", code=opts("--eval"))  # nim --eval:CODE; nim r FILE runs a file

_TCC = Interpreter(  # tcc -run FILE runs a C file; `-run -` runs C read from standard input
    "unread", values=opts("-o", "-I", "-L", "-l", "-D", "-U", "-B", "-x")
)

_WOLFRAM = Interpreter("unread", code=opts("-code", "-c"), scripts=opts("-file", "-f", "-script"))

_SAGE = Interpreter("unread", code=opts("-c"))

_MAXIMA = Interpreter(
    "unread",
    code=opts("--batch-string", "-r", "--run-string"),
    scripts=opts("-b", "--batch", "-p", "--preload-lisp"),
)

_GP = Interpreter("unread", values=opts("-s", "--stacksize", "-p", "--primelimit"))

_GHCI = Interpreter("unread", code=opts("-e"))  # the REPL reads code from its standard input

_GFORTH = Interpreter(
    "unread", code=opts("-e", "--evaluate"), values=opts("-m", "--dictionary-size")
)

_SWIFT = Interpreter("unread", code=opts("-e"), values=opts("-I", "-L", "-l", "-F", "-module-name"))

_RUNGHC = Interpreter("unread", code=opts("-e"))  # flags before the module are ghc's

_ELIXIR = Interpreter("unread", code=opts("-e", "--eval"), scripts=opts("-r"))

_IEX = _ELIXIR._replace(values=opts("-S", "--sname", "--name", "--cookie", "--remsh"))

_ERL = Interpreter("unread", code=opts("-eval"), values=opts("-s", "-run", "-pa", "-pz"))

_ESCRIPT = Interpreter("unread")

_GROOVY = Interpreter("unread", code=opts("-e", "--eval"), scripts=opts("-f", "--file"))

_JSHELL = Interpreter("unread", values=opts("-R", "-J", "--class-path"))

_CRYSTAL = Interpreter("unread", code_words=opts("eval"))

_OCTAVE = Interpreter("unread", code=opts("--eval"))

_GNUPLOT = Interpreter("unread", code=opts("-e"))

# Blender runs Python given to it (--python-expr) or a script (-P) among the .blend files it
# opens and the frames it renders, in the order given
_BLENDER = Interpreter(
    "python",
    code=opts("--python-expr"),
    scripts=opts("-P", "--python"),
    values=opts(
        *("-o", "--render-output", "-f", "--render-frame", "-s", "--frame-start", "-e"),
        *("--frame-end", "-j", "--frame-jump", "-E", "--engine", "-F", "--render-format"),
        *("-t", "--threads", "-S", "--scene", "--python-text", "--addons", "--app-template"),
        *("-x", "--use-extension", "--log", "--log-level", "--debug-value"),
    ),
    stdin=False,
    files=True,
)

# GIMP's batch commands are Script-Fu, or another plug-in's language (--batch-interpreter)
_GIMP = Interpreter(
    "unread",
    code=opts("-b", "--batch"),
    values=opts("--batch-interpreter", "--session", "-g", "--gimprc", "--system-gimprc"),
    stdin=False,
    files=True,
)

_DC = Interpreter("unread", code=opts("-e", "--expression"), scripts=opts("-f", "--file"))

# -D NAME=BODY: a macro whose body runs when the input names it (syscmd in it runs a command)
_M4 = Interpreter("unread", code=opts("-D", "--define"), values=opts("-U", "-I", "-d"))

_GDB = Interpreter(
    "unread",
    code=opts("-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--init-eval-command"),
    scripts=opts("-x", "--command", "-ix", "--init-command"),
    values=opts("-p", "--pid", "-d", "--directory", "-c", "--core", "-s", "--symbols"),
)

_LLDB = Interpreter(
    "unread",
    code=opts("-o", "--one-line", "-O", "--one-line-before-file", "-k"),
    scripts=opts("-s", "--source", "-S", "--source-before-file"),
    values=opts("-p", "--attach-pid", "-n", "--attach-name", "-c", "--core"),
)

_FISH = Interpreter(
    "unread",
    code=opts("-c", "--command", "-C", "--init-command"),
    values=opts("-d", "--debug", "-o", "--debug-output", "-f", "--features"),
    quiet=opts("--version", "-v", "--help", "-h", "-n", "--no-execute"),
)

_NU = Interpreter(
    "unread",
    code=opts("-c", "--commands", "-e", "--execute"),
    scripts=opts("--config", "--env-config", "--plugin-config"),
    values=opts("--log-level", "-I", "--include-path", "--log-target", "--table-mode"),
)

_ELVISH = Interpreter("unread", code=opts("-c"), values=opts("-rc", "-sock", "-db"))

_XONSH = Interpreter("unread", code=opts("-c"), values=opts("--rc", "-D", "--shell-type"))

_PWSH = Interpreter("unread", any_option=True, quiet=opts())

# file-transfer clients run the commands they read (`put FILE` sends it, `!cmd` runs one)
_FTP = Interpreter(
    "unread", values=opts("-P", "-p", "-s", "-b", "-B", "-T"), quiet=opts(), connects=True
)
_LFTP = Interpreter(
    "unread",
    code=opts("-c", "-e"),
    scripts=opts("-f"),
    values=opts("-p", "-u", "--env-password"),
    connects=True,
)
_SMBCLIENT = Interpreter(
    "unread",
    code=opts("-c", "--command"),
    values=opts("-U", "--user", "-W", "--workgroup", "-p", "--port", "-I", "-m", "-A"),
    connects=True,
)

_MATLAB = Interpreter("unread", code=opts("-batch", "-r"), values=opts("-sd", "-logfile"))

_FENNEL = Interpreter("unread", code=opts("-e", "--eval"), values=opts("--add-package-path"))

_JANET = Interpreter("unread", code=opts("-e"), values=opts("-l", "-m"))

_HY = Interpreter("unread", code=opts("-c"))

_CLOJURESCRIPT = Interpreter("unread", code=opts("-e", "--eval"), scripts=opts("-i", "--init"))

_ROOT = Interpreter("unread", code=opts("-e"))

_PROLOG = Interpreter(  # swipl -g GOAL, gprolog --query-goal GOAL
    "unread",
    code=opts("-g", "-t", "--goal", "--query-goal", "--entry-goal", "--init-goal"),
    scripts=opts("-s", "-l", "--consult-file"),
    values=opts("-x", "-p", "-F", "--stack-limit", "--table-space"),
)

_GOSH = Interpreter("unread", code=opts("-e", "-E"), values=opts("-u", "-l", "-I", "-A", "-r"))

_NEWLISP = Interpreter("unread", code=opts("-e"), values=opts("-m", "-s", "-c", "-w", "-l"))

_PIKE = Interpreter("unread", code=opts("-e"), values=opts("-M", "-I", "-P", "-D"))

_SCSH = Interpreter("unread", code=opts("-c"), scripts=opts("-s", "-l"))


# the variables that carry a tool's options, and how each is read (its record's `env`)
_NODE_OPTIONS = OptionTable(
    "node",
    code=(
        *("--require", "-r", "--import", "--loader", "--experimental-loader"),
        *("--experimental-policy", "--policy-integrity", "--inspect", "--debug"),
        *("--openssl-config", "--openssl-shared-config", "--experimental-default-type"),
    ),
)
_PERL_OPTIONS = OptionTable("perl", code=("-M", "-m", "-d"), split="space")
_RUBY_OPTIONS = OptionTable("ruby", code=("-r", "--require", "-d", "--debug"), split="space")


COMMANDS: dict[str, Command] = {
    "python": Command(spec=INTERPRETER, interpreter=_PYTHON, arity=arity(EXACT)),
    "python2": Command(spec=INTERPRETER, interpreter=_PYTHON, arity=arity(EXACT)),
    "python3": Command(spec=INTERPRETER, interpreter=_PYTHON, arity=arity(EXACT)),
    "node": Command(
        env=(
            ("NODE_OPTIONS", _NODE_OPTIONS),
            ("NPM_CONFIG_NODE_OPTIONS", _NODE_OPTIONS),
            ("npm_config_node_options", _NODE_OPTIONS),
        ),
        spec=INTERPRETER,
        interpreter=_NODE,
        arity=arity(EXACT),
    ),
    "nodejs": Command(spec=INTERPRETER, interpreter=_NODE, arity=arity(EXACT)),
    "ruby": Command(
        env=(("RUBYOPT", _RUBY_OPTIONS),), spec=INTERPRETER, interpreter=_RUBY, arity=arity(EXACT)
    ),
    "perl": Command(
        env=(("PERL5OPT", _PERL_OPTIONS),), spec=INTERPRETER, interpreter=_PERL, arity=arity(EXACT)
    ),
    "php": Command(spec=INTERPRETER, interpreter=_PHP, arity=arity(EXACT)),
    "deno": Command(
        spec=INTERPRETER,
        interpreter=_DENO,
        subcommands=True,
        quiet=((("remove|uninstall",), DEPENDENCY),),
        arity=arity(EXACT),
    ),
    "bun": Command(
        spec=INTERPRETER, interpreter=_BUN, subcommands=True, quiet=NPM_QUIET, arity=arity(EXACT)
    ),
    "pypy": Command(spec=INTERPRETER, interpreter=_PYTHON, arity=arity(EXACT)),
    "pypy3": Command(spec=INTERPRETER, interpreter=_PYTHON, arity=arity(EXACT)),
    "tsx": Command(spec=INTERPRETER, interpreter=_TSX, arity=arity(EXACT)),
    "esno": Command(spec=INTERPRETER, interpreter=_TSX, arity=arity(EXACT)),  # tsx's old name
    "ts-node": Command(spec=INTERPRETER, interpreter=_TSX, arity=arity(EXACT)),
    "pythonw": Command(spec=_spec(_PYTHON), interpreter=_PYTHON, arity=arity(EXACT)),
    "micropython": Command(spec=_spec(_PYTHON), interpreter=_PYTHON, arity=arity(EXACT)),
    "graalpy": Command(spec=_spec(_PYTHON), interpreter=_PYTHON, arity=arity(EXACT)),
    "jython": Command(spec=_spec(_PYTHON), interpreter=_PYTHON, arity=arity(EXACT)),
    "ipython": Command(spec=_spec(_PYTHON), interpreter=_PYTHON, arity=arity(EXACT)),
    "ipython3": Command(spec=_spec(_PYTHON), interpreter=_PYTHON, arity=arity(EXACT)),
    "cpython": Command(spec=_spec(_PYTHON), interpreter=_PYTHON, arity=arity(EXACT)),
    "ts-node-esm": Command(spec=_spec(_TSX), interpreter=_TSX, arity=arity(EXACT)),
    "qjs": Command(spec=_spec(_QJS), interpreter=_QJS, arity=arity(EXACT)),
    "rhino": Command(spec=_spec(_QJS), interpreter=_QJS, arity=arity(EXACT)),
    "d8": Command(spec=_spec(_QJS), interpreter=_QJS, arity=arity(EXACT)),
    "jrunscript": Command(spec=_spec(_JRUNSCRIPT), interpreter=_JRUNSCRIPT, arity=arity(EXACT)),
    "gjs": Command(spec=_spec(_GJS), interpreter=_GJS, arity=arity(EXACT)),
    "osascript": Command(spec=_spec(_OSASCRIPT), interpreter=_OSASCRIPT, arity=arity(EXACT)),
    "jruby": Command(spec=_spec(_RUBY), interpreter=_RUBY, arity=arity(EXACT)),
    "truffleruby": Command(spec=_spec(_RUBY), interpreter=_RUBY, arity=arity(EXACT)),
    "irb": Command(spec=_spec(_IRB), interpreter=_IRB, arity=arity(EXACT)),
    "raku": Command(spec=_spec(_RAKU), interpreter=_RAKU, arity=arity(EXACT)),
    "perl6": Command(spec=_spec(_RAKU), interpreter=_RAKU, arity=arity(EXACT)),
    "rakudo": Command(spec=_spec(_RAKU), interpreter=_RAKU, arity=arity(EXACT)),
    "php-cli": Command(spec=_spec(_PHP), interpreter=_PHP, arity=arity(EXACT)),
    "hhvm": Command(spec=_spec(_PHP), interpreter=_PHP, arity=arity(EXACT)),
    "lua": Command(spec=_spec(_LUA_INTERPRETER), interpreter=_LUA_INTERPRETER, arity=arity(EXACT)),
    "luajit": Command(
        spec=_spec(_LUA_INTERPRETER), interpreter=_LUA_INTERPRETER, arity=arity(EXACT)
    ),
    "texlua": Command(
        spec=_spec(_LUA_INTERPRETER), interpreter=_LUA_INTERPRETER, arity=arity(EXACT)
    ),
    "tclsh": Command(spec=_spec(_TCL), interpreter=_TCL, arity=arity(EXACT)),
    "wish": Command(spec=_spec(_TCL), interpreter=_TCL, arity=arity(EXACT)),
    "jimsh": Command(spec=_spec(_TCL), interpreter=_TCL, arity=arity(EXACT)),
    "expect": Command(spec=_spec(_EXPECT), interpreter=_EXPECT, arity=arity(EXACT)),
    "R": Command(spec=_spec(_R), interpreter=_R, arity=arity(EXACT)),
    "Rscript": Command(spec=_spec(_RSCRIPT), interpreter=_RSCRIPT, arity=arity(EXACT)),
    "r": Command(spec=_spec(_RSCRIPT), interpreter=_RSCRIPT, arity=arity(EXACT)),
    "julia": Command(spec=_spec(_JULIA), interpreter=_JULIA, arity=arity(EXACT)),
    "guile": Command(spec=_spec(_GUILE), interpreter=_GUILE, arity=arity(EXACT)),
    "racket": Command(spec=_spec(_RACKET), interpreter=_RACKET, arity=arity(EXACT)),
    "sbcl": Command(spec=_spec(_LISP), interpreter=_LISP, arity=arity(EXACT)),
    "clisp": Command(spec=_spec(_LISP), interpreter=_LISP, arity=arity(EXACT)),
    "ecl": Command(spec=_spec(_LISP), interpreter=_LISP, arity=arity(EXACT)),
    "ccl": Command(spec=_spec(_LISP), interpreter=_LISP, arity=arity(EXACT)),
    "ccl64": Command(spec=_spec(_LISP), interpreter=_LISP, arity=arity(EXACT)),
    "lisp": Command(spec=_spec(_LISP), interpreter=_LISP, arity=arity(EXACT)),
    "scheme": Command(spec=_spec(_SCHEME), interpreter=_SCHEME, arity=arity(EXACT)),
    "chez": Command(spec=_spec(_SCHEME), interpreter=_SCHEME, arity=arity(EXACT)),
    "petite": Command(spec=_spec(_SCHEME), interpreter=_SCHEME, arity=arity(EXACT)),
    "csi": Command(spec=_spec(_CSI), interpreter=_CSI, arity=arity(EXACT)),
    "gsi": Command(spec=_spec(_CSI), interpreter=_CSI, arity=arity(EXACT)),
    "mit-scheme": Command(spec=_spec(_MIT_SCHEME), interpreter=_MIT_SCHEME, arity=arity(EXACT)),
    "ocaml": Command(spec=_spec(_OCAML), interpreter=_OCAML, arity=arity(EXACT)),
    "utop": Command(spec=_spec(_OCAML), interpreter=_OCAML, arity=arity(EXACT)),
    "ghc": Command(spec=_spec(_GHC), interpreter=_GHC, arity=arity(EXACT), builds=True),
    "ghci": Command(spec=_spec(_GHCI), interpreter=_GHCI, arity=arity(EXACT)),
    "gforth": Command(spec=_spec(_GFORTH), interpreter=_GFORTH, arity=arity(EXACT)),
    "nim": Command(spec=_spec(_NIM), interpreter=_NIM, arity=arity(2), builds=True),
    "tcc": Command(spec=_spec(_TCC), interpreter=_TCC, arity=arity(EXACT), builds=True),
    "wolframscript": Command(spec=_spec(_WOLFRAM), interpreter=_WOLFRAM, arity=arity(EXACT)),
    "sage": Command(spec=_spec(_SAGE), interpreter=_SAGE, arity=arity(EXACT)),
    "maxima": Command(spec=_spec(_MAXIMA), interpreter=_MAXIMA, arity=arity(EXACT)),
    "gp": Command(spec=_spec(_GP), interpreter=_GP, arity=arity(EXACT)),
    "swift": Command(  # swift build, swift test …: a subcommand, read as a script's name is
        spec=_spec(_SWIFT), interpreter=_SWIFT, arity=arity(2)
    ),
    "runghc": Command(spec=_spec(_RUNGHC), interpreter=_RUNGHC, arity=arity(EXACT)),
    "runhaskell": Command(spec=_spec(_RUNGHC), interpreter=_RUNGHC, arity=arity(EXACT)),
    "elixir": Command(spec=_spec(_ELIXIR), interpreter=_ELIXIR, arity=arity(EXACT)),
    "iex": Command(spec=_spec(_IEX), interpreter=_IEX, arity=arity(EXACT)),
    "erl": Command(spec=_spec(_ERL), interpreter=_ERL, arity=arity(EXACT)),
    "escript": Command(spec=_spec(_ESCRIPT), interpreter=_ESCRIPT, arity=arity(EXACT)),
    "groovy": Command(spec=_spec(_GROOVY), interpreter=_GROOVY, arity=arity(EXACT)),
    "scala": Command(spec=_spec(_GROOVY), interpreter=_GROOVY, arity=arity(EXACT)),
    "clojure": Command(spec=_spec(_GROOVY), interpreter=_GROOVY, arity=arity(EXACT)),
    "clj": Command(spec=_spec(_GROOVY), interpreter=_GROOVY, arity=arity(EXACT)),
    "bb": Command(spec=_spec(_GROOVY), interpreter=_GROOVY, arity=arity(EXACT)),
    "kotlin": Command(
        env=(("KOTLIN_OPTS", JVM_OPTIONS),),
        spec=_spec(_GROOVY),
        interpreter=_GROOVY,
        arity=arity(EXACT),
    ),
    "jshell": Command(spec=_spec(_JSHELL), interpreter=_JSHELL, arity=arity(EXACT)),
    "crystal": Command(spec=_spec(_CRYSTAL), interpreter=_CRYSTAL, arity=arity(EXACT)),
    "rebol": Command(spec=_spec(_RED), interpreter=_RED, arity=arity(EXACT)),
    "octave": Command(spec=_spec(_OCTAVE), interpreter=_OCTAVE, arity=arity(EXACT)),
    "gnuplot": Command(spec=_spec(_GNUPLOT), interpreter=_GNUPLOT, arity=arity(EXACT)),
    "blender": Command(spec=_spec(_BLENDER), interpreter=_BLENDER, arity=arity(EXACT)),
    "gimp": Command(spec=_spec(_GIMP), interpreter=_GIMP, arity=arity(EXACT)),
    "dc": Command(spec=_spec(_DC), interpreter=_DC, arity=arity(EXACT)),
    "m4": Command(spec=_spec(_M4), interpreter=_M4, arity=arity(EXACT)),
    "gdb": Command(spec=_spec(_GDB), interpreter=_GDB, arity=arity(EXACT)),
    "lldb": Command(spec=_spec(_LLDB), interpreter=_LLDB, arity=arity(EXACT)),
    "fish": Command(spec=_spec(_FISH), interpreter=_FISH, arity=arity(EXACT)),
    "nu": Command(spec=_spec(_NU), interpreter=_NU, arity=arity(EXACT)),
    "nushell": Command(spec=_spec(_NU), interpreter=_NU, arity=arity(EXACT)),
    "elvish": Command(spec=_spec(_ELVISH), interpreter=_ELVISH, arity=arity(EXACT)),
    "xonsh": Command(spec=_spec(_XONSH), interpreter=_XONSH, arity=arity(EXACT)),
    "csh": Command(spec=_spec(_POSIXISH_NOT), interpreter=_POSIXISH_NOT, arity=arity(EXACT)),
    "tcsh": Command(spec=_spec(_POSIXISH_NOT), interpreter=_POSIXISH_NOT, arity=arity(EXACT)),
    "rc": Command(spec=_spec(_POSIXISH_NOT), interpreter=_POSIXISH_NOT, arity=arity(EXACT)),
    "es": Command(spec=_spec(_POSIXISH_NOT), interpreter=_POSIXISH_NOT, arity=arity(EXACT)),
    "ion": Command(spec=_spec(_POSIXISH_NOT), interpreter=_POSIXISH_NOT, arity=arity(EXACT)),
    "murex": Command(spec=_spec(_POSIXISH_NOT), interpreter=_POSIXISH_NOT, arity=arity(EXACT)),
    "ysh": Command(spec=_spec(_POSIXISH_NOT), interpreter=_POSIXISH_NOT, arity=arity(EXACT)),
    "oil": Command(spec=_spec(_POSIXISH_NOT), interpreter=_POSIXISH_NOT, arity=arity(EXACT)),
    "pwsh": Command(spec=_spec(_PWSH), interpreter=_PWSH, arity=arity(EXACT)),
    "powershell": Command(spec=_spec(_PWSH), interpreter=_PWSH, arity=arity(EXACT)),
    "pwsh-preview": Command(spec=_spec(_PWSH), interpreter=_PWSH, arity=arity(EXACT)),
    "chicken-csi": Command(spec=_spec(_CSI), interpreter=_CSI, arity=arity(EXACT)),
    "ftp": Command(spec=_spec(_FTP), interpreter=_FTP, arity=arity(EXACT)),
    "pftp": Command(spec=_spec(_FTP), interpreter=_FTP, arity=arity(EXACT)),
    "lftp": Command(spec=_spec(_LFTP), interpreter=_LFTP, arity=arity(EXACT)),
    "smbclient": Command(spec=_spec(_SMBCLIENT), interpreter=_SMBCLIENT, arity=arity(EXACT)),
    "matlab": Command(spec=_spec(_MATLAB), interpreter=_MATLAB, arity=arity(EXACT)),
    "fennel": Command(spec=_spec(_FENNEL), interpreter=_FENNEL, arity=arity(EXACT)),
    "janet": Command(spec=_spec(_JANET), interpreter=_JANET, arity=arity(EXACT)),
    "hy": Command(spec=_spec(_HY), interpreter=_HY, arity=arity(EXACT)),
    "planck": Command(spec=_spec(_CLOJURESCRIPT), interpreter=_CLOJURESCRIPT, arity=arity(EXACT)),
    "lumo": Command(spec=_spec(_CLOJURESCRIPT), interpreter=_CLOJURESCRIPT, arity=arity(EXACT)),
    "root": Command(spec=_spec(_ROOT), interpreter=_ROOT, arity=arity(EXACT)),
    "swipl": Command(spec=_spec(_PROLOG), interpreter=_PROLOG, arity=arity(EXACT)),
    "gprolog": Command(spec=_spec(_PROLOG), interpreter=_PROLOG, arity=arity(EXACT)),
    "gosh": Command(spec=_spec(_GOSH), interpreter=_GOSH, arity=arity(EXACT)),
    "newlisp": Command(spec=_spec(_NEWLISP), interpreter=_NEWLISP, arity=arity(EXACT)),
    "pike": Command(spec=_spec(_PIKE), interpreter=_PIKE, arity=arity(EXACT)),
    "scsh": Command(spec=_spec(_SCSH), interpreter=_SCSH, arity=arity(EXACT)),
}
