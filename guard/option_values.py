"""Option values that are more than paths: settings that run programs, scripts in other
languages that reach the shell or files, lists of files, URLs, and the like. Each role a spec in
`guard/commands.py` gives an option or operand has one handler here (`HANDLERS`), and commands
whose arguments no spec can describe (git's subcommands, watch, bwrap, compilers) have a kind
handler, added to `guard.invocation_kinds.KINDS` (`COMMAND_KINDS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import unquote

from guard.arguments import looks_like_path
from guard.commands import (
    BWRAP_OPTIONS,
    COMPILER_LINKER,
    GIT,
    GIT_CODE_KEYS,
    GIT_CONFIG_READS,
    GIT_GLOBAL_VALUES,
    GIT_OTHER,
    GIT_SUBCOMMANDS,
    RUNUSER_AS_WRAPPER,
    SSH_CODE_KEYS,
    SU,
    Role,
    Spec,
)
from guard.invocation import Arg, Call, access, dynamic, plain, run_argv
from guard.invocation_kinds import KINDS, run_code
from guard.walker import Walker


def _git_config(w: Walker, arg: Arg, setting: str | None, depth: int, via: str) -> None:
    """`git -c core.sshCommand=… ` and `-c alias.x='!…'` make git run commands."""
    if setting is None:
        dynamic(w, arg, "code", f"a git setting is not known: {arg.reason}")
        return
    key, _, value = setting.partition("=")
    if GIT_CODE_KEYS.match(key):
        if key.lower().startswith("alias.") and not value.startswith("!"):
            return  # a plain alias names git subcommands, not shell code
        run_code(w, value.lstrip("!"), arg, depth, new_process=True, via=f"git setting {key}")


def _ssh_option(w: Walker, arg: Arg, setting: str | None, depth: int, via: str) -> None:
    """`ssh -o ProxyCommand=…` (and LocalCommand, KnownHostsCommand) run a local command."""
    if setting is None:
        dynamic(w, arg, "code", f"an ssh option is not known: {arg.reason}")
        return
    key, sep, value = setting.replace(" ", "=", 1).partition("=")
    if sep and key.strip().lower() in SSH_CODE_KEYS:
        run_code(w, value.strip(), arg, depth, new_process=True, via=f"ssh -o {key.strip()}")


def _sed(w: Walker, arg: Arg, script: str | None, depth: int, via: str) -> None:
    """A sed program: `r`/`R FILE` read, `w`/`W FILE` and `s///w FILE` write, `e CMD` runs
    shell code, and `e` alone or `s///e` runs text nobody knows."""
    if script is None:
        return  # an unknown program: the command request is there for the policy
    effects = sed_effects(script)
    if effects is None:
        dynamic(w, arg, "code", "guard cannot read this sed program, so what it runs is not known")
        return
    for kind, text in effects:
        if kind == "code":
            dynamic(w, arg, "code", "the sed program runs shell commands")
            run_code(w, text, arg, depth, new_process=True, via="sed e")
        elif kind == "run":
            dynamic(w, arg, "code", "the sed program runs text it builds as shell commands")
        elif text != "/dev/stdin":
            access(w, arg, text, "read" if kind == "read" else "write", "sed")


_AWK_GETLINE = re.compile(
    r"\bgetline\b\s*(?:[A-Za-z_$][A-Za-z0-9_]*(?:\[[^\]]*\])?)?\s*<\s*"
    r"(\"(?:[^\"\\]|\\.)*\"|[^\s;)}]+)"
)


def _awk(w: Walker, arg: Arg, script: str | None, depth: int, via: str) -> None:
    """An awk program: `getline < "FILE"` reads; system(), pipes and `print > …` ask."""
    from guard.commands import AWK_RUNS, AWK_WRITES

    if script is None:
        return
    for match in _AWK_GETLINE.finditer(script):
        source = match.group(1)
        if source.startswith('"'):
            access(w, arg, re.sub(r"\\(.)", r"\1", source[1:-1]), "read", via)
        else:
            dynamic(w, arg, "path", f"the awk program reads a file named by {source}")
    if AWK_RUNS.search(script):
        dynamic(w, arg, "code", "the awk program runs shell commands")
    elif AWK_WRITES.search(script):
        dynamic(w, arg, "path", "the awk program writes to files it names")


def _file_list(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`tar -T LIST`, `--files0-from=LIST`, `gcc @ARGS`, `curl -K CONFIG`: the list is read, and
    the files (or options) it names are not known before the command runs."""
    if value is not None and value != "-":
        access(w, arg, value, "read", via)
    where = "standard input" if value in (None, "-") else value
    dynamic(w, arg, "path", f"{via} works on files named in {where}, not known before it runs")


_FILE_URL = re.compile(r"^file:(//[^/]*)?(/.*)?$", re.IGNORECASE | re.DOTALL)


def _url(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """A URL: `file:///x` is a local read."""
    match = _FILE_URL.match(value or "")
    if match:
        access(w, arg, unquote(match.group(2) or "/"), "read", via)


def _curl_data(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`curl -d @FILE`: the body is read from FILE."""
    if value is not None and value.startswith("@") and value != "@-":
        access(w, arg, value[1:], "read", via)


def _curl_form(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`-F name=@FILE;type=…`, `-F name=<FILE`, `--data-urlencode name@FILE`: FILE is read."""
    if value is None:
        return
    at, eq = value.find("@"), value.find("=")
    if at >= 0 and (eq < 0 or at < eq):
        name = value[at + 1 :]
    elif eq >= 0 and value[eq + 1 : eq + 2] in ("@", "<"):
        rest = value[eq + 2 :]
        if rest.startswith('"'):
            end = rest.find('"', 1)
            name = rest[1:end] if end > 0 else rest[1:]
        else:
            name = rest.split(";", 1)[0]
    else:
        return
    if name and name != "-":
        access(w, arg, name, "read", via)


def _curl_cookie(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`curl -b FILE` reads cookies from FILE; `-b 'name=value'` is data."""
    if value is not None and "=" not in value and value != "-":
        access(w, arg, value, "read", via)


_WGETRC: dict[str, Role] = {
    **dict.fromkeys(
        ("outputdocument", "dirprefix", "logfile", "savecookies", "warcfile", "rejectedlog"),
        "write",
    ),
    **dict.fromkeys(
        (
            "postfile",
            "bodyfile",
            "input",
            "loadcookies",
            "cacertificate",
            "cadirectory",
            "certificate",
            "privatekey",
            "crlfile",
        ),
        "read",
    ),
    "useaskpass": "code",
}


def _wgetrc(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`wget -e KEY=VALUE`: a wgetrc command, some of which name files or programs."""
    if value is None:
        dynamic(w, arg, "path", f"a wget setting is not known: {arg.reason}")
        return
    key, _, setting = value.partition("=")
    role = _WGETRC.get(key.strip().lower().replace("_", "").replace("-", ""))
    if role == "code":
        run_code(w, setting.strip(), arg, depth, new_process=True, via=via)
    elif role is not None:
        access(w, arg, setting.strip(), role, via)  # type: ignore[arg-type]


_MAKE_ASSIGNMENT = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_.-]*\s*(?:::?=|:::=|\+=|\?=|=)[^$`\n;]*$")
_MAKE_RUNS = re.compile(r"\$[({]\s*(shell|file|eval|guile)\b|^[^=]*!=")


def _make_code(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`make --eval=TEXT`: makefile text, which can define recipes and call $(shell …)."""
    if value is None or not _MAKE_ASSIGNMENT.match(value):
        dynamic(w, arg, "code", "make reads this as makefile text, which can run shell commands")


def _make_operand(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`make NAME=VALUE`: a variable that may call $(shell …); `SHELL=` names the shell run."""
    if value is None or "=" not in value:
        return
    name, _, setting = value.partition("=")
    if name.strip() in ("SHELL", "MAKESHELL"):
        access(w, arg, setting, "execute", via)
    if _MAKE_RUNS.search(value):
        dynamic(w, arg, "code", "the make variable runs shell commands when it is used")


Handler = Callable[[Walker, Arg, "str | None", int, str], None]
HANDLERS: dict[str, Handler] = {
    "git-config": _git_config,
    "ssh-option": _ssh_option,
    "sed-script": _sed,
    "awk-program": _awk,
    "file-list": _file_list,
    "url": _url,
    "curl-data": _curl_data,
    "curl-form": _curl_form,
    "curl-cookie": _curl_cookie,
    "wgetrc": _wgetrc,
    "make-code": _make_code,
    "make-operand": _make_operand,
}
OPTION_VALUE_ROLES = frozenset(HANDLERS)


def option_value(w: Walker, role: str, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """What an option's (or operand's) value does, by the role its command's spec gives it."""
    HANDLERS[role](w, arg, value, depth, via)


def use(c: Call, arg: Arg, value: str | None, role: Role, via: str) -> None:
    """One argument (or part of one) with a role, as `plain` would treat it."""
    w = c.w
    if role == "code":
        run_code(w, value, arg, c.depth, new_process=True, via=via)
    elif role in HANDLERS:
        HANDLERS[role](w, arg, value, c.depth, via)
    elif role in ("read", "write", "execute", "chdir", "path"):
        if value is None:
            dynamic(w, arg, "path", f"an argument of {via} is not known: {arg.reason}")
        elif role != "path":
            access(w, arg, value, role, via)
        elif looks_like_path(value):
            access(w, arg, value, "read", via)


# sed programs, read as GNU sed reads them -----------------------------------------------------

_SED_PLAIN = frozenset("=dDgGhHnNpPxzF{}")
_SED_NUMBER = frozenset("lLqQ")
_SED_LABEL = frozenset(":btTv")


def sed_effects(script: str) -> list[tuple[str, str]] | None:
    """What a sed program reaches: ("read" | "write", FILE), ("code", shell code) for `e CMD`,
    ("run", "") for `e` alone or `s///e`. None when the program cannot be read."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(script)
    while i < n:
        ch = script[i]
        if ch in " \t\n;":
            i += 1
            continue
        if ch == "#":
            i = _line_end(script, i)
            continue
        i = _sed_address(script, i)
        if i < n and script[i] == ",":
            i = _sed_address(script, _spaces(script, i + 1), second=True)
        i = _spaces(script, i)
        while i < n and script[i] == "!":
            i = _spaces(script, i + 1)
        if i < 0 or i >= n:
            return None
        cmd = script[i]
        i += 1
        if cmd in _SED_PLAIN:
            continue
        if cmd in _SED_NUMBER:
            i = _spaces(script, i)
            while i < n and script[i].isdigit():
                i += 1
        elif cmd in _SED_LABEL:
            while i < n and script[i] not in ";\n":
                i += 1
        elif cmd in "aic":
            i = _text_end(script, i)
        elif cmd in "rRwWe":
            end = _line_end(script, i)
            text = script[_spaces(script, i) : end]
            if cmd == "e":
                out.append(("code", text) if text.strip() else ("run", ""))
            else:
                out.append(("read" if cmd in "rR" else "write", text))
            i = end
        elif cmd in "sy":
            i = _sed_parts(script, i, 2, brackets=True)
            if i < 0:
                return None
            while cmd == "s" and i < n and script[i] in "gpiImMe0123456789":
                if script[i] == "e":
                    out.append(("run", ""))
                i += 1
            if cmd == "s" and i < n and script[i] == "w":
                end = _line_end(script, i + 1)
                out.append(("write", script[_spaces(script, i + 1) : end]))
                i = end
        else:
            return None
    return out


def _spaces(s: str, i: int) -> int:
    while 0 <= i < len(s) and s[i] in " \t":
        i += 1
    return i


def _line_end(s: str, i: int) -> int:
    end = s.find("\n", i)
    return len(s) if end < 0 else end


def _text_end(s: str, i: int) -> int:
    """The end of `a`, `i`, `c` text: lines joined by a trailing backslash."""
    while True:
        end = _line_end(s, i)
        line = s[i:end]
        if end >= len(s) or (len(line) - len(line.rstrip("\\"))) % 2 == 0:
            return end
        i = end + 1


def _sed_address(s: str, i: int, *, second: bool = False) -> int:
    r"""Past one address (`3`, `$`, `/re/I`, `\%re%`, `first~step`, and after a comma `+N`,
    `~N`); -1 when it is malformed."""
    n = len(s)
    if i < 0 or i >= n:
        return i
    if s[i].isdigit() or (second and s[i] in "+~"):
        i += 1
        while i < n and s[i].isdigit():
            i += 1
        if i < n and s[i] == "~":
            i += 1
            while i < n and s[i].isdigit():
                i += 1
        return i
    if s[i] == "$":
        return i + 1
    if s[i] in "/\\":
        if s[i] == "\\":
            i += 1
        i = _sed_parts(s, i, 1, brackets=True)
        while 0 <= i < n and s[i] in "IM":
            i += 1
    return i


def _sed_parts(s: str, i: int, parts: int, *, brackets: bool) -> int:
    """Past `DELIM part DELIM …` (`parts` parts after the opening delimiter); -1 if unclosed."""
    n = len(s)
    if i >= n or s[i] in "\n\\":
        return -1
    delim = s[i]
    i += 1
    for _ in range(parts):
        while i < n and s[i] != delim:
            if s[i] == "\\":
                i += 2
            elif s[i] == "[" and brackets and delim != "[":
                j = i + 1 + (s[i + 1 : i + 2] == "^")
                j += s[j : j + 1] == "]"
                close = s.find("]", j)
                i = close + 1 if close >= 0 else n
            else:
                i += 1
        if i >= n:
            return -1
        i += 1
    return i


# commands no spec can describe ---------------------------------------------------------------


def _watch(c: Call) -> None:
    """watch joins its operands and runs them with `sh -c`; with -x it runs them as argv."""
    w, argv = c.w, c.argv
    execs = False
    i = 1
    while i < len(argv):
        value = argv[i].value
        if value is None or not value.startswith("-") or value == "-":
            break
        i += 1
        if value == "--":
            break
        if value.startswith("--"):
            execs = execs or value == "--exec"
            if value in ("--interval", "--equexit", "--shotsfile"):
                i += 1
            continue
        for j, letter in enumerate(value[1:], 2):
            execs = execs or letter == "x"
            if letter in "nqd":
                i += letter != "d" and j == len(value)
                break
    operands = argv[i:]
    if not operands:
        return
    if execs:
        run_argv(w, operands, None, c.span, c.depth)
        return
    unknown = next((a for a in operands if a.value is None), None)
    text = None if unknown else " ".join(a.value or "" for a in operands)
    where = unknown or Arg(
        text,
        (operands[0].span[0], operands[-1].span[1]),
        " ".join(a.source for a in operands),
    )
    run_code(w, text, where, c.depth, new_process=True, via="watch")


def _git(c: Call) -> None:
    """git's own options, then the subcommand's."""
    argv = c.argv
    i = 1
    while i < len(argv):
        value = argv[i].value
        if value is None or not value.startswith("-"):
            break
        i += 2 if value in GIT_GLOBAL_VALUES else 1
    plain(c._replace(spec=GIT, argv=argv[: i + 1]))
    if i >= len(argv):
        return
    sub = argv[i].value or ""
    rest = [argv[0], *argv[i + 1 :]]
    if sub == "config":
        _git_config_command(c, rest)
        return
    plain(c._replace(spec=GIT_SUBCOMMANDS.get(sub, GIT_OTHER), argv=rest))
    ops = [a for a in rest[1:] if a.value is None or not a.value.startswith("-")]
    verb = ops[0].value if ops else None
    if sub == "bundle" and len(ops) >= 2:
        use(c, ops[1], ops[1].value, "write" if verb == "create" else "read", "git bundle")
    elif sub == "submodule" and verb == "foreach":
        _watch(c._replace(argv=[argv[0], *rest[rest.index(ops[0]) + 1 :]]))
    elif sub == "bisect" and verb == "run":
        run_argv(c.w, rest[rest.index(ops[0]) + 1 :], None, c.span, c.depth)


_GIT_CONFIG_SETS = frozenset(
    {"--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section"}
)
_GIT_CONFIG_VERBS = frozenset(
    {"set", "get", "list", "unset", "rename-section", "remove-section", "edit", "get-color"}
)


def _git_config_command(c: Call, rest: list[Arg]) -> None:
    """`git config [--global|--system|--file F] KEY VALUE`: where it writes, and values that
    run programs later (`alias.x '!…'`, `core.sshCommand` …)."""
    w = c.w
    files: list[tuple[Arg, str | None]] = []
    reads = sets = False
    ops: list[Arg] = []
    j = 1
    while j < len(rest):
        a = rest[j]
        v = a.value
        if v in ("--global", "--system"):
            files.append((a, _config_file(w, v)))
        elif v in ("-f", "--file") and j + 1 < len(rest):
            j += 1
            files.append((rest[j], rest[j].value))
        elif v is not None and v.startswith("--file="):
            files.append((a, v[7:]))
        elif v in ("--type", "--default", "--comment", "--blob", "--value"):
            j += 1
        elif v is not None and v.startswith("-"):
            reads = reads or v in GIT_CONFIG_READS
            sets = sets or v in _GIT_CONFIG_SETS
        else:
            ops.append(a)
        j += 1
    if ops and ops[0].value in _GIT_CONFIG_VERBS:
        verb = ops.pop(0).value or ""
        reads = reads or verb in GIT_CONFIG_READS or verb == "get-color"
        sets = sets or not reads
    sets = not reads and (sets or len(ops) >= 2)
    for arg, path in files:
        use(c, arg, path, "write" if sets else "read", "git config")
    if not sets or len(ops) < 2:
        return
    key, value = ops[0], ops[1]
    if key.value is None:
        dynamic(w, key, "code", f"a git setting's name is not known: {key.reason}")
    elif GIT_CODE_KEYS.match(key.value):
        setting = None if value.value is None else f"{key.value}={value.value}"
        _git_config(w, value, setting, c.depth, "git config")


def _config_file(w: Walker, scope: str) -> str | None:
    if scope == "--system":
        return "/etc/gitconfig"
    home = w.scope.lookup("HOME").options
    return f"{home[0].rstrip('/')}/.gitconfig" if home and len(home) == 1 else None


def _runuser(c: Call) -> None:
    """`runuser -u USER cmd…` runs a command; without -u it takes su's arguments."""
    as_wrapper = any(
        a.value is not None and (a.value in ("-u", "--user") or a.value.startswith("--user="))
        for a in c.argv[1:]
    )
    plain(c._replace(spec=RUNUSER_AS_WRAPPER if as_wrapper else SU))


def _bwrap(c: Call) -> None:
    """bwrap's options take one to three words each; host paths bound in are reached."""
    argv = c.argv
    i = 1
    while i < len(argv):
        value = argv[i].value
        if value is None or not value.startswith("-"):
            break
        i += 1
        if value == "--":
            break
        roles = BWRAP_OPTIONS.get(value, ())
        for k, role in enumerate(roles):
            if i + k < len(argv):
                use(c, argv[i + k], argv[i + k].value, role, "bwrap")
        i += len(roles)
    run_argv(c.w, argv[i:], c.stdin, c.span, c.depth)


def _compiler(c: Call) -> None:
    via = (c.argv[0].value or "cc").rsplit("/", 1)[-1]
    _compiler_words(c, c.spec, [(a, a.value) for a in c.argv[1:]], via)


def _compiler_words(c: Call, spec: Spec, words: list[tuple[Arg, str | None]], via: str) -> None:
    """Arguments read word by word: `-fno-omit-frame-pointer` is one option, `-oFILE` and
    `-o=FILE` carry their value, `@FILE` holds more arguments, `-Wl,…` are the linker's."""
    skip_subcommand = spec.subcommands
    i = 0
    while i < len(words):
        arg, value = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else None
        i += 1
        if value is None or not value.startswith("-") or value == "-":
            if value is not None and value.startswith("@") and len(value) > 1:
                _file_list(c.w, arg, value[1:], c.depth, via)
            elif skip_subcommand:
                skip_subcommand = False
            else:
                use(c, arg, value, spec.operands, via)
            continue
        if value.startswith("-Wl,"):
            _compiler_words(c, COMPILER_LINKER, [(arg, p) for p in value[4:].split(",")], via)
            continue
        if value == "-Xlinker" and nxt is not None:
            _compiler_words(c, COMPILER_LINKER, [nxt], via)
            i += 1
            continue
        name, eq, attached = value.partition("=")
        role = spec.options.get(name) or spec.options.get(name.lower())
        if role is not None or name in spec.values or name.lower() in spec.values:
            if eq and role is not None:
                use(c, arg, attached, role, via)
            elif not eq:
                if role is not None and nxt is not None:
                    use(c, nxt[0], nxt[1], role, via)
                i += 1
            continue
        short = value[:2]
        if len(value) > 2 and not value.startswith("--"):
            role = spec.options.get(short)
            if role is not None:
                use(c, arg, value[2:], role, via)
                continue
        if eq and looks_like_path(attached):
            use(c, arg, attached, "path", via)


_TAR_VALUE_LETTERS = frozenset("fCTXbFIKNgLVH")


def _tar(c: Call) -> None:
    """tar as its spec says; `-x` with `-P` writes the absolute paths the archive holds."""
    plain(c)
    extracts = absolute = False
    for index, arg in enumerate(c.argv[1:], 1):
        value = arg.value or ""
        if value in ("--extract", "--get"):
            extracts = True
        elif value == "--absolute-names":
            absolute = True
        elif (value.startswith("-") and not value.startswith("--")) or index == 1:
            for letter in value.lstrip("-"):
                extracts = extracts or letter == "x"
                absolute = absolute or letter == "P"
                if letter in _TAR_VALUE_LETTERS and value.startswith("-"):
                    break
    if extracts and absolute:
        dynamic(
            c.w,
            c.argv[0],
            "path",
            "tar -P writes the absolute paths the archive holds, not known before it runs",
        )


KINDS.update(
    {
        "watch": _watch,
        "git": _git,
        "runuser": _runuser,
        "bwrap": _bwrap,
        "compiler": _compiler,
        "tar": _tar,
    }
)
