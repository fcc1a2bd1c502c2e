"""The edge that holds a guarded-bash line to what was consented: mode, ruleset, kernel.

guarded-bash calls `prepare` (through `check_line`) once a line is allowed, before the audit
row is written: it settles the mode, builds the ruleset from the judgement and this machine,
and hands it to the kernel as a Landlock ruleset fd. Right before `exec bash`, `apply_pending`
restricts the process, so bash and everything it starts are held. guard.kernel.landlock (and its
`_ctypes`) is imported only here, and only when the mode is not off.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from guard.errors import GuardError
from guard.kernel.ruleset import (
    DEFAULT_CACHES,
    FALLBACK_PROTECTED,
    SHELL_STARTUP,
    Ruleset,
    approved_accesses,
    build_ruleset,
    tool_state_dirs,
)
from guard.kernel.ruleset_looks import listing, resolve_link, seen, settled, there
from guard.policy import DEFAULT_SOURCE, Mode, Policy, enforcement_mode
from guard.verdict import Judgement


class Plan(NamedTuple):
    mode: Mode
    abi: int | None  # None: no Landlock here
    why_not: str  # why there is no Landlock ("" when there is)
    ruleset: Ruleset | None
    fd: int | None = None  # the kernel's ruleset, ready for restrict_self


_pending: list[Plan] = []  # the plan of the line this process is about to exec


def is_agent(env: Mapping[str, str]) -> bool:
    """An agent's session: `GUARD_AGENT=1`, or a process without a controlling terminal."""
    if env.get("GUARD_AGENT", "") == "1":
        return True
    try:
        os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC))
    except OSError:
        return True
    return False


def probe() -> tuple[int | None, str]:
    """This kernel's Landlock ABI, or None and why not."""
    try:
        from guard.kernel import landlock
    except (ImportError, AttributeError, OSError) as exc:  # a Python without _ctypes …
        return None, f"this Python cannot make the system calls ({exc})"
    found = landlock.abi_version()
    return (found, "") if isinstance(found, int) else (None, found)


def protected_patterns(policy: Policy, env: Mapping[str, str]) -> tuple[str, ...]:
    """The policy's protected list when it has one, else the fallback; guard's own files."""
    kept = _PATTERNS.get(id(policy))
    if kept is None or kept[0] is not policy:  # a policy is never changed: one that was
        kept = (policy, _policy_patterns(policy))  # read again is another object
        if len(_PATTERNS) > 16:
            _PATTERNS.clear()
        _PATTERNS[id(policy)] = kept
    from guard.dirs import user_state_dir

    own = (*guard_config(), env.get("GUARD_STATE_DIR") or user_state_dir())
    return tuple(p for p in (*kept[1], *own) if p)


_PATTERNS: dict[int, tuple[Policy, tuple[str, ...]]] = {}


def _policy_patterns(policy: Policy) -> tuple[str, ...]:
    given = getattr(policy, "protected", None) or ()
    # entries for writes only (/usr, /etc, .git/hooks) stay readable: the ruleset grants no
    # write there anyway unless the line's approval names it
    patterns = [
        p if isinstance(p, str) else str(getattr(p, "pattern", ""))
        for p in given
        if isinstance(p, str)
        or (
            ("write" not in getattr(p, "access", ()) or "read" in p.access)
            and not getattr(p, "agent_only", False)  # secrets: the static check asks for those
        )
    ]
    # /proc/PID/… entries cannot be withheld by an allow-list without withholding the line's
    # own /proc/self (new pids are not known yet): the static check asks about those. The
    # shipped list's system files (/etc/shadow, /dev/sd*, unit dirs) are held by the system's
    # own permissions and by the static check: withholding them here would split /etc, /usr
    # and /dev into hundreds of rules (about 15 ms a line). Home and what users add stay.
    shipped = {
        str(getattr(p, "pattern", ""))
        for p in given
        if str(getattr(p, "source", "")).startswith(DEFAULT_SOURCE)
    }
    patterns = [
        p
        for p in patterns
        if not p.startswith("/proc/") and not (p.startswith("/") and p in shipped)
    ]
    return tuple(patterns or FALLBACK_PROTECTED)


def guard_config() -> tuple[str, str]:
    """guard's config dir and policy file: protected, yet readable (a nested guarded-bash
    reads its policy; a line can never write it)."""
    from guard.dirs import user_config_dir
    from guard.policy import user_policy_path

    return user_config_dir(), user_policy_path()


def guard_install_dirs(env: Mapping[str, str]) -> tuple[str, ...]:
    """Where guard, the Python it runs on, its policy and the real bash live (directories, not
    the program guard.dirs.guard_program names): readable, so the line's bash starts and a
    nested guarded-bash runs (reading its policy, wherever it is)."""
    import sys

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    here = os.path.dirname(package)  # the package's parent: an editable install's tree too
    shell = env.get("GUARD_REAL_SHELL", "")
    shells = (shell, os.path.realpath(shell)) if os.path.isabs(shell) else ()
    return tuple(dict.fromkeys((sys.prefix, sys.base_prefix, here, *guard_config(), *shells)))


def cache_dirs(env: Mapping[str, str], home: str) -> tuple[str, ...]:
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    return (xdg if os.path.isabs(xdg) else os.path.join(home, ".cache"), *DEFAULT_CACHES)


def ruleset_for(judgement: Judgement, env: Mapping[str, str]) -> Ruleset:
    """The ruleset `judgement`'s line runs under on this machine. A long-lived process (the
    resident checker) keeps the last rulesets and builds one again only when its inputs differ
    or a directory it listed, or a path whose existence it asked, has changed since."""
    ctx, policy = judgement.context, judgement.policy
    reads, writes = approved_accesses(judgement.verdict.decided, ctx.workspace)
    tmp = env.get("TMPDIR", "").strip()
    inputs = {
        "roots": ctx.workspace,
        "home": ctx.home,
        "tmp": tmp if os.path.isabs(tmp) else "/tmp",
        "caches": cache_dirs(env, ctx.home),
        "protected": protected_patterns(policy, env),
        "reads": reads,
        "writes": writes,
        "extra_reads": policy.enforce.read,
        "extra_writes": policy.enforce.write,
        "tool_state": tool_state_dirs(env, ctx.home),
        "program": guard_install_dirs(env),
        "readable": (*SHELL_STARTUP, *guard_config()),
    }
    key = tuple((name, _frozen(value)) for name, value in inputs.items())
    kept = _RULESETS.get(key)
    if kept is not None and all(seen(what, path) == was for what, path, was in kept[0]):
        return kept[1]
    looked: list[tuple[str, str, object]] = []
    plain: set[str] = set()  # entries this build's listings showed are no symlinks

    def children(path: str) -> Sequence[str] | None:
        looked.append(("listed", path, settled(seen("listed", path))))
        return listing(path, plain)

    def exists(path: str) -> bool:
        found = there(path)
        looked.append(("exists", path, found))
        return found

    def resolve(path: str) -> str:
        if path in plain:  # a listing just showed it, and its stamp is kept: no link
            return path
        found = resolve_link(path)
        looked.append(("resolved", path, found))  # a link swapped there changes the grants
        return found

    ruleset = build_ruleset(
        **inputs,  # type: ignore[arg-type]
        children=children,
        exists=exists,
        resolve=resolve,
    )
    if len(_RULESETS) > 32:
        _RULESETS.clear()
    _RULESETS[key] = (_needed(looked), ruleset)
    return ruleset


def _needed(looked: list[tuple[str, str, object]]) -> tuple[tuple[str, str, object], ...]:
    """What a kept ruleset asks again: not whether an entry of a directory it listed is a
    link, when it was none (most protected paths in home): the listing's stamp changes when an
    entry is made, removed or replaced, and a stamp too young to say so is never equal."""
    listed = {path for what, path, _ in looked if what == "listed"}
    return tuple(
        look
        for look in looked
        if not (look[0] == "resolved" and look[2] == look[1] and os.path.dirname(look[1]) in listed)
    )


_RULESETS: dict[tuple[object, ...], tuple[tuple[tuple[str, str, object], ...], Ruleset]] = {}


def _frozen(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


def plan(
    judgement: Judgement,
    env: Mapping[str, str],
    *,
    agent: bool,
    found: tuple[int | None, str] | None = None,
) -> Plan:
    """Settle the mode and, when it is not off, build the ruleset and give it to the kernel.
    `found` is what `probe()` says (asked when not given). Raises GuardError when the mode is
    `require` and the line cannot be held."""
    mode = enforcement_mode(judgement.policy, env, agent=agent)
    if mode == "off":
        return Plan(mode, None, "", None)
    abi, why_not = found if found is not None else probe()
    if abi is None:
        if mode == "require":
            raise GuardError(
                f"guard: enforcement is required, but {why_not}; nothing ran. Run it where the"
                ' kernel offers Landlock, or set [enforce] mode = "landlock" (see guard doctor)'
            )
        return Plan(mode, None, why_not, None)
    ruleset = ruleset_for(judgement, env)
    return Plan(mode, abi, "", ruleset, _kernel_ruleset(ruleset, abi))


def _kernel_ruleset(ruleset: Ruleset, abi: int) -> int:
    from guard.kernel import landlock

    try:
        return landlock.ruleset_of(((g.access, g.path) for g in ruleset.grants), abi)
    except OSError as exc:
        raise GuardError(
            f"guard: cannot create a Landlock ruleset ({exc.strerror}); nothing ran"
        ) from None


def detail(plan: Plan) -> dict[str, object]:
    """What the audit row says about enforcement."""
    if plan.mode == "off":
        return {"enforce": "off"}
    if plan.abi is None:
        return {"enforce": f"unavailable: {plan.why_not}"}
    grants = len(plan.ruleset.grants) if plan.ruleset else 0
    return {"enforce": f"landlock abi {plan.abi}", "enforce_grants": grants}


def prepare(judgement: Judgement) -> dict[str, object]:
    """For check_line: plan the allowed line's enforcement; the audit detail it adds."""
    import gc

    # This process execs bash next. The imports so far leave the collector on the edge of a
    # full collection, which the ruleset's allocations would set off: 1 to 10 ms spent on
    # objects that vanish at exec anyway.
    gc.disable()
    env = judgement.context.env
    found = plan(judgement, env, agent=is_agent(env))
    _pending.append(found)
    return detail(found)


def pending_ruleset() -> Ruleset | None:
    """The ruleset of the line this process is about to exec under, if it has one."""
    return _pending[-1].ruleset if _pending and _pending[-1].fd is not None else None


def apply_pending() -> None:
    """Right before exec: put this process under the planned ruleset, if there is one."""
    while _pending:
        found = _pending.pop()
        if found.fd is not None:
            hold(found.fd)


def hold(fd: int) -> None:
    """Restrict this process to a ruleset; a GuardError when the kernel refuses. Under 16
    rulesets already (lines nested in enforced lines) it stays held by those."""
    from guard.kernel import landlock

    try:
        landlock.hold(fd)
    except OSError as exc:
        raise GuardError(landlock.REFUSED.format(why=exc.strerror)) from None


def status(
    policy: Policy, env: Mapping[str, str], found: tuple[int | None, str]
) -> tuple[str, str]:
    """(level, message) for `guard doctor`: can lines be enforced here, and will they be."""
    agents = enforcement_mode(policy, env, agent=True)
    people = enforcement_mode(policy, env, agent=False)
    modes = f"mode for agents: {agents}, at a terminal: {people}"
    abi, why_not = found
    if abi is not None:
        return "ok", f"Landlock ABI {abi}: guarded-bash holds each line to its ruleset ({modes})"
    if "require" in (agents, people):
        return "problem", (
            f"enforcement is required but unavailable: {why_not}; guarded-bash refuses every"
            ' line. Run it on a kernel with Landlock, or set [enforce] mode = "landlock"'
        )
    return "warning", (
        f"enforcement unavailable: {why_not}; lines are checked before they run but not held"
        f" by the kernel ({modes})"
    )


def describe(judgement: Judgement, env: Mapping[str, str]) -> str:
    """`guard explain --enforce`: the mode here and the ruleset the line would run under."""
    from guard.kernel.ruleset import render_ruleset

    policy = judgement.policy
    abi, why_not = probe()
    here = enforcement_mode(policy, env, agent=is_agent(env))
    agents = enforcement_mode(policy, env, agent=True)
    kernel = f"Landlock ABI {abi}" if abi is not None else f"unavailable ({why_not})"
    source = f" [{policy.enforce.mode_source}]" if policy.enforce.mode_source else ""
    lines = [f"enforcement: {kernel}; mode here: {here}, for agents: {agents}{source}"]
    lines.append("when enforced, the line runs under:")
    lines += render_ruleset(ruleset_for(judgement, env), judgement.context.home)
    lines.append("an access outside these fails with Permission denied: see docs/enforcement.md")
    return "\n".join(lines) + "\n"


def describe_json(judgement: Judgement, env: Mapping[str, str]) -> dict[str, object]:
    abi, why_not = probe()
    ruleset = ruleset_for(judgement, env)
    return {
        "mode": enforcement_mode(judgement.policy, env, agent=is_agent(env)),
        "abi": abi,
        "unavailable": why_not,
        "grants": [g._asdict() for g in ruleset.grants],
        "withheld": list(ruleset.withheld),
        "static_only": list(ruleset.static_only),
        "missing": list(ruleset.missing),
    }
