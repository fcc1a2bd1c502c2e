"""Option values that are more than paths: settings that run programs, scripts in other
languages that reach the shell or files, and the like. Each role a spec in
`guard/commands.py` gives an option or operand has one handler here.
"""

from __future__ import annotations

from collections.abc import Callable

from guard.invocation import Arg, dynamic
from guard.invocation_kinds import run_code
from guard.walker import Walker


def _git_config(w: Walker, arg: Arg, setting: str | None, depth: int, via: str) -> None:
    """`git -c core.sshCommand=… ` and `-c alias.x='!…'` make git run commands."""
    from guard.commands import GIT_CODE_KEYS

    if setting is None:
        dynamic(w, arg, "code", f"a git setting is not known: {arg.reason}")
        return
    key, _, value = setting.partition("=")
    if GIT_CODE_KEYS.match(key):
        if key.lower().startswith("alias.") and not value.startswith("!"):
            return  # a plain alias names git subcommands, not shell code
        run_code(w, value.lstrip("!"), arg, depth, new_process=True, via=f"git -c {key}")


def _ssh_option(w: Walker, arg: Arg, setting: str | None, depth: int, via: str) -> None:
    """`ssh -o ProxyCommand=…` (and LocalCommand, KnownHostsCommand) run a local command."""
    from guard.commands import SSH_CODE_KEYS

    if setting is None:
        dynamic(w, arg, "code", f"an ssh option is not known: {arg.reason}")
        return
    key, sep, value = setting.replace(" ", "=", 1).partition("=")
    if sep and key.strip().lower() in SSH_CODE_KEYS:
        run_code(w, value.strip(), arg, depth, new_process=True, via=f"ssh -o {key.strip()}")


def _sed(w: Walker, arg: Arg, script: str | None, depth: int, via: str) -> None:
    _other_language(w, arg, script, "sed-script")


def _awk(w: Walker, arg: Arg, script: str | None, depth: int, via: str) -> None:
    _other_language(w, arg, script, "awk-program")


def _other_language(w: Walker, arg: Arg, script: str | None, role: str) -> None:
    """A sed or awk program that runs shell commands or writes files guard cannot name."""
    from guard.commands import AWK_RUNS, AWK_WRITES, SED_RUNS, SED_WRITES

    if script is None:
        return  # an unknown program: the command request is there for the policy
    runs, writes = (SED_RUNS, SED_WRITES) if role == "sed-script" else (AWK_RUNS, AWK_WRITES)
    tool = "sed" if role == "sed-script" else "awk"
    if runs.search(script):
        dynamic(w, arg, "code", f"the {tool} program runs shell commands")
    elif writes.search(script):
        dynamic(w, arg, "path", f"the {tool} program writes to files it names")


Handler = Callable[[Walker, Arg, "str | None", int, str], None]
HANDLERS: dict[str, Handler] = {
    "git-config": _git_config,
    "ssh-option": _ssh_option,
    "sed-script": _sed,
    "awk-program": _awk,
}
OPTION_VALUE_ROLES = frozenset(HANDLERS)


def option_value(w: Walker, role: str, arg: Arg, value: str | None, depth: int, via: str) -> None:
    """What an option's (or operand's) value does, by the role its command's spec gives it."""
    HANDLERS[role](w, arg, value, depth, via)
