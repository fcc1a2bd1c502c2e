"""One command line judged: context, policy, projection, approvals, verdict.

The edge that every front end (`guard explain`, `guard check`, `guarded-bash`, the shell hooks,
agent adapters) calls. It reads the policy files and the approvals store; a store that cannot
be read leaves the verdict to the policy alone, with a warning, never with an approval that
was not given.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from guard.decide import decide
from guard.errors import GuardError
from guard.policy import PROJECT_FILE, Policy, load_policy
from guard.project import project
from guard.requests import Projection, Request, Verdict
from guard.scope import Context
from guard.trust import is_trusted
from guard.workspace import build_context

if TYPE_CHECKING:
    from guard.line_cache import LineCache

IDLE_SECONDS = 12 * 3600


class Judgement(NamedTuple):
    context: Context
    policy: Policy
    projection: Projection
    verdict: Verdict
    warnings: tuple[str, ...]  # printed with every verdict (the store could not be read …)
    notes: tuple[str, ...] = ()  # shown by explain and doctor (an untrusted project file …)
    project_trusted: bool = True  # the project's .guard.toml is absent or trusted as it is


def judge(
    command: str,
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    session: str | None = None,
    positional: tuple[str, ...] | None = None,
    arg0: str | None = None,
    use_store: bool = True,
    policy_loader: Callable[..., Policy] | None = None,
    stdin_code: bool = False,
    cache: LineCache | None = None,
) -> Judgement:
    """`policy_loader`, when given, replaces `load_policy` (same arguments): a caller that keeps
    policies in memory returns its copy from there. `cache` (guard/line_cache.py) is what a
    long-lived process keeps between lines: policies, trust, the store and its approvals."""
    env = dict(os.environ if env is None else env)
    context = cache.context if cache else build_context
    ctx = context(cwd, env, positional=positional, arg0=arg0)._replace(stdin_code=stdin_code)
    no_store = without_store(env)
    use_store = use_store and not no_store
    if no_store:  # a sandbox: nothing local is trusted; the approver outside holds the store
        trusted, note = False, ""
    else:
        project_file = os.path.join(ctx.workspace[0], PROJECT_FILE)
        trusted, note = cache.trusted(project_file) if cache else is_trusted(project_file)
    load = policy_loader or (cache.policy if cache else load_policy)
    policy = load(ctx.workspace[0], home=ctx.home, trust_project=trusted)
    if policy.roots:
        ctx = context(
            ctx.cwd,
            env,
            workspace=ctx.workspace,
            extra_roots=policy.roots,
            positional=positional,
            arg0=arg0,
        )._replace(stdin_code=stdin_code)
    projection = project(command, ctx)
    warnings: list[str] = []
    verdict = decide(policy, projection, (), home=ctx.home)
    if use_store and session and any(d.decision == "ask" for d in verdict.decided):
        try:  # approvals only ever turn an ask into an allow: read them only when one asks
            approvals = (
                cache.approvals(session, env, time.time(), ctx.home)
                if cache
                else _approvals(session, env, _asking(verdict), ctx.home)
            )
        except GuardError as exc:
            warnings.append(f"{exc} (approvals are not used for this line)")
        else:
            verdict = decide(policy, projection, approvals, home=ctx.home)  # type: ignore[arg-type]
    return Judgement(
        ctx, policy, projection, verdict, tuple(warnings), (note,) if note else (), trusted
    )


def _asking(verdict: Verdict) -> list[Request]:
    return [d.request for d in verdict.decided if d.decision == "ask"]


def _approvals(
    session: str, env: Mapping[str, str], asking: list[Request], home: str
) -> tuple[object, ...]:
    """The approvals that may cover what asks (a fresh process reads only those)."""
    from guard.store import Store

    idle = idle_seconds(env)
    with Store.open() as store:
        return tuple(store.approvals(session, time.time(), idle, matching=asking, home=home))


def without_store(env: Mapping[str, str]) -> bool:
    """`GUARD_NO_STORE=1`: this guard runs where it must not keep approvals (an agent's
    sandbox). Approvals and the audit log live with the approver (`guard watch`) outside."""
    return env.get("GUARD_NO_STORE", "") == "1"


def idle_seconds(env: Mapping[str, str]) -> float:
    raw = env.get("GUARD_SESSION_IDLE", "")
    try:
        return float(raw) if raw else IDLE_SECONDS
    except ValueError:
        return IDLE_SECONDS
