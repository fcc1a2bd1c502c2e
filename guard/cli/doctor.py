"""`guard doctor`: is this shell guarded, and is everything guard relies on in order?

It reports, each with what to do: whether the shell hook is loaded and intact in the shell that
ran it (the hook's `guard` function passes its state with --shell-state), whether the rc files
load it, the policy files in effect and their problems, the store's health, and the kernel's
`dev.tty.legacy_tiocsti` (keystroke injection into the approval prompt). Exit 1 on a problem.
"""

from __future__ import annotations

import argparse
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from guard.cli import summary
from guard.errors import GuardError

TIOCSTI = "/proc/sys/dev/tty/legacy_tiocsti"
FUNCTIONS = {
    "bash": "__guard_ps0 __guard_enter __guard_precmd __guard_stop __guard_relay __guard_send "
    "__guard_receive __guard_confirm __guard_fallback __guard_traps fc",
    "zsh": "__guard_preexec __guard_precmd __guard_send __guard_receive __guard_confirm "
    "__guard_check_line __guard_accept_line __guard_at_enter __guard_ask_at_enter fc r",
}


@dataclass(frozen=True, slots=True)
class Finding:
    level: str  # ok, warning, problem
    area: str
    message: str


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("doctor", help=summary("doctor"))
    p.add_argument("--shell-state", help=argparse.SUPPRESS)
    p.add_argument("--cwd", help="the directory whose workspace counts (default: here)")
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:
    state = read_state(args.shell_state) if args.shell_state else {}
    findings = [*hook_findings(state), *rc_findings(), *workspace_findings(args.cwd)]
    findings += policy_findings(args.cwd)
    findings.append(managed_finding())
    findings += [store_finding(), tiocsti_finding(TIOCSTI)]
    findings.append(enforce_finding(args.cwd))
    findings += agent_findings(args.cwd)
    findings.append(resident_finding())
    for f in findings:
        print(f"{f.level:<8} {f.area:<7} {f.message}")
    return 1 if any(f.level == "problem" for f in findings) else 0


def read_state(path: str) -> dict[str, str]:
    """The NAME, NUL, VALUE, NUL pairs the hook's __guard_state wrote."""
    try:
        with open(path, "rb") as handle:
            parts = handle.read().decode("utf-8", "surrogateescape").split("\0")
    except OSError as exc:
        raise GuardError(f"guard: cannot read the shell's state ({exc.strerror})") from exc
    return dict(zip(parts[0:-1:2], parts[1::2], strict=False))


def hook_findings(state: dict[str, str]) -> list[Finding]:
    shell = state.get("shell", "")
    if shell not in FUNCTIONS:
        return [
            Finding(
                "warning",
                "hook",
                "not loaded in the shell that ran this (or guard ran as `command guard`); "
                'add eval "$(guard init bash)" to ~/.bashrc, or eval "$(guard init zsh)" '
                "to ~/.zshrc, and start a new shell",
            )
        ]
    fix = f'run: eval "$(guard init {shell})", or start a new shell'
    out: list[Finding] = []
    if shell == "bash":
        if "$(__guard_ps0)" not in state.get("ps0", ""):
            out.append(Finding("problem", "hook", f"PS0 no longer runs guard's check; {fix}"))
        if "__guard_precmd" not in state.get("prompt_command", ""):
            out.append(Finding("problem", "hook", f"PROMPT_COMMAND lost __guard_precmd; {fix}"))
        if "-s promptvars" not in state.get("promptvars", ""):
            out.append(Finding("problem", "hook", "promptvars is off: shopt -s promptvars"))
        if "__guard_relay" not in state.get("usr2_trap", ""):
            out.append(Finding("problem", "hook", f"the USR2 trap is not guard's; {fix}"))
    else:
        first = state.get("preexec_functions", "").split(" ")[0]
        if first != "__guard_preexec":
            out.append(
                Finding("problem", "hook", f"__guard_preexec is not the first preexec; {fix}")
            )
        if "__guard_precmd" not in state.get("precmd_functions", "").split(" "):
            out.append(Finding("problem", "hook", f"precmd_functions lost __guard_precmd; {fix}"))
    changed = changed_functions(shell, state.get("functions", ""))
    if changed:
        out.append(Finding("problem", "hook", f"redefined since loading: {changed}; {fix}"))
    if state.get("checker_alive") != "yes":
        out.append(
            Finding("warning", "hook", "the checker is not running; the next prompt starts it")
        )
    if not out:
        pid, session = state.get("pid", "?"), state.get("session", "?")
        out.append(Finding("ok", "hook", f"{shell} hook loaded and intact (pid {pid}, {session})"))
    return out


def changed_functions(shell: str, seen: str) -> str:
    """Which of the hook's functions differ from the shipped hook's; "" when none."""
    from guard.entry import hook_text

    names = FUNCTIONS[shell]
    if shell == "bash":
        argv = [
            "bash",
            "--norc",
            "--noprofile",
            "-i",
            "-c",
            f"{hook_text(shell)}\ndeclare -f {names}",
        ]
    else:
        argv = ["zsh", "-f", "-i", "-c", f"{hook_text(shell)}\nfunctions {names}"]
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=20, check=False, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    shipped, current = _split_functions(done.stdout), _split_functions(seen)
    return ", ".join(sorted(n for n in shipped if current.get(n) != shipped[n]))


def _split_functions(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    name = ""
    for line in text.splitlines():
        if line.endswith(" () ") or line.endswith(" () {"):
            name = line.split(" ")[0]
            found[name] = ""
        if name:
            found[name] += line + "\n"
    return found


def rc_findings() -> list[Finding]:
    home = Path(os.path.expanduser("~"))
    zdot = Path(os.environ.get("ZDOTDIR") or home)
    out = []
    for shell, rc in (("bash", home / ".bashrc"), ("zsh", zdot / ".zshrc")):
        try:
            text = rc.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if f"guard init {shell}" in text:
            out.append(Finding("ok", "rc", f"{rc} loads the {shell} hook"))
        else:
            line = f'eval "$(guard init {shell})"'
            out.append(Finding("warning", "rc", f"{rc} does not load the hook; add: {line}"))
    return out


def workspace_findings(cwd: str | None) -> list[Finding]:
    """What the workspace rule gives for this directory; a warning when there is none."""
    from guard.verdict import choose_workspace, current_dir

    env = dict(os.environ)
    here = cwd or current_dir(env)
    home = env.get("HOME") or os.path.expanduser("~")
    chosen = choose_workspace(here, env, home)
    out = []
    if chosen.warning:
        out.append(Finding("warning", "space", chosen.warning))
    if not chosen.roots:
        out.append(
            Finding("warning", "space", f"a session started here has no workspace ({chosen.why})")
        )
    else:
        out.append(Finding("ok", "space", f"workspace {', '.join(chosen.roots)} ({chosen.why})"))
    return out


def policy_findings(cwd: str | None) -> list[Finding]:
    from guard.policy import PROJECT_FILE, load_policy
    from guard.verdict import build_context, is_trusted

    ctx = build_context(cwd)
    root = ctx.workspace[0] if ctx.workspace else None
    trusted, note = is_trusted(os.path.join(root, PROJECT_FILE)) if root else (True, "")
    policy = load_policy(root, home=ctx.home, trust_project=trusted)
    out = [Finding("ok", "policy", "files in effect: " + ", ".join(policy.files))]
    if note:
        out.append(Finding("warning", "policy", note))
    out += [Finding("problem", "policy", p) for p in policy.problems]
    if policy.problems:
        out.append(Finding("problem", "policy", "while there are problems, allowed lines ask"))
    return out


def managed_finding() -> Finding:
    """The managed layer's path and state: absent, in use, or refused (then lines ask)."""
    from guard.policy import managed_policy_path, read_managed_layer

    path = managed_policy_path()
    layer = read_managed_layer(os.path.expanduser("~"), path=path)
    if layer is None:
        return Finding("ok", "managed", f"no managed policy ({path} does not exist)")
    if layer.problems:
        more = f" (and {len(layer.problems) - 1} more problems)" if len(layer.problems) > 1 else ""
        return Finding("problem", "managed", f"{layer.problems[0]}{more}")
    fixed = ", ".join(key for key, _, _ in layer.settings) or "no settings"
    rules = f"{len(layer.rules)} rule{'s' if len(layer.rules) != 1 else ''}"
    return Finding(
        "ok", "managed", f"{path} in use: {rules} (deny and ask are final); fixes {fixed}"
    )


def store_finding() -> Finding:
    from guard.verdict import Store

    try:
        with Store.open() as store:
            problems = store.check()
            path = store.path
    except GuardError as exc:
        return Finding("problem", "store", f"{exc}; {_unaudited()}")
    if problems:
        damage = "; ".join(problems[:3])
        return Finding(
            "problem",
            "store",
            f"guard: the approvals store {path} is damaged ({damage}); move it aside (guard "
            f"makes a new store); {_unaudited()}",
        )
    return Finding("ok", "store", f"{path} is sound")


def _unaudited() -> str:
    """What a store guard cannot use means for the lines, here."""
    from guard.policy import load_policy
    from guard.verdict import required_by

    try:
        where = required_by(load_policy(None))
    except GuardError:
        where = ""
    if where:
        return f"meanwhile every allowed line is refused (the managed policy's [audit], {where})"
    return "meanwhile no line is in the audit log and no approval is used or kept"


def tiocsti_finding(path: str) -> Finding:
    try:
        with open(path, encoding="ascii") as handle:
            value = handle.read().strip()
    except OSError:
        return Finding(
            "warning",
            "tty",
            "this kernel has no dev.tty.legacy_tiocsti setting (before Linux 6.2): any process "
            "on your terminal may type into guard's question; agents need an approver elsewhere",
        )
    if value == "0":
        return Finding("ok", "tty", "dev.tty.legacy_tiocsti = 0: no keystroke injection")
    return Finding(
        "warning",
        "tty",
        f"dev.tty.legacy_tiocsti = {value}: any process on your terminal can type an answer "
        "into guard's question; as root: sysctl -w dev.tty.legacy_tiocsti=0",
    )


def enforce_finding(cwd: str | None) -> Finding:
    """Whether guarded-bash can hold lines with Landlock here, and whether it will."""
    from guard.kernel import probe, status
    from guard.policy import load_policy
    from guard.verdict import build_context

    ctx = build_context(cwd)
    root = ctx.workspace[0] if ctx.workspace else None
    level, message = status(load_policy(root, home=ctx.home), os.environ, probe())
    return Finding(level, "enforce", message)


def agent_findings(cwd: str | None) -> list[Finding]:
    """For each agent found here: is guard's hook installed (yours or the project's), does it
    fail closed there, and (Codex) has the hook been trusted."""
    from guard.cli.setup import project_dir
    from guard.entry import AGENTS
    from guard.entry import setup as agent_setup

    out = []
    here = cwd or os.getcwd()
    project = project_dir(here) if os.path.isdir(here) else None
    for agent in agent_setup.detected(project):
        places = [agent_setup.status(agent)]
        if project is not None:
            places.append(agent_setup.status(agent, project=project))
        found = list({s.path: s for s in places if s.installed}.values())
        if not found:
            line = f"{agent}: found, but guard's hook is not installed; run: guard setup {agent}"
            out.append(Finding("warning", "agents", line))
            continue
        for s in found:
            where = f"{agent}: guard's hook in {s.path}"
            if not s.fail_closed:
                why = f"does not fail closed: {s.note}" if s.note else "does not fail closed"
                out.append(Finding("warning", "agents", f"{where}; {why}"))
            elif s.note:
                why = f"fail-closed cannot be had here for a hang: {s.note}"
                out.append(Finding("warning", "agents", f"{where}; {why}"))
            else:
                out.append(Finding("ok", "agents", f"{where}; fails closed ({closed_by(agent)})"))
            trusted = AGENTS[agent].trusted
            if trusted is not None and not trusted(s.path):
                out.append(Finding("warning", "agents", AGENTS[agent].untrusted_note))
    return out



def closed_by(agent: str) -> str:
    """What stops a call when guard cannot answer, in doctor's words."""
    from guard.entry import AGENTS

    option = AGENTS[agent].fail_closed
    if AGENTS[agent].shape == "file":  # the agent runs guard's own file
        return option
    return f"the hook command denies; {option}" if option else "the hook command denies"


def resident_finding() -> Finding:
    """The per-user resident checker (`guard serve --user`): running, its pid, socket, uptime
    and lines served; or why every call checks in-process."""
    import time

    from guard.entry import protocol as wire
    from guard.entry import request

    path = wire.socket_path(os.environ)
    if not wire.enabled(os.environ):
        why = "GUARD_RESIDENT=0" if os.environ.get("GUARD_RESIDENT") else "no SO_PEERCRED here"
        return Finding("ok", "checker", f"off ({why}): every line is checked in-process")
    problem = wire.private_problem(os.path.dirname(path), directory=True)
    if problem and os.path.lexists(os.path.dirname(path)):
        return Finding("problem", "checker", f"not used: {problem}; remove the directory")
    answer = request([("kind", "status")])
    if answer is None or wire.first(answer, "action") != "done":
        return Finding("ok", "checker", f"not running; the next check starts it on {path}")
    try:
        up = time.time() - float(wire.first(answer, "started"))
    except ValueError:
        up = 0.0
    pid, served = wire.first(answer, "pid"), wire.first(answer, "served")
    return Finding(
        "ok", "checker", f"running, pid {pid}, socket {path}, up {up:.0f} s, {served} lines served"
    )
