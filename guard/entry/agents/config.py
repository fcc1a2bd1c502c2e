"""Where each agent keeps its hook configuration, and the entry `guard setup` puts there.

Read from each agent's record (guard/entry/agents/<agent>.py, registered in registry.py);
guard/entry/agents/setup.py does the reading, merging and writing. The
timeout written leaves room for a human at `guard watch` (its default is 120 s) before the
agent's own timeout would fire; the hook is told the same number (`--timeout`), so a held call
is denied a few seconds before it. Sources are cited in docs/agents.md.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

from guard import dirs
from guard.entry.agents.agent import Agent
from guard.entry.agents.registry import agent as record
from guard.entry.agents.registry import agents

AGENTS: dict[str, Agent] = agents()


def config_path(agent: str, *, project: str | None = None) -> Path:
    """The file guard's hook goes in: the user's, or the project's under `project`."""
    cfg = record(agent)
    if project is not None:
        return Path(project) / cfg.project_path
    return user_base(agent) / cfg.user_below


def user_base(agent: str) -> Path:
    """The user's base directory of the agent's configuration (its `CODEX_HOME` …)."""
    variable, below = record(agent).user_path
    base = os.environ.get(variable, "") if variable else ""
    return Path(base) if base else Path(os.path.expanduser("~")) / below


def guard_program() -> str:
    """The `guard` the agent should run (guard.dirs.guard_program), else plain `guard`: the
    installed command then fails to start it and denies (see hook_command)."""
    return dirs.guard_program() or "guard"


def hook_timeout(agent: str) -> int:
    """The agent's own timeout for guard's hook, in seconds (what setup writes)."""
    return record(agent).hook_timeout


def guard_call(agent: str) -> str:
    """`guard hook AGENT --timeout N`, with the absolute path of the guard to run."""
    return f"{shlex.quote(guard_program())} hook {agent} --timeout {hook_timeout(agent)}"


WATCHDOG_MARGIN = 2  # seconds: the watchdog stops guard this long before the agent's timeout
FAIL_CLOSED_MARK = "w=; command -v timeout"  # in every installed command that fails closed


def hook_command(agent: str) -> str:
    """The command line the agent runs (for Cline, its hook script's body): a POSIX sh line
    that runs guard under a watchdog (`timeout -s KILL`, where there is one) and passes on
    guard's answer only when guard exited 0. When guard cannot start, crashes, or is stopped,
    it prints a `guard:` line and answers with the agent's own deny, so the call never runs."""
    stop = hook_timeout(agent) - WATCHDOG_MARGIN
    deny = record(agent).deny_form
    if deny is None:
        raise KeyError(f"{agent} runs no hook command")
    form, status = deny
    json_deny = ""
    if form:
        fmt = form.replace("REASON", "%s")
        json_deny = f"printf '{fmt}\\n'" + ' "$m"' * form.count("REASON") + "; "
    return (
        f"t={stop}; {FAIL_CLOSED_MARK} >/dev/null 2>&1 && w=\"timeout -s KILL $t\"; "
        f"a=$($w {guard_call(agent)}); s=$?; "
        """if [ "$s" -eq 0 ]; then [ -z "$a" ] || printf '%s\\n' "$a"; exit 0; fi; """
        """case $s in 126|127) m="cannot start guard's program";; """
        """137) m="guard's program was stopped (no answer within $t s) or killed";; """
        """*) m="guard's program failed (exit status $s)";; esac; """
        'm="guard: $m; the command was not run (run guard doctor)"; echo "$m" >&2; '
        f"{json_deny}exit {status}"
    )


def fail_closed_text(agent: str) -> str:
    """How guard's installed hook keeps a call from running when guard cannot answer."""
    cfg = record(agent)
    if cfg.deny_form is None:  # a plugin of its own, no hook command
        return f"yes, {cfg.fail_closed}"
    stop = hook_timeout(agent) - WATCHDOG_MARGIN
    how = (
        "yes: the hook command answers with the agent's deny when guard cannot start, "
        f"crashes, or is stopped after {stop} s"
    )
    return f"{how}; and {cfg.fail_closed}" if cfg.fail_closed else how


def handler(agent: str) -> dict[str, Any]:
    """guard's hook entry in the agent's own words."""
    entry = record(agent).entry
    if entry is None:
        raise KeyError(agent)
    return entry(hook_command(agent))


def script(agent: str) -> str:
    """The whole file for agents whose hook is a file of its own (Cline, OpenCode)."""
    cfg = record(agent)
    if cfg.file_text is None:
        raise KeyError(agent)
    command = hook_command(agent) if cfg.deny_form is not None else ""
    return cfg.file_text(command, guard_program())
