"""The edge that holds a guarded-bash line to what was consented: mode, ruleset, kernel.

guarded-bash calls `prepare` (through `check_line`) once a line is allowed, before the audit
row is written: it settles the mode, builds the ruleset from the judgement and this machine,
and hands it to the kernel as a Landlock ruleset fd. Right before `exec bash`, `apply_pending`
restricts the process, so bash and everything it starts are held. guard.landlock (and its
`_ctypes`) is imported only here, and only when the mode is not off.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from guard.enforce_policy import Mode, enforcement_mode
from guard.enforcement import (
    DEFAULT_CACHES,
    FALLBACK_PROTECTED,
    SHELL_STARTUP,
    Ruleset,
    approved_accesses,
    build_ruleset,
)
from guard.errors import GuardError
from guard.judgement import Judgement
from guard.policy import Policy


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
    from guard import landlock

    found = landlock.abi_version()
    return (found, "") if isinstance(found, int) else (None, found)


def protected_patterns(policy: Policy, env: Mapping[str, str]) -> tuple[str, ...]:
    """The policy's protected list when it has one, else the fallback; guard's own files."""
    given = getattr(policy, "protected", None) or ()
    patterns = [p if isinstance(p, str) else str(getattr(p, "pattern", "")) for p in given]
    from guard.dirs import user_state_dir

    own = (*guard_config(), env.get("GUARD_STATE_DIR") or user_state_dir())
    return tuple(p for p in (*(patterns or FALLBACK_PROTECTED), *own) if p)


def guard_config() -> tuple[str, str]:
    """guard's config dir and policy file: protected, yet readable (a nested guarded-bash
    reads its policy; a line can never write it)."""
    from guard.dirs import user_config_dir
    from guard.policy import user_policy_path

    return user_config_dir(), user_policy_path()


def guard_program() -> tuple[str, ...]:
    """Where guard and the Python it runs on live: readable, so a nested guarded-bash runs."""
    import sys

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return tuple(dict.fromkeys((sys.prefix, sys.base_prefix, here)))


def cache_dirs(policy: Policy, env: Mapping[str, str], home: str) -> tuple[str, ...]:
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    first = xdg if os.path.isabs(xdg) else os.path.join(home, ".cache")
    return (first, *DEFAULT_CACHES, *policy.enforce.write)


def ruleset_for(judgement: Judgement, env: Mapping[str, str]) -> Ruleset:
    """The ruleset `judgement`'s line runs under on this machine."""
    ctx, policy = judgement.context, judgement.policy
    reads, writes = approved_accesses(judgement.verdict.decided, ctx.workspace)
    tmp = env.get("TMPDIR", "").strip()
    return build_ruleset(
        roots=ctx.workspace,
        home=ctx.home,
        tmp=tmp if os.path.isabs(tmp) else "/tmp",
        caches=cache_dirs(policy, env, ctx.home),
        protected=protected_patterns(policy, env),
        reads=reads,
        writes=writes,
        extra_reads=(*guard_program(), *policy.enforce.read),
        children=_children,
        exists=os.path.exists,
        resolve=os.path.realpath,
        readable=(*SHELL_STARTUP, *guard_config()),
    )


def _children(path: str) -> Sequence[str] | None:
    try:
        return os.listdir(path)
    except OSError:
        return None


def plan(judgement: Judgement, env: Mapping[str, str], *, agent: bool) -> Plan:
    """Settle the mode and, when it is not off, build the ruleset and give it to the kernel.
    Raises GuardError when the mode is `require` and the line cannot be held."""
    mode = enforcement_mode(judgement.policy, env, agent=agent)
    if mode == "off":
        return Plan(mode, None, "", None)
    abi, why_not = probe()
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
    from guard import landlock

    handled = landlock.handled_rights(abi)
    try:
        fd = landlock.create_ruleset(handled)
    except OSError as exc:
        raise GuardError(
            f"guard: cannot create a Landlock ruleset ({exc.strerror}); nothing ran"
        ) from None
    for grant in ruleset.grants:
        rights = handled if grant.access == "write" else landlock.READ
        with contextlib.suppress(OSError):  # a path that cannot be opened stays out: less is
            landlock.add_rule(fd, grant.path, rights, handled)  # granted, never more
    return fd


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
    env = judgement.context.env
    found = plan(judgement, env, agent=is_agent(env))
    _pending.append(found)
    return detail(found)


def apply_pending() -> None:
    """Right before exec: put this process under the planned ruleset, if there is one."""
    while _pending:
        found = _pending.pop()
        if found.fd is None:
            continue
        from guard import landlock

        try:
            landlock.restrict_self(found.fd)
        except OSError as exc:
            raise GuardError(
                f"guard: the kernel refused to enforce this line ({exc.strerror}); nothing ran."
                ' Run guard doctor, or set [enforce] mode = "off" to run lines checked only'
            ) from None
