"""What an effect row says: `Effect` (one effect and the words, options or check that give it)
and `Tool` (a command's options that take a value, and its rows). The rows are in the families
of this package, one command's in its `Command` record (guard/knowledge/commands/command.py).

Kinds:
- destroy   data gone without a copy (recursive deletes, cloud deletes, SQL drops, dd, mkfs)
- discard   uncommitted or unreferenced work lost (git checkout -- ., reset --hard, push -f)
- publish   something leaves the machine for others (npm publish, docker push, git push)
- remote    code that runs on another machine (ssh HOST CMD, kubectl exec, docker exec)
- privilege runs as another user or hands out powers (sudo, setcap, setuid chmod)
- system    machine-wide state (reboot, systemctl, kill)
- disclose  secrets kept elsewhere printed where the line's reader sees them (kubectl get
            secret -o yaml, vault kv get, aws secretsmanager get-secret-value)

The first row that matches for a kind and target wins, so put the strongest reason first. The
reader is guard/projection/effects.py; an effect that depends on more than words and options
names a check of guard/projection/effect_checks.py.
"""

from __future__ import annotations

from typing import NamedTuple


class Effect(NamedTuple):
    """One effect a tool has when its argv matches.

    `sub`: leading operands, one word pattern each (`drop|clear`, `delete-*`, `*` any word).
    `word`: a word pattern that must be one of the operands (after `sub`), anywhere.
    `flags`: alternatives; one must be given. `a+b` means both `a` and `b`.
    `without`: none of these options may be given.
    `check`: a named test in guard/projection/effect_checks.py for what words and options cannot
    say.
    """

    kind: str
    target: str
    reason: str
    sub: tuple[str, ...] = ()
    word: str = ""
    flags: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    check: str = ""


class Tool(NamedTuple):
    values: frozenset[str] = frozenset()  # options that take the next word as their value
    effects: tuple[Effect, ...] = ()
    ends_at_operand: bool = False  # options stop at the first operand (sudo CMD -x, ssh HOST)
    abbreviations: bool = False  # long options may be abbreviated (git: --ha is --hard)
    single_dash_long: bool = False  # -auto-approve is one option, not a cluster (terraform)
    global_first: bool = False  # options before the subcommand are the tool's own (git -C)


E = Effect


def spec_values(*specs: object) -> frozenset[str]:
    """The options command specs say take a value (to read an argv for effects as for paths)."""
    out: set[str] = set()
    for spec in specs:
        out |= set(getattr(spec, "values", ())) | set(getattr(spec, "options", {}))
    return frozenset(out)
