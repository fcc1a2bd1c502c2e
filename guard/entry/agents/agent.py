"""One agent, as guard knows it: one frozen record per agent (guard/entry/agents/<agent>.py),
registered in guard/entry/agents/registry.py; every table and branch about agents is read
from these records.

A record says where the agent keeps its hook configuration and in what shape, how its hook's
request is read (`parse`) and answered (`answer`, `no_opinion`), whether it shows its own
prompt for an ask (`in_band_ask`, and how to tell from the hook that a human sees it:
`process`), its own fail-closed option, how it reads a hook that says no when guard itself
could not answer (`deny_form`), and its timeouts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from guard.entry.agents.calls import AgentAnswer, Parse

TIMEOUT = 150  # seconds: the approver's 120 s, the hook's margin and guard's own start
WATCH = "start `guard watch` in a terminal of your own: it answers what guard asks about"

Shape = str  # "grouped": hooks.EVENT[{matcher, hooks:[…]}]; "flat": hooks.EVENT[{…}]; "file"


@dataclass(frozen=True, slots=True)
class Process:
    """How the hook tells, from the agent's process (Linux /proc), that a human sees the
    agent's own prompt: its program as argv shows it, the options that take a value, the
    options that keep it interactive."""

    names: tuple[str, ...]  # basenames of the program
    package: str  # a path inside the program's package, as a script's argv shows it
    valued: frozenset[str]  # options that take the next word as their value
    interactive: tuple[str, ...]  # options whose value is a query that stays interactive
    headless_in_ci: bool = False  # CI=true or GITHUB_ACTIONS=true makes it headless
    not_ci: tuple[str, str] = ("", "")  # a variable and value that mean "not CI" all the same


@dataclass(frozen=True, slots=True)
class Agent:
    agent: str  # the name: `guard hook AGENT`, `guard setup AGENT`, the origin in the audit
    # how a request is read and answered
    parse: Parse  # the hook's JSON to a AgentCall; None: a call guard has no opinion on
    answer: Callable[[AgentAnswer], str]  # the stdout text (JSON, or "" for no opinion)
    no_opinion: str  # what to print for a call guard does not judge
    in_band_ask: bool  # the agent shows its own prompt for a hook's ask (else: held)
    default_timeout: float  # the agent's own hook timeout, when setup did not say
    # where its configuration lives, and its shape
    user_path: tuple[str, str]  # (environment variable naming the base dir or "", path below ~)
    user_below: str  # the file below that base directory
    project_path: str  # the file below a project directory
    shape: Shape
    event: str
    matcher: str  # grouped shape only
    entry: Callable[[str], dict[str, Any]] | None  # guard's entry around the hook command
    file_text: Callable[[str, str], str] | None  # the whole file (hook command, guard program)
    steps: tuple[str, ...]  # what the user still does in the agent
    binaries: tuple[str, ...]  # names on PATH that show the agent is installed
    # failing closed
    fail_closed: str  # how it fails closed, or "" when the agent has no such option
    fail_closed_option: tuple[str, object] | None  # the entry's key and value that turn it on
    deny_form: tuple[str, int] | None  # JSON printed (REASON replaced) and exit status of a
    # deny the hook command gives when guard cannot answer; None: no hook command (a plugin)
    hook_timeout: int = TIMEOUT  # the timeout setup writes, in seconds
    executable: bool = False  # the file is a script the agent runs
    config_dir: str = ""  # below the base directory: the directory that shows it is installed
    # whether a human sees its prompt: always, or as `process` shows
    prompt_always: bool = False
    process: Process | None = None
    project_note: str = ""  # said after `guard setup AGENT --project`
    cwd_optional: bool = False  # a request may leave out its cwd: the hook's own is meant
    # whether guard's hook in this file is trusted by the agent, and what to do when not
    trusted: Callable[[Path], bool] | None = None
    untrusted_note: str = ""
