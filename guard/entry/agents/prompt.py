"""Whether a human can answer the agent's own prompt for a hook's ask, seen from the hook.

Gemini CLI and Copilot CLI show a prompt for a hook's ask only when they run interactively;
headless (`gemini -p`, a query given, stdin or stdout not a terminal, `CI=true`; `copilot -p`)
Gemini CLI waits for that confirmation forever (its 0.61 scheduler turns a hook's ask into
`ask_user` even where its own policy would deny), so there guard must hold the call for `guard
watch` or deny it instead. The hook cannot ask the agent, so it looks at the agent's process
(Linux `/proc`): the nearest ancestor running the agent's program, its arguments, its standard
input and output, and its environment. Anything this cannot tell for sure — no `/proc`, an
argument it does not know, no such ancestor — is "no": the call is held, never left waiting.
Claude Code is not asked: headless (`claude -p`), it turns the ask into a refusal that shows
guard's reason, and that never hangs.
"""

from __future__ import annotations

import os

PROGRAMS = {  # basenames and package paths of each agent's program, as its argv shows it
    "gemini": (("gemini", "gemini.js"), "/@google/gemini-cli/"),
    "copilot": (("copilot", "copilot.js", "npm-loader.js"), "/@github/copilot/"),
}
# Options that take the next word as their value (Gemini CLI 0.61 `gemini --help`; Copilot
# CLI's reference). A word after any other option may be a query: that is headless.
VALUED = {
    "gemini": frozenset({
        "-m", "--model", "--approval-mode", "--policy", "--admin-policy",
        "--allowed-mcp-server-names", "--allowed-tools", "-e", "--extensions", "--session-file",
        "--session-id", "--include-directories", "-o", "--output-format",
    }),
    "copilot": frozenset({
        "--model", "--agent", "--log-level", "--log-dir", "--add-dir", "--allow-tool",
        "--deny-tool", "--config-dir",
    }),
}  # fmt: skip
HEADLESS = frozenset({"-p", "--prompt", "--acp", "--experimental-acp"})
INTERACTIVE = {"gemini": ("-i", "--prompt-interactive"), "copilot": ("-i", "--interactive")}
DEPTH = 8  # ancestors looked at: the hook's shell, the agent (Gemini relaunches itself once) …


def prompt_reachable(agent: str) -> bool:
    """Whether the agent shows its own prompt for a hook's ask to a human, so that guard may
    hand ask to it; False wherever that cannot be known."""
    if agent == "claude-code":
        return True
    if agent not in PROGRAMS:
        return False
    found = agent_process(agent)
    if found is None:
        return False
    pid, args = found
    environ = _environ(pid)
    if environ is None or _ci(agent, environ):
        return False
    return _terminal(pid, 0) and _terminal(pid, 1) and interactive_args(agent, args)


def agent_process(agent: str) -> tuple[int, list[str]] | None:
    """The nearest ancestor running `agent`'s program, and the arguments after the program."""
    names, package = PROGRAMS[agent]
    pid = os.getppid()
    for _ in range(DEPTH):
        if pid <= 1:
            return None
        argv = _cmdline(pid)
        if argv is None:
            return None
        for at, word in enumerate(argv[:4]):
            if os.path.basename(word) in names or package in word:
                return pid, argv[at + 1 :]
        pid = _parent(pid)
    return None


def interactive_args(agent: str, args: list[str]) -> bool:
    """Whether these arguments start the agent's interactive session (its TUI)."""
    valued, interactive = VALUED[agent], INTERACTIVE[agent]
    words = iter(args)
    for word in words:
        name = word.split("=", 1)[0]
        if word == "--" or not word.startswith("-") or word == "-":
            return False  # a query: headless
        if name in HEADLESS:
            return False
        if name in interactive:  # -i PROMPT: the session's first prompt, then the TUI
            if "=" not in word:
                next(words, None)
        elif word.startswith("--"):
            if name in valued and "=" not in word:
                next(words, None)
        else:  # -abc: short options together; the last may take the next word
            letters = word[1:]
            if "p" in letters:
                return False
            if f"-{letters[-1]}" in valued or letters[-1] == "i":
                next(words, None)
    return True


def _ci(agent: str, environ: dict[str, str]) -> bool:
    if agent != "gemini" or environ.get("GEMINI_CLI_INTEGRATION_TEST") == "true":
        return False
    return environ.get("CI") == "true" or environ.get("GITHUB_ACTIONS") == "true"


def _cmdline(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    return [os.fsdecode(w) for w in raw.split(b"\0")[:-1]] if raw else None


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        return int(stat[stat.rindex(b")") + 2 :].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def _environ(pid: int) -> dict[str, str] | None:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            raw = f.read()
    except OSError:
        return None
    pairs = (os.fsdecode(p).partition("=") for p in raw.split(b"\0") if p)
    return {k: v for k, _eq, v in pairs}


def _terminal(pid: int, fd: int) -> bool:
    """Whether the process's descriptor `fd` is a terminal (a pty or a console)."""
    try:
        target = os.readlink(f"/proc/{pid}/fd/{fd}")
    except OSError:
        return False
    return target.startswith(("/dev/pts/", "/dev/tty", "/dev/console"))
