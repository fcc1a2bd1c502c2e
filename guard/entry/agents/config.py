"""Where each agent keeps its hook configuration, and the entry `guard setup` puts there.

Data, one row per agent; guard/entry/agents/setup.py does the reading, merging and writing. The
timeout written leaves room for a human at `guard watch` (its default is 120 s) before the
agent's own timeout would fire; the hook is told the same number (`--timeout`), so a held call
is denied a few seconds before it. Sources are cited in docs/agents.md.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TIMEOUT = 150  # seconds: the approver's 120 s, the hook's margin and guard's own start

Shape = str  # "grouped": hooks.EVENT[{matcher, hooks:[…]}]; "flat": hooks.EVENT[{…}]; "file"


@dataclass(frozen=True, slots=True)
class AgentConfig:
    agent: str
    user_path: tuple[str, str]  # (environment variable naming the base dir or "", path below)
    project_path: str  # below the project directory
    shape: Shape
    event: str
    matcher: str  # grouped shape only
    fail_closed: str  # how it fails closed, or "" when the agent has no such option
    steps: tuple[str, ...]  # what the user still does in the agent
    binaries: tuple[str, ...]  # names on PATH that show the agent is installed


WATCH = "start `guard watch` in a terminal of your own: it answers what guard asks about"

AGENTS: dict[str, AgentConfig] = {
    "claude-code": AgentConfig(
        "claude-code", ("CLAUDE_CONFIG_DIR", ".claude"), ".claude/settings.json", "grouped",
        "PreToolUse", "Bash", 'onFailure: "block"',
        ("restart running Claude Code sessions; /hooks lists guard's hook",
         "ask goes to Claude Code's own prompt; for headless runs (claude -p) set "
         f"GUARD_APPROVER=always and {WATCH}"),
        ("claude",),
    ),
    "codex": AgentConfig(
        "codex", ("CODEX_HOME", ".codex"), ".codex/hooks.json", "grouped", "PreToolUse",
        "^Bash$", "",
        ("Codex skips a new or changed hook until you trust it: start codex, open /hooks and "
         "trust guard's PreToolUse hook (non-interactive: codex exec "
         "--dangerously-bypass-hook-trust, or a managed hook in /etc/codex/requirements.toml)",
         f"Codex has no prompt for a hook's ask: {WATCH}"),
        ("codex",),
    ),
    "cursor": AgentConfig(
        "cursor", ("", ".cursor"), ".cursor/hooks.json", "flat", "beforeShellExecution", "",
        "failClosed: true",
        ("reload Cursor's window; Settings > Hooks lists guard's hook",
         f"Cursor shows no prompt for a shell hook's ask: {WATCH}"),
        ("cursor", "cursor-agent"),
    ),
    "gemini": AgentConfig(
        "gemini", ("", ".gemini"), ".gemini/settings.json", "grouped", "BeforeTool",
        "run_shell_command", "",
        ("restart Gemini CLI; /hooks lists guard's hook",
         "ask goes to Gemini CLI's own prompt in an interactive session; headless (gemini -p) "
         f"guard holds the call instead: {WATCH}"),
        ("gemini",),
    ),
    "copilot": AgentConfig(
        "copilot", ("COPILOT_HOME", ".copilot"), ".github/hooks/guard.json", "flat",
        "preToolUse", "", "",
        ("Copilot CLI reads hooks when a session starts: start a new one",
         f"with -p (no prompt) guard holds the call instead of asking: {WATCH}"),
        ("copilot",),
    ),
    "cline": AgentConfig(
        "cline", ("", "Documents/Cline"), ".clinerules/hooks/PreToolUse", "file", "PreToolUse",
        "", "built in: a hook that fails or times out blocks",
        ("turn hooks on in Cline (Settings > Features > Hooks; CLI: cline config set "
         "hooks-enabled=true)",
         f"Cline has no ask for hooks, and gives a hook 30 s: {WATCH}; a question nobody answers "
         "within 25 s is denied"),
        ("cline",),
    ),
    "opencode": AgentConfig(
        "opencode", ("XDG_CONFIG_HOME", ".config"), ".opencode/plugins/guard.js", "file",
        "tool.execute.before", "", "built in: the plugin throws on anything but allow",
        ("restart opencode: it loads plugins at start",
         f"opencode has no ask for plugins: {WATCH}"),
        ("opencode",),
    ),
}  # fmt: skip

USER_BELOW = {  # below the base directory of user_path
    "claude-code": "settings.json",
    "codex": "hooks.json",
    "cursor": "hooks.json",
    "gemini": "settings.json",
    "copilot": "hooks/guard.json",
    "cline": "Hooks/PreToolUse",
    "opencode": "opencode/plugins/guard.js",
}


def config_path(agent: str, *, project: str | None = None) -> Path:
    """The file guard's hook goes in: the user's, or the project's under `project`."""
    cfg = AGENTS[agent]
    if project is not None:
        return Path(project) / cfg.project_path
    variable, below = cfg.user_path
    base = os.environ.get(variable, "") if variable else ""
    root = Path(base) if base else Path(os.path.expanduser("~")) / below
    return root / USER_BELOW[agent]


def guard_program() -> str:
    """The `guard` the agent should run: the one next to this Python, else the one on PATH."""
    beside = Path(sys.executable).parent / "guard"
    if beside.exists():
        return str(beside)
    return shutil.which("guard") or "guard"


def hook_timeout(agent: str) -> int:
    """The agent's own timeout for guard's hook, in seconds (what setup writes)."""
    return 30 if agent == "cline" else TIMEOUT  # Cline gives every hook 30 s


def guard_call(agent: str) -> str:
    """`guard hook AGENT --timeout N`, with the absolute path of the guard to run."""
    return f"{shlex.quote(guard_program())} hook {agent} --timeout {hook_timeout(agent)}"


# How each agent reads a hook that says no, when guard itself could not (docs/agents.md):
# the JSON printed on stdout (REASON replaced) and the exit status. Codex, Claude Code and
# Gemini CLI block on exit 2 and show its stderr; Copilot CLI skips a hook that exits non-zero,
# so it gets JSON and 0; Cursor blocks on either; Cline shows errorMessage.
DENY_FORMS: dict[str, tuple[str, int]] = {
    "claude-code": ("", 2),
    "codex": ("", 2),
    "gemini": ("", 2),
    "cursor": ('{"permission":"deny","user_message":"REASON","agent_message":"REASON"}', 2),
    "copilot": ('{"permissionDecision":"deny","permissionDecisionReason":"REASON"}', 0),
    "cline": ('{"cancel":true,"errorMessage":"REASON"}', 0),
}
WATCHDOG_MARGIN = 2  # seconds: the watchdog stops guard this long before the agent's timeout
FAIL_CLOSED_MARK = "w=; command -v timeout"  # in every installed command that fails closed


def hook_command(agent: str) -> str:
    """The command line the agent runs (for Cline, its hook script's body): a POSIX sh line
    that runs guard under a watchdog (`timeout -s KILL`, where there is one) and passes on
    guard's answer only when guard exited 0. When guard cannot start, crashes, or is stopped,
    it prints a `guard:` line and answers with the agent's own deny, so the call never runs."""
    stop = hook_timeout(agent) - WATCHDOG_MARGIN
    form, status = DENY_FORMS[agent]
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
    cfg = AGENTS[agent]
    if agent == "opencode":
        return f"yes, {cfg.fail_closed}"
    stop = hook_timeout(agent) - WATCHDOG_MARGIN
    how = (
        "yes: the hook command answers with the agent's deny when guard cannot start, "
        f"crashes, or is stopped after {stop} s"
    )
    return f"{how}; and {cfg.fail_closed}" if cfg.fail_closed else how


def handler(agent: str) -> dict[str, Any]:
    """guard's hook entry in the agent's own words."""
    command = hook_command(agent)
    if agent == "claude-code":
        return {"type": "command", "command": command, "timeout": TIMEOUT, "onFailure": "block"}
    if agent == "codex":
        return {"type": "command", "command": command, "timeout": TIMEOUT,
                "statusMessage": "guard: checking the command"}  # fmt: skip
    if agent == "gemini":
        return {"type": "command", "name": "guard", "command": command, "timeout": TIMEOUT * 1000,
                "description": "guard checks each shell command before it runs"}  # fmt: skip
    if agent == "cursor":
        return {"command": command, "timeout": TIMEOUT, "failClosed": True}
    if agent == "copilot":
        return {"type": "command", "bash": command, "timeoutSec": TIMEOUT}
    raise KeyError(agent)


def script(agent: str) -> str:
    """The whole file for agents whose hook is a file of its own (Cline, OpenCode)."""
    program = guard_program()
    if agent == "cline":
        return (
            "#!/bin/sh\n"
            "# guard: written by `guard setup cline`; `guard setup cline --uninstall` removes it.\n"
            '# guard answers {"cancel": …}; when it cannot start, crashes or is stopped, the\n'
            "# line below cancels the call itself.\n"
            f"{hook_command('cline')}\n"
        )
    if agent == "opencode":
        from guard.entry.agents.opencode_plugin import plugin_text

        return plugin_text(program, TIMEOUT)
    raise KeyError(agent)
