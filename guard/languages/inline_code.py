"""Inline interpreter code (`python -c`, `node -e`, `ruby -e`, code on stdin) read for what it
reaches: shell commands it runs, files it opens, removes or writes, and what cannot be seen.

Pure: code text in, `Finding`s out. Python is parsed with the stdlib `ast` (imported only when
Python code is met); the other languages are scanned for shell-out and file APIs. The caller
(guard/projection/interpreter_effects.py) walks the shell lines found as shell, as a `bash -c`
string.
"""

from __future__ import annotations

import re
from typing import Any, Literal, NamedTuple

What = Literal["shell", "read", "write", "destroy", "dynamic"]


class Finding(NamedTuple):
    what: What  # shell: a line run by a shell; read/write: a path; destroy: a tree removed
    text: str  # the shell line, the path, or (dynamic) why it cannot be known


# ---- Python ---------------------------------------------------------------------------------

_PY_SHELL = frozenset(
    {
        "os.system",
        "os.popen",
        "subprocess.run",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "subprocess.Popen",
        "subprocess.getoutput",
        "subprocess.getstatusoutput",
        "pty.spawn",
        "commands.getoutput",
    }
)
_PY_ARGV = ("os.exec", "os.spawn", "os.posix_spawn")  # argv-list APIs: os.execvp(…), …
_PY_WRITE = frozenset(
    {
        "os.remove",
        "os.unlink",
        "os.rmdir",
        "os.removedirs",
        "os.mkdir",
        "os.makedirs",
        "os.chmod",
        "os.chown",
        "os.truncate",
        "os.symlink",
        "os.link",
        "shutil.chown",
    }
)
_PY_DESTROY = frozenset({"shutil.rmtree"})
# where modules are imported from: code there runs at the next import
_PY_IMPORT_PATHS = frozenset({"sys.path.insert", "sys.path.append", "site.addsitedir"})
_PY_TWO = frozenset(  # (source read, destination written)
    {"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.move"}
)
_PY_RENAME = frozenset({"os.rename", "os.replace", "os.renames"})
_PY_SECOND_WRITTEN = frozenset(
    {"urllib.request.urlretrieve", "urllib.urlretrieve", "shutil.unpack_archive"}
)
_PY_FIRST_WRITTEN = frozenset({"shutil.make_archive"})
_PATH_WRITE = frozenset(
    {
        "unlink",
        "rmdir",
        "write_text",
        "write_bytes",
        "touch",
        "mkdir",
        "chmod",
        "rename",
        "replace",
        "symlink_to",
        "hardlink_to",
    }
)
_PATH_READ = frozenset({"read_text", "read_bytes", "iterdir", "glob", "rglob"})
# pathlib's own writing methods, which no other common object has (`p.unlink()` in
# `for p in Path("/x").iterdir()`): called on a name not known, the path is not known
_PATH_ONLY_WRITES = frozenset(
    {"unlink", "rmdir", "write_text", "write_bytes", "symlink_to", "hardlink_to"}
)
_PATH_CLASSES = frozenset({"Path", "pathlib.Path", "PosixPath", "pathlib.PosixPath"})
_PY_DYNAMIC = frozenset(
    {
        "exec",
        "eval",
        "compile",
        "__import__",
        "importlib.import_module",
        "getattr",
        "globals",
        "locals",
        "vars",
        "breakpoint",
        "setattr",
    }
)


def python_findings(code: str, home: str = "~") -> list[Finding]:
    """What Python code reaches, from its syntax tree; code that does not parse is unknown.
    `home` is where `Path.home()` and `expanduser` lead."""
    if not _PY_HINTS.search(code):
        return []  # nothing that shells out, opens, imports dynamically: the common case
    import ast

    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError) as exc:
        return [Finding("dynamic", f"the Python code does not parse ({exc.__class__.__name__})")]
    aliases = _py_aliases(tree)
    paths = _PyPaths(tree, aliases, home)
    found: list[Finding] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
            if any(n.split(".")[0] == "ctypes" for n in names):
                found.append(Finding("dynamic", "the Python code loads ctypes (native calls)"))
        if isinstance(node, ast.Call):
            found.extend(_py_call(node, _py_name(node.func, aliases)))
            found.extend(paths.method_findings(node))
        name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")
        if isinstance(name, str) and name.startswith("__") and name not in _PY_PLAIN_DUNDERS:
            found.append(Finding("dynamic", f"the Python code reaches {name}"))
    return found


_PY_PLAIN_DUNDERS = frozenset({"__name__", "__file__", "__doc__", "__version__", "__init__"})


_PY_HINTS = re.compile(
    r"system|popen|subprocess|spawn|exec|eval|compile|import|open|remove|unlink|rmdir|rmtree|"
    r"mkdir|chmod|chown|truncate|link|shutil|rename|replace|write|read_|Path|ctypes|iterdir|glob|"
    r"getattr|globals|locals|vars|breakpoint|urlretrieve|archive|extract|home|__"
)


def _py_aliases(tree: Any) -> dict[str, str]:
    """Local names for modules and functions: `import subprocess as sp`, `from os import system`."""
    import ast

    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _py_name(func: Any, aliases: dict[str, str]) -> str:
    import ast

    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(aliases.get(func.id, func.id))
        return ".".join(reversed(parts))
    return ""


def _py_call(node: Any, name: str) -> list[Finding]:
    import ast

    args = node.args
    if name in _PY_SHELL:
        line = _py_command(args[0] if args else None, argv=False)
        return [line] if line else [Finding("dynamic", f"{name} runs a command not known")]
    if name.startswith(_PY_ARGV):
        line = _py_exec(name, args)
        return [line] if line else [Finding("dynamic", f"{name} runs a command not known")]
    if name in _PY_DYNAMIC:
        return [Finding("dynamic", f"{name} runs code not known before it runs")]
    if name in _PY_IMPORT_PATHS:  # sys.path.insert(0, "/x"): modules imported from there run
        return _py_paths(name, args[-1:], "read")
    if name in ("open", "io.open", "os.open", "codecs.open"):
        mode = "r"
        if len(args) > 1:
            mode = _py_literal(args[1]) or "w"
        for kw in node.keywords:
            if kw.arg in ("mode", "flags"):
                mode = _py_literal(kw.value) or "w"
        if name == "os.open":
            mode = "w" if len(args) < 2 or "O_RDONLY" not in ast.dump(args[1]) else "r"
        return _py_paths(name, args[:1], "write" if re.search("[wax+]", mode) else "read")
    if name in _PY_WRITE:
        return _py_paths(name, args[:1], "write")
    if name in _PY_DESTROY:
        return _py_paths(name, args[:1], "write") + _py_paths(name, args[:1], "destroy")
    if name in _PY_TWO:
        return _py_paths(name, args[:1], "read") + _py_paths(name, args[1:2], "write")
    if name in _PY_RENAME:
        return _py_paths(name, args[:2], "write")
    if name in _PY_SECOND_WRITTEN:  # urlretrieve(url, FILE), unpack_archive(archive, DIR)
        return _py_paths(name, args[1:2], "write")
    if name in _PY_FIRST_WRITTEN:  # make_archive(BASE, format, root)
        return _py_paths(name, args[:1], "write")
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in ("extractall", "extract"):
        at = 0 if func.attr == "extractall" else 1  # extract(member, path)
        given = [kw.value for kw in node.keywords if kw.arg == "path"] or args[at : at + 1]
        return _py_paths(f"{func.attr}()", given, "write")
    return []


class _PyPaths:
    """pathlib paths as the code builds them: `Path("/x")`, `Path.home() / ".ssh"`,
    `p.joinpath("a")`, a name given one path (`p = Path("/x")`), each with its literal value
    or None where a part is not known."""

    _MADE = frozenset({"joinpath", "expanduser", "resolve", "absolute", "with_name",
                       "with_suffix", "with_stem", "parent"})  # fmt: skip
    _KEPT = frozenset({"joinpath", "expanduser", "resolve", "absolute"})  # the value stays known

    def __init__(self, tree: Any, aliases: dict[str, str], home: str) -> None:
        import ast

        self.aliases = aliases
        self.home = home
        given: dict[str, list[Any]] = {}
        for node in ast.walk(tree):  # each name's assignments: one is a value, more are not
            targets: list[Any] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For | ast.NamedExpr):
                targets = [node.target]
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                targets = [node.optional_vars]
            for target in targets:
                if isinstance(target, ast.Name):
                    value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
                    given.setdefault(target.id, []).append(value)
        self.given = given
        self._seen: set[str] = set()

    def value(self, node: Any) -> tuple[bool, str | None]:
        """Whether `node` is a pathlib path, and its value (None: not known)."""
        import ast
        import posixpath

        if isinstance(node, ast.Call):
            name = _py_name(node.func, self.aliases)
            if name in _PATH_CLASSES:
                if not node.args:
                    return True, "."
                return True, _py_joined(node.args)
            if name.rpartition(".")[0] in _PATH_CLASSES and name.endswith((".home", ".cwd")):
                return True, self.home if name.endswith(".home") else "."
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in self._MADE:
                is_path, base = self.value(func.value)
                if not is_path:
                    return False, None
                if base is None or func.attr not in self._KEPT:
                    return True, None
                if func.attr == "joinpath":
                    parts = [_py_literal(a) for a in node.args]
                    if any(p is None for p in parts):
                        return True, None
                    return True, posixpath.join(base, *[p or "" for p in parts])
                if func.attr == "expanduser" and (base == "~" or base.startswith("~/")):
                    return True, self.home + base[1:]
                return True, base
            return False, None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            is_path, left = self.value(node.left)
            if not is_path:
                return False, None
            right = _py_literal(node.right)
            if right is None:
                right = self.value(node.right)[1]
            return True, None if left is None or right is None else posixpath.join(left, right)
        if isinstance(node, ast.Attribute) and node.attr == "parent":
            is_path, _ = self.value(node.value)
            return is_path, None
        if isinstance(node, ast.Name) and node.id in self.given and node.id not in self._seen:
            values = self.given[node.id]
            self._seen.add(node.id)
            try:
                found = [self.value(v) if v is not None else (False, None) for v in values]
            finally:
                self._seen.discard(node.id)
            if not any(is_path for is_path, _ in found):
                return False, None
            return True, found[0][1] if len(found) == 1 else None
        return False, None

    def method_findings(self, node: Any) -> list[Finding]:
        """`PATH.write_text(…)`, `.unlink()`, `.read_text()`, `.open("w")` on a pathlib path."""
        import ast

        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in _PATH_WRITE | _PATH_READ | {
            "open"
        }:
            return []
        is_path, value = self.value(func.value)
        if not is_path:
            if func.attr in _PATH_ONLY_WRITES:  # no other object has these: a path not known
                return [Finding("dynamic", f".{func.attr}() is called on a path not known")]
            return []
        writes = func.attr in _PATH_WRITE
        if func.attr == "open":
            args = node.args
            mode = _py_literal(args[0]) if args else "r"
            for kw in node.keywords:
                if kw.arg == "mode":
                    mode = _py_literal(kw.value)
            writes = bool(re.search("[wax+]", mode or "w"))
        if value is None:
            return [Finding("dynamic", f"a path's .{func.attr}() is given a path not known")]
        return [Finding("write" if writes else "read", value)]


def _py_paths(name: str, args: list[Any], mode: What) -> list[Finding]:
    out: list[Finding] = []
    for arg in args:
        value = _py_literal(arg)
        if value is None:
            out.append(Finding("dynamic", f"{name} is given a path not known"))
        else:
            out.append(Finding(mode, value))
    return out


def _py_literal(node: Any) -> str | None:
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
        value = node.value
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else value
    return None


def _py_joined(args: list[Any]) -> str | None:
    parts = [_py_literal(a) for a in args]
    if not parts or any(p is None for p in parts):
        return None
    return "/".join(p or "" for p in parts)


def _py_exec(name: str, args: list[Any]) -> Finding | None:
    """The argv an `os.exec*`, `os.spawn*` or `os.posix_spawn*` call runs: a list after the
    program (`execvp(file, [argv…])`, `spawnv(mode, path, [argv…])`, `posix_spawn(path,
    [argv…], env)`) or the words themselves (`execlp(file, arg0, arg1…)`); its first word
    is the program's name as it sees it, so the program given is what runs."""
    import ast
    import shlex

    variant = name.rsplit(".", 1)[-1]
    skip = 1 if variant.startswith("spawn") else 0  # os.spawn*'s first argument is the mode
    program = _py_literal(args[skip]) if len(args) > skip else None
    if variant.startswith(("execl", "spawnl")):
        words: list[Any] = args[skip + 1 :]
        if variant.endswith("e"):
            words = words[:-1]  # the environment, last
    elif len(args) > skip + 1 and isinstance(args[skip + 1], ast.List | ast.Tuple):
        words = list(args[skip + 1].elts)
    else:
        return None
    given = [_py_literal(w) for w in words]
    if program is None or any(g is None for g in given):
        return None
    return Finding("shell", " ".join(shlex.quote(w or "") for w in [program, *given[1:]]))


def _py_command(node: Any, *, argv: bool) -> Finding | None:
    """A literal command line, or a literal argv list joined as one."""
    import ast
    import shlex

    if node is None:
        return None
    text = _py_literal(node)
    if text is not None:
        return Finding("shell", text)
    if isinstance(node, ast.List | ast.Tuple):
        words = [_py_literal(e) for e in node.elts]
        if words and all(w is not None for w in words):
            return Finding("shell", " ".join(shlex.quote(w or "") for w in words))
    return None


# ---- other languages: a token scan ----------------------------------------------------------

_STRING = r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
_SHELL_CALL = re.compile(
    r"\b(execSync|execFileSync|spawnSync|execFile|exec|spawn|system|popen|shell_exec|passthru"
    r"|proc_open|pcntl_exec|Open3\.\w+|IO\.popen|Kernel\.exec|\$\.exec|do shell script"
    r"|do script|write text)\b\s*\(?\s*" + _STRING + "?"
)
_BACKTICK = re.compile(r"`((?:[^`\\]|\\.)*)`|%x\(([^)]*)\)|\bqx\s*(?:\(([^)]*)\)|\{([^}]*)\})")
_KEYSTROKE = re.compile(r"\b(?:keystroke|key code)\b")  # System Events typing, anywhere
_LOGIN_ITEM = re.compile(r"\bmake\s+(?:new\s+)?login item\b")  # what runs at every login
_EVAL = re.compile(r"\b(eval|instance_eval|class_eval|new Function|Function)\s*\(|\beval\s+[\"'$]")
_JS_EXEC = re.compile(r"(child_process|cp|require\([^)]*\))\.exec\b")
_RUNTIME_API = re.compile(
    r"\b(?:Deno\.(?:run|Command|remove|writeFile|writeTextFile|truncate|rename|symlink|chmod)"
    r"|Bun\.(?:spawn|spawnSync|write|\$))|\$`"
)


def script_findings(language: str, code: str) -> list[Finding]:
    """Shell-outs and file APIs in JavaScript, Ruby, Perl or PHP, with their literal strings."""
    found: list[Finding] = []
    shells = language != "js" or "child_process" in code or "execa" in code
    if shells:
        for m in _SHELL_CALL.finditer(code):
            api, literal = m.group(1), m.group(2)
            dotted = m.start() > 0 and code[m.start() - 1] == "."
            if api == "exec" and language == "js" and dotted and not _JS_EXEC.search(code):
                continue  # /re/.exec(s): a regular expression, not a shell
            finding = _literal_finding("shell", literal, language, f"{api} runs a command")
            line = api in _COMMAND_LINE_APIS or (language == "js" and api in _JS_COMMAND_LINES)
            if literal is not None and not line and finding.what == "shell":
                finding = _argv_finding(finding.text, code, m.end(), language, api)
            found.append(finding)
    if language == "js" and (_JS_HIDDEN.search(code) or _JS_COMPUTED.search(code)):
        found.append(Finding("dynamic", "the code reaches child processes in a way not read"))
    if language == "perl":
        for m in _PERL_PIPE_OPEN.finditer(code):
            piped, target = m.group(1), m.group(2)
            literal = target if piped is not None else m.group(3)
            finding = _literal_finding("shell", literal, language, "open runs a command")
            if finding.what == "shell" and piped is None:
                finding = Finding("shell", finding.text.strip().strip("|").strip())
            found.append(finding)
    if language != "js":
        for m in _BACKTICK.finditer(code):
            inner = next(g for g in m.groups() if g is not None)
            found.append(
                _literal_finding("shell", f'"{inner}"', language, "backticks run a command")
            )
    found.extend(file_findings(language, code))
    if language == "js" and _RUNTIME_API.search(code):
        found.append(Finding("dynamic", "the code uses Deno's or Bun's process or file API"))
    if _EVAL.search(code):
        found.append(Finding("dynamic", "the code evaluates code not known before it runs"))
    if language == "applescript" and _KEYSTROKE.search(code):
        found.append(Finding("dynamic", "the code types keys into another application"))
    if language == "applescript" and _LOGIN_ITEM.search(code):
        found.append(Finding("dynamic", "the code makes a login item: a program run at login"))
    return found


# the APIs whose first string is a whole command line (a shell reads it; what follows it is
# options or a callback), not the first word of an argv
_COMMAND_LINE_APIS = frozenset(
    # AppleScript: `do script` types a line into Terminal, iTerm's `write text` into a session
    {"popen", "IO.popen", "shell_exec", "passthru", "do shell script", "do script", "write text"}
)
_JS_COMMAND_LINES = frozenset({"exec", "execSync"})  # child_process.exec(LINE, options, callback)
_ARGV_ITEM = re.compile(r"\s*(?:" + _STRING + r"|(\[)|(\])|(\{)|([),;]|$))")
_JS_HIDDEN = re.compile(r"\bprocess\.(?:binding|_linkedBinding|dlopen)\b")
_JS_COMPUTED = re.compile(r"child_process['\"`]\s*\)\s*\[|\b(?:cp|child_process)\s*\[")
# perl's open of a pipe: open(F, "|cmd"), open(F, "cmd|"), open(F, "-|", "cmd"), '|-'
_PERL_PIPE_OPEN = re.compile(
    r"\bopen\s*\(?\s*[^,;]*,\s*(?:([\"'][-|]{2}[\"'])\s*,\s*"
    + _STRING
    + r"|(\"\s*\|[^\"]*\"|'\s*\|[^']*'|\"[^\"]*\|\s*\"|'[^']*\|\s*'))"
)


def _argv_finding(first: str, code: str, at: int, language: str, api: str) -> Finding:
    """`system("rm", "-rf", "/x")`, `spawnSync("rm", ["-rf", "/x"], {…})`: the command's argv,
    word by word, joined as a shell line; a word not known makes the command not known."""
    import shlex

    words = [first]
    i = at
    while True:
        m = _ARGV_ITEM.match(code, i)
        if m is None:
            return Finding("dynamic", f"{api} runs a command with arguments not known")
        i = m.end()
        literal, opened, closed, options, end = m.groups()
        if literal is not None:
            value = _literal_finding("shell", literal, language, api)
            if value.what != "shell":
                return value
            words.append(value.text)
        elif opened is not None or closed is not None:
            continue  # the list the argv is given in
        elif options is not None:
            break  # an options object: the argv is complete
        elif end == ",":
            continue
        else:
            break  # `)`, `;`, the end: the call is complete
        if i >= len(code):
            break
    if len(words) == 1:
        return Finding("shell", first)
    return Finding("shell", " ".join(shlex.quote(w) for w in words))


def _literal_finding(what: What, literal: str | None, language: str, why: str) -> Finding:
    if literal is None:
        return Finding("dynamic", f"{why} not known before it runs")
    quote, body = literal[0], literal[1:-1]
    interpolates = quote == '"' and (
        ("#{" in body and language == "ruby") or ("$" in body and language in ("perl", "php"))
    )
    if interpolates or (language == "js" and "${" in body and quote == "`"):
        return Finding("dynamic", f"{why} built from values not known before it runs")
    return Finding(what, re.sub(r"\\(.)", r"\1", body))


# ---- file APIs of JavaScript, Ruby, Perl and PHP ----------------------------------------------

Role = Literal["read", "write", "", "mode"]
_R: Role = "read"
_W: Role = "write"
_N: Role = ""
_M: Role = "mode"
# What each argument of a file API names, by position: a file it reads, one it writes (made,
# changed or removed), or none ("": a mode, data, a link's target); "mode": read or written as
# the next argument, the open mode, says (`fopen(F, "w")`). JavaScript's are node's fs and
# fs/promises, called on any receiver (`fs.readFileSync(`, `require("fs").promises.rm(`,
# `fsp.rm(`) or bare once imported, in code that reaches fs; Ruby's with their class.
_JS_FILE_APIS: dict[str, tuple[Role, ...]] = {
    **dict.fromkeys(("readFile", "createReadStream", "readdir", "opendir", "readlink"), (_R,)),
    **dict.fromkeys(("writeFile", "appendFile", "createWriteStream", "rmdir", "unlink"), (_W,)),
    "rm": (_W,),
    **dict.fromkeys(("mkdir", "mkdtemp", "truncate", "chmod", "chown", "lchown", "utimes"), (_W,)),
    **dict.fromkeys(("copyFile", "cp", "link"), (_R, _W)),
    "rename": (_W, _W),
    "symlink": (_N, _W),
    "open": (_M,),
}
_FILE_APIS: dict[str, dict[str, tuple[Role, ...]]] = {
    "js": {**_JS_FILE_APIS, **{f"{name}Sync": roles for name, roles in _JS_FILE_APIS.items()}},
    "ruby": {
        **dict.fromkeys(
            (
                f"{cls}.{verb}"
                for cls in ("File", "IO")
                for verb in ("read", "readlines", "binread", "foreach")
            ),
            (_R,),
        ),
        **dict.fromkeys(("Dir.children", "Dir.entries", "Dir.each_child"), (_R,)),
        **dict.fromkeys(
            (
                "File.write",
                "File.binwrite",
                "IO.write",
                "IO.binwrite",
                "File.delete",
                "File.unlink",
                "File.truncate",
                "Dir.mkdir",
                "Dir.rmdir",
                "Dir.delete",
                "Dir.unlink",
            ),
            (_W,),
        ),
        **dict.fromkeys(
            (
                f"FileUtils.{verb}"
                for verb in (
                    "rm",
                    "rm_f",
                    "rm_r",
                    "rm_rf",
                    "rmtree",
                    "remove_dir",
                    "remove_entry",
                    "remove_entry_secure",
                    "remove_file",
                    "mkdir",
                    "mkdir_p",
                    "makedirs",
                    "touch",
                    "rmdir",
                )
            ),
            (_W, _W, _W, _W),
        ),
        **dict.fromkeys(
            (
                f"FileUtils.{verb}"
                for verb in ("cp", "cp_r", "copy", "copy_file", "copy_entry", "install", "ln")
            ),
            (_R, _W),
        ),
        **dict.fromkeys(("FileUtils.mv", "FileUtils.move", "File.rename"), (_W, _W)),
        **dict.fromkeys(("FileUtils.ln_s", "FileUtils.ln_sf", "File.symlink"), (_N, _W)),
        **dict.fromkeys(("FileUtils.chmod", "FileUtils.chmod_R", "File.chmod"), (_N, _W, _W)),
        **dict.fromkeys(("FileUtils.chown", "FileUtils.chown_R", "File.chown"), (_N, _N, _W)),
        "File.link": (_R, _W),
        **dict.fromkeys(("File.open", "File.new"), (_M,)),
    },
    "perl": {
        **dict.fromkeys(("unlink", "rmtree", "remove_tree", "make_path", "mkpath"), (_W,) * 4),
        **dict.fromkeys(("rmdir", "mkdir", "truncate", "write_file"), (_W,)),
        **dict.fromkeys(("read_file", "slurp"), (_R,)),  # File::Slurp
        **dict.fromkeys(("copy", "cp", "link"), (_R, _W)),  # File::Copy
        **dict.fromkeys(("rename", "move", "mv"), (_W, _W)),
        "symlink": (_N, _W),
        "chmod": (_N, _W, _W, _W),
        "chown": (_N, _N, _W, _W),
        "utime": (_N, _N, _W, _W),
    },
    "php": {
        **dict.fromkeys(
            (
                "file_get_contents",
                "readfile",
                "file",
                "parse_ini_file",
                "highlight_file",
                "show_source",
                "scandir",
                "opendir",
            ),
            (_R,),
        ),
        **dict.fromkeys(
            (
                "file_put_contents",
                "unlink",
                "rmdir",
                "mkdir",
                "touch",
                "chmod",
                "chown",
                "chgrp",
                "tempnam",
            ),
            (_W,),
        ),
        **dict.fromkeys(("copy", "link"), (_R, _W)),
        "rename": (_W, _W),
        "symlink": (_N, _W),
        "fopen": (_M,),
    },
}
# what removes a whole tree (a destroy effect as well as a write)
_TREE_REMOVERS = frozenset(
    {"rm_rf", "rm_r", "rmtree", "remove_dir", "remove_tree", "remove_entry", "remove_entry_secure"}
)  # fmt: skip
_JS_TREE_REMOVERS = frozenset({"rm", "rmSync"})  # node's: a file, or a tree given recursive
_JS_REACHES_FS = re.compile(r"\bfs\b|[\"'`](?:node:)?fs(?:/promises)?[\"'`]")


def _api_pattern(names: list[str], language: str) -> re.Pattern[str]:
    """A call of any of `names`: on a receiver (JavaScript: `x.name(`) or bare, parentheses
    optional where the language allows none (Ruby, Perl)."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    if language == "js":
        return re.compile(r"(?<![\w$])(" + alternatives + r")\s*(\()\s*")
    return re.compile(r"(?<![\w$:>.])(?:::)?(" + alternatives + r")\b(?!\s*[=>])\s*(\()?\s*")


_API_PATTERNS: dict[str, re.Pattern[str]] = {}


def file_findings(language: str, code: str) -> list[Finding]:
    """What the file APIs called with literal paths read and write; a path that is not a
    literal is not known (it asks)."""
    apis = _FILE_APIS.get(language)
    if apis is None or (language == "js" and not _JS_REACHES_FS.search(code)):
        return []
    pattern = _API_PATTERNS.get(language)
    if pattern is None:
        pattern = _API_PATTERNS[language] = _api_pattern(list(apis), language)
    found: list[Finding] = []
    for m in pattern.finditer(code):
        api = m.group(1)
        roles = apis[api]
        args = _call_args(code, m.end(), parens=m.group(2) is not None)
        for at, role in enumerate(roles):
            if at >= len(args) or not role:
                continue
            what: What = "write" if role == _W else "read"
            if role == _M:  # read only when the mode says only read: "r", "rb", 'r:utf-8'
                mode = args[at + 1] if at + 1 < len(args) else "'r'"
                reads = mode is not None and re.fullmatch(r"""["'`]rb?t?(?::[\w-]+)?["'`]""", mode)
                what = "read" if reads else "write"
            found.append(_literal_finding(what, args[at], language, f"{api} is given a path"))
        short = api.rsplit(".", 1)[-1]
        removes = short in _TREE_REMOVERS or (language == "js" and short in _JS_TREE_REMOVERS)
        if removes and args and args[0] is not None:
            found.append(_literal_finding("destroy", args[0], language, api))
    if language == "perl":
        found.extend(_perl_opens(code))
    return found


_LITERAL = re.compile(r"""("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)""")
_PERL_STOPS = re.compile(r"\s+(?:or|and|if|unless|for|foreach|while)\b|\s*(?:\|\||&&)")


def _call_args(code: str, at: int, *, parens: bool) -> list[str | None]:
    """The arguments of the call whose first starts at `at`: each a string literal (quotes
    included) or None for any other expression. Without parentheses the call ends at the
    statement's end, or at `or`, `and`, `||`, `if` … (Perl's `unlink "x" or die`)."""
    args: list[str | None] = []
    depth = 0
    start = at
    i = at
    end = len(code)
    while i < end:
        char = code[i]
        if char in "\"'`":
            m = _LITERAL.match(code, i)
            if m is None:
                break
            i = m.end()
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and char == ",":
            args.append(_arg(code[start:i]))
            start = i + 1
        elif depth == 0 and (char in ";\n" or (not parens and _PERL_STOPS.match(code, i))):
            break
        i += 1
    last = code[start:i]
    if last.strip() or args:
        args.append(_arg(last))
    return args


def _arg(text: str) -> str | None:
    text = text.strip()
    return text if _LITERAL.fullmatch(text) else None


# perl's open and sysopen of a file (a pipe's open is a command: _PERL_PIPE_OPEN)
_PERL_OPEN = re.compile(r"\b(open|sysopen)\s*(\(?)\s*(?:my\s+|our\s+|local\s+)?[$\w:*]+\s*,\s*")
_PERL_WRITES = re.compile(r"\+?(?:>>?|\+<)")


def _perl_opens(code: str) -> list[Finding]:
    found: list[Finding] = []
    for m in _PERL_OPEN.finditer(code):
        args = _call_args(code, m.end(), parens=m.group(2) == "(")
        if not args:
            continue
        if m.group(1) == "sysopen":
            flags = code[m.end() : m.end() + 200]
            what: What = (
                "write" if re.search(r"O_(?:WRONLY|RDWR|CREAT|TRUNC|APPEND)", flags) else "read"
            )
            found.append(_literal_finding(what, args[0], "perl", "sysopen is given a path"))
            continue
        spec = args[0]
        if len(args) >= 2:  # open(F, MODE, PATH)
            if spec is None:
                found.append(Finding("dynamic", "open is given a mode not known before it runs"))
                continue
            mode = spec[1:-1].strip()
            if "|" in mode or "&" in mode:
                continue  # a pipe (a command) or a descriptor
            what = "write" if _PERL_WRITES.match(mode) else "read"
            found.append(_literal_finding(what, args[1], "perl", "open is given a path"))
            continue
        if spec is None:  # open(F, $name): a path and mode not known
            found.append(Finding("dynamic", "open is given a path not known before it runs"))
            continue
        body = spec[1:-1].strip()
        if body.startswith("|") or body.endswith("|") or "&" in body[:3] or body in ("-", ">-"):
            continue  # a pipe (a command), a descriptor, standard input or output
        written = _PERL_WRITES.match(body)
        path = body[written.end() :] if written else body.removeprefix("<")
        what = "write" if written else "read"
        found.append(_literal_finding(what, spec[0] + path.strip() + spec[0], "perl", "open"))
    return found


# ---- vim's Ex commands (vim -c, --cmd) -----------------------------------------------------

_VIM_QUIET = re.compile(
    r"\s*:?\s*(?:(?:set|setlocal|setl|se|setglobal|setg)\s+[\w&+=^:,.-]+(?:\s+[\w&+=^:,.-]+)*"
    r"|syntax\s+\w+|syn\s+\w+|filetype\s+[\w ]+|colorscheme\s+[\w-]+|colo\s+[\w-]+|\d+"
    r"|q|qa|q!|qa!|wq|x|noh|nohlsearch)\s*"
)


def vim_findings(code: str) -> list[Finding]:
    """Ex commands that only set options, highlight or quit are quiet; any other may run a
    shell (`!`), a script or another language, and cannot be known."""
    if all(_VIM_QUIET.fullmatch(part) for part in code.split("|")):
        return []
    return [Finding("dynamic", "the Ex commands may run programs guard cannot see")]
