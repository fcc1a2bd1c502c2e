"""Text tools, viewers and editors: what they read, and the options whose values are patterns, not
paths."""

from __future__ import annotations

import re

from guard.knowledge.commands.archives import COMPRESSOR_OPTIONS
from guard.knowledge.commands.command import EXACT, Command, Printer, RecursiveRead, arity
from guard.knowledge.commands.interpreter import Interpreter
from guard.knowledge.commands.option_table import OptionTable
from guard.knowledge.commands.spec import EDIT, READ, Spec, opts

GREP = Spec(  # GNU grep: -A -B -C -D -X -d -e -f -m take a value; -r, -T are flags
    operands="read",
    first="data",
    values=opts(
        "-A",
        "-B",
        "-C",
        "-D",
        "-X",
        "-d",
        "-m",
        "--max-count",
        "--devices",
        "--directories",
        "--binary-files",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--label",
        "--context",
        "--after-context",
        "--before-context",
        "--group-separator",
    ),
    options={
        "-e": "data",
        "--regexp": "data",
        "-f": "read",
        "--file": "read",
        "--exclude-from": "read",
    },
    first_drops=opts("-e", "--regexp", "-f", "--file"),
)


RG = Spec(  # ripgrep: -r is --replace, -T is --type-not
    operands="read",
    first="data",
    values=opts(
        "-A",
        "-B",
        "-C",
        "-E",
        "-M",
        "-d",
        "-g",
        "-j",
        "-m",
        "-r",
        "-t",
        "-T",
        "--after-context",
        "--before-context",
        "--context",
        "--color",
        "--colors",
        "--context-separator",
        "--dfa-size-limit",
        "--encoding",
        "--engine",
        "--field-context-separator",
        "--field-match-separator",
        "--glob",
        "--iglob",
        "--max-columns",
        "--max-count",
        "--max-depth",
        "--max-filesize",
        "--path-separator",
        "--pre-glob",
        "--regex-size-limit",
        "--replace",
        "--sort",
        "--sortr",
        "--threads",
        "--type",
        "--type-add",
        "--type-clear",
        "--type-not",
        "--hyperlink-format",
    ),
    options={
        "-e": "data",
        "--regexp": "data",
        "-f": "read",
        "--file": "read",
        "--ignore-file": "read",
        "--pre": "code",
        "--hostname-bin": "code",
    },
    first_drops=opts("-e", "--regexp", "-f", "--file", "--files", "--type-list"),
)


AG = Spec(  # the silver searcher: -f follows links, -r recurses, -t searches all text
    operands="read",
    first="data",
    values=opts(
        "-A",
        "-B",
        "-C",
        "-G",
        "-g",
        "-m",
        "-W",
        "--after",
        "--before",
        "--context",
        "--file-search-regex",
        "--ignore",
        "--ignore-dir",
        "--max-count",
        "--depth",
        "--width",
        "--color-line-number",
        "--color-match",
        "--color-path",
    ),
    options={"-p": "read", "--path-to-ignore": "read", "--pager": "code"},
    first_drops=opts("-g"),
)


ACK = Spec(  # ack: -f and -g list files (no pattern operand), -x reads names from input
    operands="read",
    first="path",  # a pattern, unless -f or -g: read when it looks like a path
    values=opts(
        "-A",
        "-B",
        "-C",
        "-m",
        "--after-context",
        "--before-context",
        "--context",
        "--max-count",
        "--ignore-dir",
        "--noignore-dir",
        "--ignore-file",
        "--type",
        "--type-set",
        "--type-add",
        "--type-del",
        "--output",
        "--color-filename",
        "--color-match",
        "--color-colno",
        "--color-lineno",
    ),
    options={"--pager": "code", "--ackrc": "read", "--files-from": "file-list"},
    first_drops=opts("--files-from"),
)


SED = Spec(
    operands="read",
    first="sed-script",
    values=opts("-l", "--line-length"),
    options={
        "-e": "sed-script",
        "--expression": "sed-script",
        "-f": "code-file",  # a file of sed commands; from standard input, not known
        "--file": "code-file",
    },
    flags={"-i": "write", "--in-place": "write"},
    first_drops=opts("-e", "--expression", "-f", "--file"),
)


AWK = Spec(
    operands="read",
    first="awk-program",
    values=opts("-F", "-v", "--assign", "--field-separator", "-W"),
    options={
        "-f": "code-file",
        "--file": "code-file",
        "-i": "read",
        "--include": "read",
        "-E": "code-file",
        "--exec": "code-file",
        "-l": "execute",  # gawk -l loads a shared library
        "--load": "execute",
    },
    first_drops=opts("-f", "--file", "-E", "--exec"),
)


# Scripts in other languages that reach the shell or files: sed's `e` command and `s///e` flag
# and its `w FILE` writes; awk's system(), pipes and `print > "file"`. Found by pattern, so a
# match asks rather than proving anything.
SED_RUNS = re.compile(
    r"(^|[;\n{}])\s*(\d+|\$|/[^/]*/)?(,(\d+|\$|/[^/]*/))?!?\s*e(\s|$|;)"
    r"|s(.)(?:\\.|(?!\6).)*\6(?:\\.|(?!\6).)*\6[gpiImM0-9]*e"
)


SED_WRITES = re.compile(
    r"(^|[;\n{}])\s*[wW]\s+\S|s(.)(?:\\.|(?!\2).)*\2(?:\\.|(?!\2).)*\2[gpiImMe0-9]*w\s"
)


AWK_RUNS = re.compile(
    r"\bsystem\s*\(|(?<!\|)\|(?!\|)\s*&?\s*getline|(?<!\|)\|(?!\|)\s*(\"|[A-Za-z_(])"
)


AWK_WRITES = re.compile(r">>?\s*\"|\bprintf?\b[^;{}]*>>?\s*[A-Za-z_($]")

# Miller (mlr): its words after the main options are a chain of verbs with their options, the
# DSL of `put` and `filter`, and the files it reads, told apart by what each holds (the
# "miller" role). Its DSL runs commands with system() and exec() and through output piped to
# a command (`tee | "sh", $*`); its output statements write the files they redirect to.
MILLER_RUNS = re.compile(
    r"\b(?:system|exec)\s*\(|\b(?:tee|emit1?|emitp|emitf|print|printn|eprint|eprintn|dump|edump)"
    r"\s*\|"
)
MILLER_WRITES = re.compile(
    r"\b(?:tee|emit1?|emitp|emitf|print|printn|dump)\s*>>?\s*"
    r"(\"(?:[^\"\\]|\\.)*\"(?=\s*(?:,|;|}|$))|stdout\b|stderr\b|[^,;}]*)"
)
MILLER = Spec(
    operands="miller",
    values=opts(
        *("--ifs", "--ofs", "--fs", "--ips", "--ops", "--ps", "--irs", "--ors", "--rs"),
        *("--tz", "--ofmt", "--nr-progress-mod", "--records-per-batch", "--fflatsep"),
    ),
    options={
        "--from": "read",
        "-s": "read",  # a file of more options
        "--load": "code-file",
        "--mload": "code-file",
        "--prepipe": "code",  # a shell command run on each file (`CMD < FILE`)
        "--prepipex": "code",  # the same, as `CMD FILE`
    },
    flags={"-I": "miller-edit"},
)


# -s is a script of keys (read as a file operand), or silent mode after -e (`vim -es`): no code
_VIM = Interpreter(
    "vim", code=opts("-c", "--cmd"), scripts=opts("-S"), stdin=False, files=True, stdin_letters="eE"
)
_EX = _VIM._replace(stdin=True)  # ex is vim -e: its commands come from standard input

# ed edits its operand, reading its commands from standard input (guard/languages/ed_script.py)
_ED = Interpreter("ed", values=opts("-p", "--prompt"), edits=True)
_ED_SPEC = Spec(operands="edit", values=opts("-p", "--prompt"), text=opts("-p", "--prompt"))

_GOJQ = Spec(
    operands="read",
    first="data",
    values=opts("--indent", "-o", "--output-format"),
    options={"-f": "read", "--from-file": "read", "-L": "read"},
    pairs={
        **{"--arg": "data", "--argjson": "data"},
        **{"--slurpfile": "read", "--rawfile": "read"},
    },
)

_VI = Spec(
    operands="edit",
    values=opts("-c", "--cmd", "-t", "-q", "-T", "--servername"),
    text=opts("-c", "--cmd", "-t", "-T", "--servername"),
    # -w/-W FILE: every key typed is written to FILE
    options={
        "-S": "read",
        "-u": "read",
        "-U": "read",
        "-i": "write",
        "-w": "write",
        "-W": "write",
    },
)

# kakoune: -e/-E commands (`%sh{…}` runs shell), -p SESSION sends the commands on standard
# input to a session
_KAK = Interpreter(
    "unread", code=opts("-e", "-E", "-p"), values=opts("-c", "-s", "-ui", "-debug"), stdin=False
)

_EMACS = Interpreter(
    "unread",
    code=opts("--eval", "--execute"),
    scripts=opts("-l", "--load", "--script"),
    values=opts("-f", "--funcall"),
    stdin=False,
)


# the variables that carry a tool's options, and how each is read (its record's `env`)
_LESS_OPTIONS = OptionTable(
    "less", code=("+", "-k", "--lesskey-file", "--lesskey-src", "--lesskey-content")
)
_MAN_OPTIONS = OptionTable(
    "man", code=("-P", "--pager", "-H", "--html", "-C", "--config-file", "-M", "--manpath")
)


# what reads every file below a directory it is given (the record's `recursive_read`)
_GREP_RECURSES = RecursiveRead(
    opts("-r", "-R", "--recursive", "--dereference-recursive"),
    True,
    values=opts("-d", "--directories"),
    follows=opts("-R", "--dereference-recursive"),
    includes=opts("--include"),
)
# ripgrep and the silver searcher search below the directory whatever the options, skipping
# names that start with "." unless told (and what .gitignore names, which guard does not read;
# rg's -u counts as telling it: -uu does)
_RG_RECURSES = RecursiveRead(
    frozenset(),
    False,
    opts("--hidden", "-.", "-u", "--unrestricted"),
    follows=opts("-L", "--follow"),
    includes=opts("-g", "--glob", "--iglob"),
    lists=opts("--files", "--type-list"),
)
_AG_RECURSES = RecursiveRead(
    frozenset(),
    False,
    opts("--hidden", "-u", "--unrestricted"),
    follows=opts("-f", "--follow"),
)


_UNPACKS = Printer(unpacks=True)  # zcat F: F unpacked
_UNPACKED = Printer(needs="c", allows="cdkq", unpacks=True)  # gunzip -c F
_DECOMPRESSED = Printer(needs="cd", allows="cdkq", unpacks=True)  # gzip -dc F (-c alone packs)


COMMANDS: dict[str, Command] = {
    "cat": Command(prints_files=Printer(), spec=READ, arity=arity(1)),
    "tac": Command(spec=READ),
    "less": Command(
        corners=frozenset({"pager-commands"}),  # less +CMD runs CMD first
        env=(("LESS", _LESS_OPTIONS),),
        spec=READ,
        arity=arity(1),
    ),
    "more": Command(corners=frozenset({"pager-commands"}), spec=READ, arity=arity(1)),
    "nl": Command(spec=READ),
    "od": Command(spec=READ),
    "xxd": Command(spec=READ),
    "hexdump": Command(spec=READ),
    "strings": Command(spec=READ, at_files=True),
    "file": Command(spec=READ, arity=arity(1)),
    "stat": Command(names_only=True, spec=READ, arity=arity(1)),
    "md5sum": Command(spec=READ),
    "sha1sum": Command(spec=READ),
    "sha256sum": Command(spec=READ),
    "sha512sum": Command(spec=READ),
    "b2sum": Command(spec=READ),
    "cksum": Command(spec=READ),
    "diff": Command(spec=READ, arity=arity(1)),
    "cmp": Command(spec=READ),
    "comm": Command(spec=READ),
    "paste": Command(spec=READ),
    "join": Command(spec=READ),
    "fold": Command(spec=READ),
    "fmt": Command(spec=READ),
    "column": Command(spec=READ),
    "rev": Command(spec=READ),
    "base64": Command(spec=READ),
    "readlink": Command(names_only=True, spec=READ),
    "realpath": Command(names_only=True, spec=READ),
    "source-highlight": Command(spec=READ),
    "bat": Command(  # --pager CMD: the program its output goes through, a command line
        spec=Spec(
            operands="read",
            values=opts(*("-l", "--language", "--theme", "--style", "-H", "--highlight-line")),
            text=opts(*("-l", "--language", "--theme", "--style", "-H", "--highlight-line")),
            options={"--pager": "code"},
        )
    ),
    "lsattr": Command(spec=READ),
    "getfacl": Command(spec=READ),
    "zcat": Command(prints_files=_UNPACKS, spec=READ),
    "bzcat": Command(prints_files=_UNPACKS, spec=READ),
    "xzcat": Command(prints_files=_UNPACKS, spec=READ),
    "zless": Command(spec=READ),
    "vimdiff": Command(spec=READ, interpreter=_VIM, arity=arity(EXACT)),
    "df": Command(spec=READ, arity=arity(1)),
    "exa": Command(names_only=True, spec=READ),
    "eza": Command(names_only=True, spec=READ),
    "lsd": Command(names_only=True),
    "fd": Command(names_only=True),
    "lsof": Command(spec=READ),
    "gzip": Command(prints_files=_DECOMPRESSED, env=(("GZIP", COMPRESSOR_OPTIONS),), spec=READ),
    "gunzip": Command(prints_files=_UNPACKED, spec=READ),
    "bzip2": Command(prints_files=_DECOMPRESSED, spec=READ),
    "xz": Command(prints_files=_DECOMPRESSED, env=(("XZ_OPT", COMPRESSOR_OPTIONS),), spec=READ),
    "unxz": Command(spec=READ),
    "zstd": Command(
        prints_files=_DECOMPRESSED, env=(("ZSTD_CLEVEL", COMPRESSOR_OPTIONS),), spec=READ
    ),
    "python-config": Command(spec=READ),
    "ls": Command(
        names_only=True,
        spec=Spec(
            operands="read",
            bare_reads_cwd=True,
            values=opts("-I", "--ignore", "-w", "-T", "--hide", "--format"),
        ),
        arity=arity(1),
    ),
    "tree": Command(
        names_only=True,
        spec=Spec(operands="read", bare_reads_cwd=True, values=opts("-L", "-P", "-I", "-o")),
        arity=arity(1),
    ),
    "du": Command(
        names_only=True,
        spec=Spec(
            operands="read",
            bare_reads_cwd=True,
            values=opts(
                "-d", "--max-depth", "-B", "--exclude", "-t", "--threshold", "--block-size"
            ),
            options={"--files0-from": "file-list", "-X": "read", "--exclude-from": "read"},
        ),
        arity=arity(1),
    ),
    "wc": Command(
        spec=Spec(operands="read", options={"--files0-from": "file-list"}), arity=arity(1)
    ),
    "head": Command(
        spec=Spec(operands="read", values=opts("-n", "-c", "--lines", "--bytes")), arity=arity(1)
    ),
    "tail": Command(
        spec=Spec(
            operands="read",
            values=opts(
                "-n",
                "-c",
                "--lines",
                "--bytes",
                "-s",
                "--pid",
                "--sleep-interval",
                "--max-unchanged-stats",
            ),
        ),
        arity=arity(1),
    ),
    "cut": Command(
        spec=Spec(
            operands="read",
            values=opts("-f", "-d", "-c", "-b", "--fields", "--delimiter", "--output-delimiter"),
        )
    ),
    "sort": Command(
        spec=Spec(
            operands="read",
            values=opts("-k", "-t", "-S", "-T", "--key", "--field-separator", "--parallel"),
            options={
                "-o": "write",
                "--output": "write",
                "--files0-from": "file-list",
                "--compress-program": "code",
            },
        ),
        arity=arity(1),
    ),
    "uniq": Command(
        spec=Spec(operands="read", last="write", values=opts("-f", "-s", "-w")), arity=arity(1)
    ),
    "tr": Command(spec=Spec(operands="data")),
    "man": Command(
        env=(("MANOPT", _MAN_OPTIONS),),
        spec=Spec(
            operands="path",
            values=opts("-M", "-S", "-s", "-L", "-m", "-C", "-R", "-E"),
            options={
                "-P": "code",
                "--pager": "code",
                "-H": "code",
                "--html": "code",
                "-l": "read",
                "--local-file": "read",
            },
        ),
    ),
    "split": Command(
        spec=Spec(
            operands="read",
            last="write",
            values=opts("-l", "-b", "-n", "-a", "-C"),
            options={"--filter": "code"},
        )
    ),
    "grep": Command(
        env=(("GREP_OPTIONS", COMPRESSOR_OPTIONS),),
        spec=GREP,
        arity=arity(1),
        recursive_read=_GREP_RECURSES,
    ),
    "egrep": Command(spec=GREP, recursive_read=_GREP_RECURSES),
    "fgrep": Command(spec=GREP, recursive_read=_GREP_RECURSES),
    "rgrep": Command(recursive_read=RecursiveRead(frozenset(), True)),  # grep -r
    "rg": Command(spec=RG, arity=arity(1), recursive_read=_RG_RECURSES),
    "ag": Command(spec=AG, arity=arity(1), recursive_read=_AG_RECURSES),
    "ack": Command(spec=ACK),
    "zgrep": Command(spec=GREP),
    "sed": Command(spec=SED, arity=arity(EXACT)),
    "gsed": Command(spec=SED),
    "awk": Command(spec=AWK, arity=arity(EXACT)),
    "gawk": Command(spec=AWK, arity=arity(EXACT)),
    "mawk": Command(spec=AWK),
    "mlr": Command(spec=MILLER, arity=arity(1)),
    "nawk": Command(spec=AWK),
    "jq": Command(
        spec=Spec(
            operands="read",
            first="data",
            values=opts("--indent"),
            options={"-f": "read", "--from-file": "read", "-L": "read", "--library-path": "read"},
            pairs={
                "--arg": "data",
                "--argjson": "data",
                "--slurpfile": "read",
                "--rawfile": "read",
            },
        )
    ),
    "gojq": Command(spec=_GOJQ),
    "jaq": Command(spec=_GOJQ),
    "xq": Command(spec=_GOJQ),
    "tomlq": Command(spec=_GOJQ),
    "jp": Command(spec=_GOJQ),
    "yq": Command(
        spec=Spec(  # yq [eval|e|eval-all|ea] EXPR FILE…; -i writes the files in place
            operands="read",
            first="data",
            values=opts(
                *("-o", "--output-format", "-p", "--input-format", "-I", "--indent"),
                *("--expression", "--front-matter", "--split-exp", "-s", "--xml-attribute-prefix"),
            ),
            text=opts("--expression", "--split-exp", "-s"),
            options={"--from-file": "read"},
            flags={"-i": "write", "--inplace": "write", "--in-place": "write"},
            first_drops=opts("--expression", "--from-file"),
            subcommand_words=opts("eval", "e", "eval-all", "ea"),
            pairs={"--arg": "data", "--argjson": "data", "--rawfile": "read"},
        )
    ),
    "csplit": Command(
        spec=Spec(
            operands="data",
            first="read",
            values=opts("-b", "--suffix-format", "-n", "--digits"),
            options={"-f": "write", "--prefix": "write"},
        )
    ),
    "vi": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "vim": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "nvim": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "view": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "ex": Command(spec=_VI, interpreter=_EX, arity=arity(EXACT)),
    "gvim": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "rvim": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "rview": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "gview": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "evim": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "nvi": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "elvis": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "vile": Command(spec=_VI, interpreter=_VIM, arity=arity(EXACT)),
    "nano": Command(spec=EDIT),
    "pico": Command(spec=EDIT),
    "ed": Command(spec=_ED_SPEC, interpreter=_ED),
    "red": Command(spec=_ED_SPEC, interpreter=_ED),  # restricted: the same commands, fewer run
    "micro": Command(spec=EDIT),
    "hx": Command(spec=EDIT),
    "helix": Command(spec=EDIT),
    "kak": Command(
        spec=Spec(operands="edit", values=_KAK.code | _KAK.values, text=_KAK.code | _KAK.values),
        interpreter=_KAK,
    ),
    "joe": Command(spec=EDIT),
    "emacs": Command(
        spec=Spec(
            operands="edit",
            values=opts("--eval", "-f", "--funcall"),
            options={"-l": "read", "--load": "read"},
        ),
        interpreter=_EMACS,
        arity=arity(EXACT),
    ),
}
