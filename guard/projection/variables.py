"""Variables whose values are code or programs: what setting them means.

`PROMPT_COMMAND='rm -rf ~'` runs later; `GIT_SSH_COMMAND`, `EDITOR` and friends are run by the
tools that read them; `PATH`, `LD_PRELOAD`, `BASH_ENV` name programs and libraries that will be
executed. Setting one of these, as an assignment, an `export` or a command's prefix, is
projected as the code it carries or the paths it makes executable.
"""

from __future__ import annotations

import re

from guard.knowledge import (
    ENVIRONMENT,
    GUARDS_MODULES,
    OPTION_VARIABLES,
    PYTHON_PATHS,
    OptionTable,
    env_role,
    named,
    names_files,
    options_read_as,
)
from guard.languages import path_part
from guard.projection.accesses import access
from guard.projection.shell_state import Var
from guard.projection.walk_records import Arg
from guard.projection.walker import Walker, dynamic, run_code

# The variables of each kind live in one table, `guard/knowledge/environment.py`.
CODE = named("code")
PROMPTS = named("prompt")
EXECUTABLE_PATHS = named("execute")
GUARDS_OWN = named("guard")
TOOL_OPTIONS = named("options")
WRITTEN_PATHS = named("written")


# A subscript holding a command substitution: bash runs it when the text is used as a number or
# a variable name (`(( x ))` with x='a[$(cmd)]', `let`, `read`, `printf -v`, `test -v` …).
ARITHMETIC_CODE = re.compile(r"\[[^\]]*(\$\(|`)")


def assigned(
    w: Walker,
    name: str,
    value: str | None,
    arg: Arg,
    depth: int,
    *,
    exported: bool = False,
    for_command: bool = False,
) -> None:
    """What setting `name` to `value` (None: unknown) means beyond the variable itself;
    `exported`: the value reaches the environment of the programs run (`export`, `VAR=v cmd`);
    `for_command`: only for the one command it prefixes (`VAR=v cmd`, `env VAR=v cmd`)."""
    if value and ARITHMETIC_CODE.search(value):
        dynamic(w, arg, "code", f"${name} holds a subscript that runs code when used as a number")
    role = env_role(name, value)
    if name in PYTHON_PATHS and not for_command:
        role = "guard"  # it stays in the shell, for the guard every later line starts
    if role == "guard":
        dynamic(w, arg, "code", f"setting {name} changes how guard itself decides or runs")
    elif role == "options" and options_read_as(name) in OPTION_VARIABLES and value is not None:
        _options(w, name, value, arg, OPTION_VARIABLES[options_read_as(name)])
    elif role == "options":
        dynamic(
            w, arg, "code", f"setting {name} passes options to a tool, and they can run programs"
        )
    elif role == "meaning":
        # they change how later lines split words and where cd goes; guard sees one line at a time
        dynamic(w, arg, "code", f"setting {name} changes what later commands mean")
    elif role == "code":
        _code(w, name, value, arg, depth)
    elif role == "prompt":
        if value is None or "$(" in value or "`" in value:
            dynamic(w, arg, "code", f"{name} runs the commands in it every time a prompt shows")
    elif role == "execute":
        _paths(w, name, value, arg)
    elif role == "written":
        if value is None:
            dynamic(w, arg, "path", f"{name} is set to something not known: {arg.reason}")
        elif value:
            access(w, arg, value, "write", name)
    elif role in ("read", "write") and (exported or name in w.scope.env):
        _files(w, name, value, arg, role)
    elif role is None and (exported or name in w.scope.env) and value:
        # nobody described it: a program may open what it names, when its name says it names
        # files, or when it is the path of something that exists (XYZ=/etc/shadow cmd)
        named_files = names_files(name)
        for element in _elements(value):
            part = path_part(element)
            if part is not None and (named_files or _exists(w, part)):
                access(w, arg, part, "read", name)


def _exists(w: Walker, path: str) -> bool:
    """Whether an absolute (or ~) path names something that exists now."""
    if path.startswith("~/"):
        path = w.ctx.home.rstrip("/") + path[1:]
    if not path.startswith("/"):
        return False
    quoted = "".join(f"[{c}]" if c in "*?[" else c for c in path)
    return bool(w.ctx.expand(quoted))


def _elements(value: str) -> list[str]:
    """A list of paths (`a:b`, `a b`), or the one value."""
    if "://" in value:
        return [value]
    return [e for e in value.replace(" ", ":").split(":") if e]


def _files(w: Walker, name: str, value: str | None, arg: Arg, role: str) -> None:
    """A variable that names files: GIT_INDEX_FILE=/x, KUBECONFIG=a:b, TZ=:/x, GIT_TRACE=/x
    (a number or `true` there means standard error)."""
    if value is None:
        dynamic(w, arg, "path", f"{name} is set to something not known: {arg.reason}")
        return
    for element in _elements(value):
        if name.startswith("GIT_TRACE") and not path_part(element):
            continue
        if name == "TZ" and not path_part(element):
            continue  # a zone name (UTC, Europe/Paris is under /usr/share/zoneinfo)
        access(w, arg, element, role, name)  # type: ignore[arg-type]


def _code(w: Walker, name: str, value: str | None, arg: Arg, depth: int) -> None:
    saved = w.scope
    w.scope = w.scope.copy()
    try:
        run_code(w, value, arg, depth, new_process=name != "PROMPT_COMMAND", via=name)
    finally:
        w.scope = saved


def _options(w: Walker, name: str, value: str, arg: Arg, table: OptionTable) -> None:
    """A tool's options carried in a variable (`NODE_OPTIONS=--max-old-space-size=4096`), read
    with the tool's table: an option that loads code or runs a program asks, a path is read."""
    words = _option_words(value, table)
    if words is None:
        dynamic(w, arg, "code", f"{name}'s options cannot be split as {table.tool} splits them")
        return
    for word in words:
        risky = next((p for p in table.code if word == p or word.startswith(p)), None)
        if risky is None and table.assignments and "=" in word and not word.startswith("-"):
            risky = word.partition("=")[0] + "="
        if risky is not None:
            reason = f"{name} gives {table.tool} {word}, which loads code or runs programs"
            dynamic(w, arg, "code", reason)
            continue
        for piece in re.split(r"[=:,]", word)[1:] if word.startswith("-") else [word]:
            part = path_part(piece)
            if part is not None:
                access(w, arg, part, "read", name)


def _option_words(value: str, table: OptionTable) -> list[str] | None:
    """The words of a variable's value as the tool splits them, a separate value joined to its
    option (`-C opt-level=3` is `-Copt-level=3`, `--codegen x` is `-Cx`)."""
    if table.split == "unit":
        words = [w for w in value.split("\x1f") if w]
    elif table.split == "space":
        words = value.split()
    else:
        import shlex

        try:
            words = shlex.split(value)
        except ValueError:
            return None
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word.startswith("--") and table.tool in ("go",):
            word = word[1:]  # go's flags take one dash or two
        if word == "--codegen":
            word = "-C"
        if word in table.joined and i < len(words):
            word += words[i]
            i += 1
        out.append(word)
    return out


def _python_path(w: Walker, name: str, value: str, arg: Arg) -> None:
    """An entry of PYTHONPATH holding a module guard itself loads (sitecustomize, guard's own
    packages, the standard library's) would run inside guard: that asks."""
    import sys

    cwd = w.scope.cwd
    for entry in value.split(":"):
        if not entry:
            continue
        where = entry if entry.startswith("/") or cwd is None else f"{cwd.rstrip('/')}/{entry}"
        if not where.startswith("/"):
            dynamic(w, arg, "code", f"setting {name} changes how guard itself decides or runs")
            return
        quoted = "".join(f"[{c}]" if c in "*?[" else c for c in where.rstrip("/"))
        found = [*w.ctx.expand(f"{quoted}/*.py"), *w.ctx.expand(f"{quoted}/*/__init__.py")]
        for path in found:
            parts = path.split("/")
            module = parts[-1][:-3] if parts[-1] != "__init__.py" else parts[-2]
            if module in GUARDS_MODULES or module in sys.stdlib_module_names:
                reason = f"{name} puts {module} before guard's own: it would run inside guard"
                dynamic(w, arg, "code", reason)
                return


def _paths(w: Walker, name: str, value: str | None, arg: Arg) -> None:
    if value is None:
        dynamic(w, arg, "path", f"{name} is set to something not known: {arg.reason}")
        return
    separators = value.replace(" ", ":") if name == "LD_PRELOAD" else value
    known = set(w.scope.env.get(name, "").split(":")) if name == "PATH" else set()
    from guard.knowledge import SYSTEM_BIN_DIRS

    for element in separators.split(":"):
        if element and element not in known and element.rstrip("/") not in SYSTEM_BIN_DIRS:
            access(w, arg, element, "execute", name)
    if name in PYTHON_PATHS:
        _python_path(w, name, value, arg)


SPECIAL = frozenset(n for n, r in ENVIRONMENT.items() if r != "harmless")


def set_variable(w: Walker, name: str, var: Var, arg: Arg, depth: int) -> None:
    """Give `name` its new value in the scope, and project what that means when the variable
    carries code or paths — whatever sets it: `for`, `read`, `printf -v`, an array, `${x:=…}`."""
    w.scope.assign(name, var)
    if (
        name in SPECIAL
        or var.exported
        or env_role(name) not in (None, "harmless")
        or any(ARITHMETIC_CODE.search(v) for v in var.options or ())
    ):
        for value in var.options if var.options is not None else (None,):
            reason = var.reason if value is None else arg.reason
            assigned(
                w,
                name,
                value,
                arg._replace(value=value, reason=reason),
                depth,
                exported=var.exported,
            )
