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
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from guard.errors import GuardError
from guard.policy import PROJECT_FILE, Policy, load_policy, setting
from guard.projection import (
    Context,
    Projection,
    ProtectedPath,
    ProtectedPaths,
    Request,
    Verdict,
    project,
)
from guard.verdict.cache.judging_inputs import Surroundings
from guard.verdict.decision import decide
from guard.verdict.project_trust import is_trusted
from guard.verdict.store.session import idle_seconds
from guard.verdict.web_port import listening_port, reaching
from guard.verdict.workspace import (
    Workspace,
    build_context,
    choose_workspace,
    current_dir,
    is_agent,
)

if TYPE_CHECKING:
    from guard.verdict.cache.line_cache import LineCache
    from guard.verdict.offers import Offer


class Judgement(NamedTuple):
    context: Context
    policy: Policy
    projection: Projection
    verdict: Verdict
    warnings: tuple[str, ...]  # printed with every verdict (the store could not be read …)
    notes: tuple[str, ...] = ()  # shown by explain and doctor (an untrusted project file …)
    project_trusted: bool = True  # the project's .guard.toml is absent or trusted as it is
    workspace_why: str = ""  # how the workspace was chosen, or why there is none
    offers: tuple[Offer, ...] = ()  # what an ask offers a human (offers.py); () unless ask

    def with_verdict(self, verdict: Verdict) -> Judgement:
        """This judgement with `verdict` (an entry point's adjustment), offering anew."""
        offers = asked_offers(self.context.home, self.policy, verdict, self.project_trusted)
        return self._replace(verdict=verdict, offers=offers)


def asked_offers(
    home: str, policy: Policy, verdict: Verdict, project_trusted: bool
) -> tuple[Offer, ...]:
    """What the line's ask offers (guard/verdict/offers.py); nothing for an allow or a deny.
    Built from the verdict for each judged line, never kept: the cache (guard/verdict/cache/)
    keeps verdicts, not offers, so whether a path is a directory is asked now, and home is the
    context's, which the cache re-checks before it keeps a line's surroundings."""
    if verdict.decision != "ask":
        return ()
    from guard.verdict.offers import offers_for

    asked = [d for d in verdict.decided if d.decision == "ask"]
    return offers_for(
        [d.request for d in asked],
        home=home,
        is_dir=os.path.isdir,
        # an approval never turns the managed policy's ask into allow, and while a policy
        # file has a problem no approval counts: only "allow once" helps
        rememberable=not any(d.by.startswith("managed") for d in asked) and not policy.problems,
        always=setting(policy.settings, "approvals.always") is not False,  # managed may say no
        project=project_trusted,  # an untrusted project file gets nothing added
    )


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
    agent: bool | None = None,
    workspace_dir: str | None = None,
    cache: LineCache | None = None,
) -> Judgement:
    """`policy_loader`, when given, replaces `load_policy` (same arguments): a caller that keeps
    policies in memory returns its copy from there. `cache` (line_cache.py) is what a
    long-lived process keeps between lines: policies, trust, the store and its approvals,
    where paths lead, projections and verdicts, each used only while what it saw is unchanged.

    `agent` says whose session it is (None: `GUARD_AGENT`, else an agent when there is no
    terminal). An agent's workspace is decided once, when its session is first seen (from
    `workspace_dir` when given, else the directory), and kept in the store; a person's follows
    the directory. Neither is ever the home directory, above it, or `/`."""
    if cache is not None:
        cache.begin_line()  # from here to end_line each path is looked at once
    try:
        return _judge(
            command,
            cwd,
            env,
            session,
            positional,
            arg0,
            use_store,
            policy_loader,
            stdin_code,
            agent,
            workspace_dir,
            cache,
        )
    finally:
        if cache is not None:
            cache.end_line()


def _judge(
    command: str,
    cwd: str | None,
    env: Mapping[str, str] | None,
    session: str | None,
    positional: tuple[str, ...] | None,
    arg0: str | None,
    use_store: bool,
    policy_loader: Callable[..., Policy] | None,
    stdin_code: bool,
    agent: bool | None,
    workspace_dir: str | None,
    cache: LineCache | None,
) -> Judgement:
    given = os.environ if env is None else env
    agent = agent_session(given) if agent is None else agent
    if cwd is not None:
        here = cwd
    else:
        here = current_dir(given, same_file=cache.links.same_file if cache else None)

    def build() -> tuple[Surroundings, bool]:
        return _surroundings(
            given, here, session, positional, arg0, use_store, policy_loader, stdin_code,
            agent, workspace_dir, cache,
        )  # fmt: skip

    if cache is not None and policy_loader is None:
        key = (here, session, positional, arg0, use_store, stdin_code, agent, workspace_dir)
        around = cache.surroundings(key, given, build)
    else:
        around = build()[0]
    ctx, policy = around.context, around.policy
    env = ctx.env
    use_store = use_store and not without_store(env)
    warnings: list[str] = []
    projection = cache.projections.project(command, ctx) if cache else project(command, ctx)
    projection = reaching(projection, around.web_port)  # `guard watch --web`'s port asks
    judged = cache.decide if cache else decide
    verdict = judged(policy, projection, (), home=ctx.home, agent=agent)
    if use_store and session and any(d.decision == "ask" for d in verdict.decided):
        try:  # approvals only ever turn an ask into an allow: read them only when one asks
            approvals = (
                cache.approvals(session, env, time.time(), ctx.home)
                if cache
                else _approvals(session, env, _asking(verdict), ctx.home)
            )
        except GuardError as exc:
            warnings.append(
                f"{exc} (approvals are not used for this line, and one given now cannot be kept)"
            )
        else:
            if setting(policy.settings, "approvals.always") is False:  # the managed policy's
                approvals = tuple(a for a in approvals if getattr(a, "scope", "") != "always")
                # (an indexed set is rebuilt by decide from this tuple when it is large)
            if len(approvals):  # none: nothing turns an ask into an allow, the verdict stands
                decider = decide if isinstance(approvals, tuple) else judged  # kept: an index
                verdict = decider(policy, projection, approvals, home=ctx.home, agent=agent)  # type: ignore[arg-type]
    return Judgement(
        ctx,
        policy,
        projection,
        verdict,
        around.warnings + tuple(warnings),
        around.notes,
        around.trusted,
        around.workspace_why,
        asked_offers(ctx.home, policy, verdict, around.trusted),
    )


def _surroundings(
    given: Mapping[str, str],
    here: str,
    session: str | None,
    positional: tuple[str, ...] | None,
    arg0: str | None,
    use_store: bool,
    policy_loader: Callable[..., Policy] | None,
    stdin_code: bool,
    agent: bool,
    workspace_dir: str | None,
    cache: LineCache | None,
) -> tuple[Surroundings, bool]:
    """What the line is judged in: the workspace, the context, the project file's trust, the
    policy and the protected list; and whether they may be kept (not when the store failed,
    nor without $HOME: the password database says where home is)."""
    env = dict(given)
    context = cache.context if cache else build_context
    no_store = without_store(env)
    use_store = use_store and not no_store
    keep = "HOME" in env
    home = env.get("HOME") or os.path.expanduser("~")
    notes: list[str] = []
    warnings: list[str] = []
    chosen, problem = _workspace(
        workspace_dir or here,
        env,
        home,
        session=session,
        fixed=agent and use_store,
        cache=cache,
    )
    if problem:
        notes.append(problem)
        keep = False
    if chosen.warning:  # a session's start: an agent's first line; a person's shell says it
        (warnings if agent and use_store else notes).append(chosen.warning)  # at `guard init`
    ctx = context(here, env, workspace=chosen.roots, positional=positional, arg0=arg0)
    root = ctx.workspace[0] if ctx.workspace else None
    trusted, note, asked = _project_trust(root, no_store, cache)
    if note:
        notes.append(note)
    load = policy_loader or (cache.policy if cache else load_policy)
    policy = load(root, home=ctx.home, trust_project=trusted)
    if policy.roots:
        ctx = context(
            ctx.cwd,
            env,
            workspace=ctx.workspace,
            extra_roots=policy.roots,
            positional=positional,
            arg0=arg0,
        )
        wide = [r for r in ctx.workspace if r not in chosen.roots and _too_wide(r, ctx.home)]
        if wide:
            warnings.append(
                f"guard: the policy's workspace roots include {', '.join(wide)}, so everything "
                "below counts as the workspace; protected paths still ask"
            )
    ctx = ctx._replace(
        stdin_code=stdin_code,
        protected=protected_paths(
            policy, ctx.home, env, agent=agent, real=cache.links.realpaths if cache else None
        ),
        agent=agent,
    )
    port = listening_port(ctx.env, cache.links if cache else None)
    around = Surroundings(
        ctx, policy, trusted, tuple(warnings), tuple(notes), chosen.why, asked, note, port
    )
    return around, keep


def _project_trust(
    root: str | None, no_store: bool, cache: LineCache | None
) -> tuple[bool, str, str]:
    """Whether the workspace's project file is trusted, a note to show, and the project file
    whose trust the store was asked (asked again on every line), or ""."""
    if no_store:  # a sandbox: nothing local is trusted; the approver outside holds the store
        return False, "", ""
    if root is None:
        return True, "", ""
    project_file = os.path.join(root, PROJECT_FILE)
    if not cache:
        trusted, note = is_trusted(project_file)
        return trusted, note, ""
    trusted, note = cache.trusted(project_file)
    asked = ""
    if not isinstance(cache.links.lstat(project_file), FileNotFoundError):
        asked = project_file  # the store's answer: asked again on every line
    return trusted, note, asked


def agent_session(env: Mapping[str, str]) -> bool:
    """Whose session a line is judged for when the caller does not say: `GUARD_AGENT`, else
    an agent's when this process's standard input is no terminal."""
    return is_agent(env, terminal=_terminal())


def _terminal() -> bool:
    try:
        return os.isatty(0)
    except (OSError, ValueError):
        return False


def _too_wide(root: str, home: str) -> bool:
    from guard.verdict.workspace import too_wide

    return too_wide(root, os.path.realpath(home))


def _workspace(
    directory: str,
    env: Mapping[str, str],
    home: str,
    *,
    session: str | None,
    fixed: bool,
    cache: LineCache | None = None,
) -> tuple[Workspace, str]:
    """An agent session's workspace as first decided (stored), else decided here and now; and
    a `guard:` note when the store could not say."""
    links = cache.links if cache else None
    chosen = choose_workspace(
        directory,
        env,
        home,
        real=links.real if links else None,
        exists=links.exists if links else None,
    )
    if not (fixed and session):
        return chosen, ""
    from guard.verdict.store.store import Store

    decided = _stored_workspace(chosen.roots, chosen.why)
    try:
        if cache is not None:
            kept = cache.session_workspace(session, time.time(), decided)
        else:
            with Store.open() as store:
                kept = store.session_workspace(session, time.time(), decided)
        roots, why = _kept_workspace(kept)
        first = kept == decided
        if first:
            return Workspace(roots, why, chosen.warning), ""
        return Workspace(roots, f"{why}; kept since the session began"), ""
    except GuardError as exc:
        return chosen, f"{exc} (the workspace is decided from this directory)"
    except (ValueError, TypeError):
        return chosen, "guard: the session's stored workspace is damaged; it is decided again here"


@lru_cache(maxsize=256)
def _stored_workspace(roots: tuple[str, ...], why: str) -> str:
    """A workspace as the store keeps it: JSON [roots, why]."""
    import json

    return json.dumps([list(roots), why])


@lru_cache(maxsize=256)
def _kept_workspace(kept: str) -> tuple[tuple[str, ...], str]:
    """The roots and why of a kept workspace; raises ValueError or TypeError when damaged."""
    import json

    roots, why = json.loads(kept)
    return tuple(roots), why


_PROTECTED: dict[tuple[int, str, tuple[str, ...], bool], tuple[Policy, ProtectedPaths]] = {}


def protected_paths(
    policy: Policy,
    home: str,
    env: Mapping[str, str],
    *,
    agent: bool = True,
    real: Callable[[tuple[str, ...]], tuple[str, ...]] | None = None,
) -> ProtectedPaths:
    """The policy's protected list with guard's own config, state and runtime directories;
    its `secrets` (reads in the workspace) only in an agent's session. `real` resolves the
    links of paths (each by `os.path.realpath`, or by a long-lived process's kept answers)."""
    own = own_paths(env, real=real)
    key = (id(policy), home, own, agent)
    cached = _PROTECTED.get(key)
    if cached is not None and cached[0] is policy:
        return cached[1]
    mine = policy.protected if agent else tuple(e for e in policy.protected if not e.agent_only)
    entries = (*mine, *(ProtectedPath(p, (), "guard's own files") for p in own))
    compiled = ProtectedPaths(entries, home)
    if len(_PROTECTED) > 16:
        _PROTECTED.clear()
    _PROTECTED[key] = (policy, compiled)
    return compiled


def own_paths(
    env: Mapping[str, str], *, real: Callable[[tuple[str, ...]], tuple[str, ...]] | None = None
) -> tuple[str, ...]:
    """Where guard keeps its config, state and sockets: reaching them changes guard itself."""
    from guard import dirs
    from guard.policy import user_policy_path

    found = [dirs.user_config_dir(), dirs.user_state_dir(), dirs.user_runtime_dir()]
    for name in ("GUARD_CONFIG", "GUARD_STATE_DIR", "GUARD_MANAGED_POLICY"):
        if env.get(name):
            found.append(env[name])
    found.append(user_policy_path())
    given = tuple(p for p in found if p)
    resolved = real(given) if real else tuple(os.path.realpath(p) for p in given)
    return tuple(dict.fromkeys(resolved))


def _asking(verdict: Verdict) -> list[Request]:
    return [d.request for d in verdict.decided if d.decision == "ask"]


def _approvals(
    session: str, env: Mapping[str, str], asking: list[Request], home: str
) -> tuple[object, ...]:
    """The approvals that may cover what asks (a fresh process reads only those)."""
    from guard.verdict.store.store import Store

    idle = idle_seconds(env)
    with Store.open() as store:
        return tuple(store.approvals(session, time.time(), idle, matching=asking, home=home))


def without_store(env: Mapping[str, str]) -> bool:
    """`GUARD_NO_STORE=1`: this guard runs where it must not keep approvals (an agent's
    sandbox). Approvals and the audit log live with the approver (`guard watch`) outside."""
    return env.get("GUARD_NO_STORE", "") == "1"
