"""Variables whose values are code or programs: what setting them means.

`PROMPT_COMMAND='rm -rf ~'` runs later; `GIT_SSH_COMMAND`, `EDITOR` and friends are run by the
tools that read them; `PATH`, `LD_PRELOAD`, `BASH_ENV` name programs and libraries that will be
executed. Setting one of these, as an assignment, an `export` or a command's prefix, is
projected as the code it carries or the paths it makes executable.
"""

from __future__ import annotations

import re

from guard.invocation import Arg, access, dynamic
from guard.scope import Var
from guard.walker import Walker

# Values that are shell code, run later by the shell or by a tool through `sh -c`.
CODE = frozenset(
    {
        "PROMPT_COMMAND",
        "GIT_SSH_COMMAND",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_PAGER",
        "GIT_EXTERNAL_DIFF",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "EDITOR",
        "VISUAL",
        "PAGER",
        "MANPAGER",
        "LESSOPEN",
        "LESSCLOSE",
        "BROWSER",
        "FCEDIT",
        "RSYNC_RSH",
        "CVS_RSH",
    }
)
# Prompt strings: expanded (and so their `$( )` run) every time a prompt is shown.
PROMPTS = frozenset({"PS0", "PS1", "PS2", "PS3", "PS4"})
# Values that are files or directories whose programs or libraries will be executed.
EXECUTABLE_PATHS = frozenset(
    {
        "PATH",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "LD_AUDIT",
        "BASH_ENV",
        "ENV",
        "ZDOTDIR",
        "PYTHONPATH",
        "PYTHONSTARTUP",
        "PYTHONHOME",
        "PERL5LIB",
        "PERL5OPT",
        "RUBYLIB",
        "RUBYOPT",
        "NODE_PATH",
        "GIT_EXEC_PATH",
        "GIT_TEMPLATE_DIR",
    }
)


# Where guard finds its policy, store and sockets: an agent must not point them at files it wrote.
GUARDS_OWN = frozenset(
    {
        "HOME",
        "XDG_CONFIG_HOME",
        "XDG_STATE_HOME",
        "XDG_RUNTIME_DIR",
        "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
        "CLAUDE_PROJECT_DIR",  # the Claude Code adapter takes the workspace from it
    }
)

# Variables that carry options (or config) into tools, where options can run programs:
# TAR_OPTIONS='--checkpoint-action=exec=…', GIT_CONFIG_PARAMETERS="'alias.x=!…'" …
TOOL_OPTIONS = frozenset(
    {
        "TAR_OPTIONS",
        "GZIP",
        "XZ_OPT",
        "ZSTD_CLEVEL",
        "ZIPOPT",
        "UNZIP",
        "MANOPT",
        "LESS",
        "GIT_DIR",
        "GIT_ALLOW_PROTOCOL",
        "GIT_PROXY_COMMAND",
        "GIT_EXEC_PATH",
        "GREP_OPTIONS",
        "RSYNC_RSH",
    }
)

# Values that are files the shell writes later (`history -w`, and at exit).
WRITTEN_PATHS = frozenset({"HISTFILE"})


# A subscript holding a command substitution: bash runs it when the text is used as a number or
# a variable name (`(( x ))` with x='a[$(cmd)]', `let`, `read`, `printf -v`, `test -v` …).
ARITHMETIC_CODE = re.compile(r"\[[^\]]*(\$\(|`)")


def assigned(w: Walker, name: str, value: str | None, arg: Arg, depth: int) -> None:
    """What setting `name` to `value` (None: unknown) means beyond the variable itself."""
    if value and ARITHMETIC_CODE.search(value):
        dynamic(w, arg, "code", f"${name} holds a subscript that runs code when used as a number")
    if name.startswith(("GUARD_", "__guard_", "PYTHON")) or name in GUARDS_OWN:
        dynamic(w, arg, "code", f"setting {name} changes how guard itself decides or runs")
    elif name.startswith("GIT_CONFIG_") or name in TOOL_OPTIONS:
        dynamic(
            w, arg, "code", f"setting {name} passes options to a tool, and they can run programs"
        )
    elif name in ("IFS", "CDPATH", "DIRSTACK"):
        # they change how later lines split words and where cd goes; guard sees one line at a time
        dynamic(w, arg, "code", f"setting {name} changes what later commands mean")
    elif name in CODE:
        _code(w, name, value, arg, depth)
    elif name in PROMPTS:
        if value is None or "$(" in value or "`" in value:
            dynamic(w, arg, "code", f"{name} runs the commands in it every time a prompt shows")
    elif name in EXECUTABLE_PATHS:
        _paths(w, name, value, arg)
    elif name in WRITTEN_PATHS:
        if value is None:
            dynamic(w, arg, "path", f"{name} is set to something not known: {arg.reason}")
        elif value:
            access(w, arg, value, "write", name)


def _code(w: Walker, name: str, value: str | None, arg: Arg, depth: int) -> None:
    from guard.invocation_kinds import run_code

    saved = w.scope
    w.scope = w.scope.copy()
    try:
        run_code(w, value, arg, depth, new_process=name != "PROMPT_COMMAND", via=name)
    finally:
        w.scope = saved


def _paths(w: Walker, name: str, value: str | None, arg: Arg) -> None:
    if value is None:
        dynamic(w, arg, "path", f"{name} is set to something not known: {arg.reason}")
        return
    separators = value.replace(" ", ":") if name == "LD_PRELOAD" else value
    known = set(w.scope.env.get(name, "").split(":")) if name == "PATH" else set()
    from guard.commands import SYSTEM_BIN_DIRS

    for element in separators.split(":"):
        if element and element not in known and element.rstrip("/") not in SYSTEM_BIN_DIRS:
            access(w, arg, element, "execute", name)


SPECIAL = (
    CODE
    | PROMPTS
    | EXECUTABLE_PATHS
    | WRITTEN_PATHS
    | GUARDS_OWN
    | TOOL_OPTIONS
    | {"IFS", "CDPATH", "DIRSTACK"}
)


def set_variable(w: Walker, name: str, var: Var, arg: Arg, depth: int) -> None:
    """Give `name` its new value in the scope, and project what that means when the variable
    carries code or paths — whatever sets it: `for`, `read`, `printf -v`, an array, `${x:=…}`."""
    w.scope.assign(name, var)
    if (
        name in SPECIAL
        or name.startswith(("GUARD_", "__guard_", "PYTHON", "GIT_CONFIG_"))
        or any(ARITHMETIC_CODE.search(v) for v in var.options or ())
    ):
        for value in var.options if var.options is not None else (None,):
            reason = var.reason if value is None else arg.reason
            assigned(w, name, value, arg._replace(value=value, reason=reason), depth)
