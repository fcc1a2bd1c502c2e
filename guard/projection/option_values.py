"""Option values that are more than paths: settings that run programs, scripts in other
languages that reach the shell or files, lists of files, URLs, and the like. Each role a spec in
`guard/knowledge/commands/` gives an option or operand has one handler here (`HANDLERS`), and
commands
whose arguments no spec can describe (git's subcommands, watch, bwrap, compilers) have a kind
handler in `guard/projection/wordwise_tools.py`; sed programs are read by
`guard/languages/sed_program.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from guard.knowledge import GIT_CODE_KEYS, GIT_HARMLESS_KEYS, SSH_CODE_KEYS, Role, env_role
from guard.languages import looks_like_path, path_part, sed_effects
from guard.projection.accesses import access
from guard.projection.walk_records import Arg
from guard.projection.walker import Call, Walker, dynamic, run_code


def git_config(w: Walker, arg: Arg, setting: str | None, depth: int, via: str) -> None:
    """`git -c core.sshCommand=… ` and `-c alias.x='!…'` make git run commands."""
    if setting is None:
        dynamic(w, arg, "code", f"a git setting is not known: {arg.reason}")
        return
    key, _, value = setting.partition("=")
    if key.lower() in ("core.hookspath", "include.path") or key.lower().startswith("includeif."):
        # a directory of hooks, or another config file, whose contents run later
        dynamic(w, arg, "code", f"git setting {key} points git at files that run later")
        return
    if GIT_CODE_KEYS.match(key):
        if key.lower().startswith("alias.") and not value.startswith("!"):
            return  # a plain alias names git subcommands, not shell code
        run_code(w, value.lstrip("!"), arg, depth, new_process=True, via=f"git setting {key}")
    elif not GIT_HARMLESS_KEYS.match(key):
        dynamic(
            w,
            arg,
            "code",
            f"git setting {key} is not known to be harmless: settings can name files and "
            "programs git uses",
        )


def _git_config_env(w: Walker, arg: Arg, setting: str | None, depth: int, via: str) -> None:
    """`git --config-env=KEY=VAR`: the value is in the environment variable VAR."""
    key = (setting or "").partition("=")[0]
    if setting is None or GIT_CODE_KEYS.match(key) or key.lower().startswith("core.hookspath"):
        dynamic(
            w,
            arg,
            "code",
            f"git takes {key or 'a setting'} from the environment, and it can run a program",
        )


def _container_volume(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`-v SOURCE:TARGET[:OPTIONS]`: a SOURCE that is a path is a host file or directory the
    container reads, and writes unless `ro`; a bare name is a volume the engine keeps."""
    if value is None:
        dynamic(w, arg, "path", f"a volume of {via} is not known: {arg.reason}")
        return
    source, sep, rest = value.partition(":")
    if sep and looks_like_path(source):
        _mounted(w, arg, source, "ro" in rest.partition(":")[2].split(","), via)


def _mounted(w: Walker, arg: Arg, source: str, read_only: bool, via: str) -> None:
    """A host path bound into a container: what runs there reads it (`-v $PWD/.env:/e` hands
    over a secret), and writes it unless bound read-only."""
    access(w, arg, source, "read", via)
    if not read_only:
        access(w, arg, source, "write", via)


def _container_mount(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`--mount type=bind,source=/host,target=/ctr[,readonly]`."""
    if value is None:
        dynamic(w, arg, "path", f"a mount of {via} is not known: {arg.reason}")
        return
    fields = dict(f.partition("=")[::2] for f in value.split(","))
    source = fields.get("source") or fields.get("src")
    if source and looks_like_path(source):
        _mounted(w, arg, source, "readonly" in fields or "ro" in fields, via)


def _container_secret(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`docker build --secret id=x,src=FILE` (or `source=`, or `env=VAR`): FILE is read into
    the build, where its steps may print it."""
    if value is None:
        dynamic(w, arg, "path", f"a secret {via} reads is not known: {arg.reason}")
        return
    fields = dict(f.partition("=")[::2] for f in value.split(","))
    source = fields.get("src") or fields.get("source")
    if source:
        access(w, arg, source, "read", via)


def _container_output(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`docker save -o FILE`, `buildx build --output type=local,dest=DIR` (or `-o DIR`): what
    it writes on this machine (an output of type registry or image writes nothing here)."""
    if value is None:
        dynamic(w, arg, "path", f"where {via} writes is not known: {arg.reason}")
        return
    if "=" not in value:
        if value != "-":
            access(w, arg, value, "write", via)
        return
    fields = dict(f.partition("=")[::2] for f in value.split(","))
    dest = fields.get("dest")
    if dest and dest != "-":
        access(w, arg, dest, "write", via)


def _ssh_option(w: Walker, arg: Arg, setting: str | None, depth: int, via: str) -> None:
    """`ssh -o ProxyCommand=…` (and LocalCommand, KnownHostsCommand) run a local command."""
    if setting is None:
        dynamic(w, arg, "code", f"an ssh option is not known: {arg.reason}")
        return
    parts = re.split(r"[\s=]+", setting.strip(), maxsplit=1)
    key, sep, value = parts[0], "=" if len(parts) > 1 else "", parts[1] if len(parts) > 1 else ""
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


_AWK_ARGV = re.compile(r"\bARGV\s*\[[^\]]*\]\s*=[^=]|\bARGC\s*=[^=]")


def _awk(w: Walker, arg: Arg, script: str | None, depth: int, via: str) -> None:
    """An awk program: `getline < "FILE"` reads; system(), pipes and `print > …` ask."""
    from guard.knowledge import AWK_RUNS, AWK_WRITES

    if script is None:
        return
    for match in _AWK_GETLINE.finditer(script):
        source = match.group(1)
        if source.startswith('"'):
            access(w, arg, re.sub(r"\\(.)", r"\1", source[1:-1]), "read", via)
        else:
            dynamic(w, arg, "path", f"the awk program reads a file named by {source}")
    if _AWK_ARGV.search(script):
        dynamic(w, arg, "path", "the awk program sets ARGV, so the files it reads are not known")
    if AWK_RUNS.search(script):
        dynamic(w, arg, "code", "the awk program runs shell commands")
    elif AWK_WRITES.search(script):
        dynamic(w, arg, "path", "the awk program writes to files it names")


def _miller(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """A word of Miller's verb chain: DSL that runs commands asks, its redirects write the
    files they name; any other word is a file it reads (a verb's name or a field list is a
    name in the directory, read as unknown words are)."""
    _miller_word(w, arg, value, via, ("read",))


def _miller_edit(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`_miller`, for `mlr -I`: the files it reads it writes back."""
    _miller_word(w, arg, value, via, ("read", "write"))


def _miller_word(w: Walker, arg: Arg, value: str | None, via: str, modes: tuple[str, ...]) -> None:
    from guard.knowledge import MILLER_RUNS, MILLER_WRITES

    if value is None:
        dynamic(w, arg, "path", f"an argument of {via} is not known: {arg.reason}")
        return
    if MILLER_RUNS.search(value):
        dynamic(w, arg, "code", "the Miller program runs shell commands")
        return
    if value in _STANDARD_INPUT and value != "-":  # `put -f /dev/stdin <<< CODE`
        dynamic(w, arg, "code", f"{via} may read its program from standard input, not known")
        return
    redirects = [m.group(1).strip() for m in MILLER_WRITES.finditer(value)]
    for target in redirects:
        if target in ("stdout", "stderr"):
            continue
        if len(target) > 1 and target[0] == target[-1] == '"':
            access(w, arg, re.sub(r"\\(.)", r"\1", target[1:-1]), "write", via)
        else:
            dynamic(w, arg, "path", "the Miller program writes to files it names")
    if not redirects:
        for mode in modes:
            access(w, arg, value, mode, via)  # type: ignore[arg-type]


def file_list(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
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
    if value is not None and not match and value.startswith(("/", "~", "./", "../")):
        access(w, arg, value, "read", via)  # no scheme: `--proto-default file` makes it local
    if match:
        from urllib.parse import unquote  # only for file: URLs

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
    name = name.strip()
    if (name in ("SHELL", "MAKESHELL") or env_role(name) == "code") and "$" not in setting:
        # the program make runs each recipe with, or one recipes run by this name ($(CC) …,
        # `make CC='ccache gcc'`): a command line (make's own `$(…)` in it is make's: below)
        run_code(w, setting.strip(), arg._replace(value=setting), depth, new_process=True, via=via)
    elif path_part(setting) is not None:  # `make DESTDIR=/usr install`: where it installs
        upper = name.upper()
        writes = any(k in upper for k in ("DEST", "PREFIX", "OUT", "INSTALL", "ROOT"))
        access(w, arg, path_part(setting) or setting, "write" if writes else "read", via)
    if _MAKE_RUNS.search(value):
        dynamic(w, arg, "code", "the make variable runs shell commands when it is used")


def sql_text(w: Walker, arg: Arg, text: str | None, depth: int, via: str) -> None:
    """SQL given to a database client: statements and client commands that reach files
    (`ATTACH`, `COPY … FROM 'f'`, `.output f`) are accesses; ones that run programs are code."""
    from guard.languages import DIALECTS, sql_effects

    if text is None:
        dynamic(w, arg, "code", f"the SQL given to {via} is not known: {arg.reason}")
        return
    for what, value in sql_effects(text, DIALECTS.get(via, "sqlite")):
        if what == "code":
            dynamic(w, arg, "code", f"the SQL given to {via} runs a shell command")
            if value is not None:
                run_code(w, value, arg, depth, new_process=True, via=via)
        elif what == "path" or value is None:
            dynamic(w, arg, "path", f"the SQL given to {via} names a file nobody knows")
        else:
            access(w, arg, value, what, via)  # type: ignore[arg-type]


def _sql_file(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`psql -f FILE`, `sqlite3 -init FILE`: SQL read from FILE."""
    use_path = value if value != "-" else None
    if use_path is not None:
        access(w, arg, use_path, "read", via)
    elif value is None:
        dynamic(w, arg, "path", f"an argument of {via} is not known: {arg.reason}")


_STANDARD_INPUT = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def _code_file(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`awk -f FILE`, `make -f FILE`: the code it runs is FILE's, read as a script is; from
    standard input (`-f -`) it is code nobody can know before it runs."""
    if value is None:
        dynamic(w, arg, "path", f"an argument of {via} is not known: {arg.reason}")
    elif value in _STANDARD_INPUT:
        dynamic(w, arg, "code", f"{via} runs code read from its standard input, not known before")
    else:
        access(w, arg, value, "read", via)


def _piped_output(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`strace -o FILE` writes FILE; `-o '|cmd'` (or `!cmd`) feeds the output to a shell
    command, which runs."""
    if value is not None and value[:1] in ("|", "!"):
        run_code(w, value[1:], arg._replace(value=value[1:]), depth, new_process=True, via=via)
    elif value is None:
        dynamic(w, arg, "path", f"an argument of {via} is not known: {arg.reason}")
    else:
        access(w, arg, value, "write", via)


def _tool_setting(w: Walker, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """`cargo --config KEY=VALUE`, `hg --config SECTION.KEY=VALUE`: a file of settings is
    read; a setting itself can name a program the tool runs, so it asks."""
    if value is not None and "=" not in value:
        access(w, arg, value, "read", via)
        return
    key = (value or "").partition("=")[0].strip() or "a setting"
    dynamic(w, arg, "code", f"{via} setting {key} is not known to be harmless")


Handler = Callable[[Walker, Arg, "str | None", int, str], None]
HANDLERS: dict[str, Handler] = {
    "git-config": git_config,
    "ssh-option": _ssh_option,
    "sed-script": _sed,
    "awk-program": _awk,
    "miller": _miller,
    "miller-edit": _miller_edit,
    "file-list": file_list,
    "url": _url,
    "curl-data": _curl_data,
    "curl-form": _curl_form,
    "curl-cookie": _curl_cookie,
    "wgetrc": _wgetrc,
    "make-code": _make_code,
    "make-operand": _make_operand,
    "git-config-env": _git_config_env,
    "container-volume": _container_volume,
    "container-mount": _container_mount,
    "container-output": _container_output,
    "container-secret": _container_secret,
    "sql": sql_text,
    "sql-file": _sql_file,
    "tool-setting": _tool_setting,
    "code-file": _code_file,
    "piped-output": _piped_output,
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
        elif path_part(value) is not None:
            access(w, arg, path_part(value) or value, "read", via)



