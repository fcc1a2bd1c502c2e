"""The projection's records: what a command line would do, as data.

A projection is a tuple of requests in source order. Each request names a surface, what it
touches, the byte span of the text it came from and why it exists.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

Surface = Literal["command", "external_directory", "dynamic", "syntax", "protected", "effect"]
Access = Literal["read", "write", "execute", "chdir"]
Decision = Literal["allow", "ask", "deny"]

SURFACES: tuple[Surface, ...] = (
    "command",
    "external_directory",
    "dynamic",
    "syntax",
    "protected",
    "effect",
)
ACCESSES: tuple[Access, ...] = ("read", "write", "execute", "chdir")
DECISIONS: tuple[Decision, ...] = ("allow", "ask", "deny")

# Where an unknown value stands decides whether it matters. These roles make a `dynamic`
# request ask under the default policy; `data` (an argument nobody treats as a path) does not.
DynamicRole = Literal["command_name", "path", "redirect", "code", "chdir", "data"]


# Records here are named tuples, not frozen dataclasses: every `guard check` process builds these
# classes at start-up, and a frozen dataclass costs about six times as long to create (measured:
# 0.52 ms against 0.085 ms), which a shell pays on every line.


class Request(NamedTuple):
    """One thing the command line would do that a policy can judge."""

    surface: Surface
    span: tuple[int, int]
    reason: str
    argv: tuple[str, ...] = ()  # command: argv after quote removal (wrappers are requests too)
    path: str = ""  # external_directory and protected: absolute, normalised
    access: Access | None = None  # external_directory and protected
    text: str = ""  # dynamic and syntax: the source text that cannot be known or parsed
    role: DynamicRole | None = None  # dynamic: where the unknown value stands
    via: str = ""  # who makes the access: a command name, "redirect", "cd" …
    kind: str = ""  # effect: destroy, discard, publish, remote, privilege, system, disclose
    target: str = ""  # effect: what it reaches (git-worktree, npm …); rules match kind:target


class Projection(NamedTuple):
    """What one command line would do, in source order."""

    command: str
    cwd: str
    workspace: tuple[str, ...]
    requests: tuple[Request, ...]


class Decided(NamedTuple):
    """A request with the decision the policy (or an approval, or a human) gave it."""

    request: Request
    decision: Decision
    by: str  # "rule <file>:<line>", "default", "approval #<id>", "human", …


class Verdict(NamedTuple):
    """The decision for a whole line: the strictest of its requests, with reasons."""

    decision: Decision
    reasons: tuple[str, ...]
    decided: tuple[Decided, ...]


STRICTNESS: dict[Decision, int] = {"allow": 0, "ask": 1, "deny": 2}


def strictest(decisions: list[Decision] | tuple[Decision, ...]) -> Decision:
    """The strictest decision of several; allow when there are none."""
    best: Decision = "allow"
    for d in decisions:
        if STRICTNESS[d] > STRICTNESS[best]:
            best = d
    return best
