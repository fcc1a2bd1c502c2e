"""What every agent adapter does: judge the call, hold it for a human where the agent has no
real ask, and turn the outcome into one of three answers.

An adapter (a row of `guard.entry.agents.protocols`) reads its agent's JSON into a `AgentCall`; this
module
returns an `AgentAnswer` (allow, deny or ask, with one `guard:` line); the adapter writes it in the
agent's own form. Nothing here ever answers allow unless guard allowed: a call the policy asks
about goes to the agent's own prompt only where the agent really shows one (`in_band_ask`);
elsewhere it is held while the human at `guard watch` decides, and the hold ends in deny a few
seconds before the agent's own hook timeout would let the command run.

`verdict_for` is the one place an adapter has a call judged, through `decide_line`
(guard/entry/check.py), the path every entry point takes.
"""

from __future__ import annotations

import shlex
import signal
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

from guard.entry.agents.agent import Agent
from guard.entry.agents.calls import AgentAnswer, AgentCall, Unreadable
from guard.errors import GuardError

if TYPE_CHECKING:
    from guard.verdict import Judgement

NOT_RUN = "the command was not run"
FORBIDDEN = " (the policy forbids it: do not try it another way; ask the user if it is needed)"
MAX_COMMAND = 256 << 10  # characters of one command line; a longer one is refused, not cut
MARGIN = 5.0  # seconds the hold ends before the agent's own hook timeout
GRACE = 5.0  # guard.asking.approver_client waits this long past the approver's own timeout
SHORTEST_HOLD = 5.0  # a human gets at least this long, else the call is denied at once


class NeedsHold(Exception):
    """The call must be held for a human, and this caller (the resident checker) does not hold
    calls: the hook answers it in its own process."""


class HoldTimeout(BaseException):
    """The agent's hook timeout is near: deny now, before the agent runs the call itself.
    A BaseException, so that no `except Exception` on the way swallows it."""


def refused(why: str) -> AgentAnswer:
    return AgentAnswer("deny", f"guard: {why}; {NOT_RUN}")


def verdict_for(
    command: str,
    cwd: str,
    session: str,
    env: Mapping[str, str],
    workspace_dir: str | None,
) -> Judgement:
    """The judgement of one agent call: the single place an adapter asks guard's checker
    (through `decide_line`, as every entry point). A protected path the call reaches is never
    allowed silently: an allowed one asks again."""
    from guard.entry.check import LineRequest, decide_line

    line = LineRequest(
        command, cwd=cwd, env=env, session=session, agent=True, workspace_dir=workspace_dir,
        ask_protected=True,
    )  # fmt: skip
    return decide_line(line)


def decide(
    call: AgentCall,
    env: Mapping[str, str],
    *,
    in_band_ask: bool,
    hook_timeout: float,
    may_hold: bool = True,
    prompt_known: bool = True,
) -> AgentAnswer:
    """Judge `call`; ask the agent's prompt (`in_band_ask`) or hold it for the approver (or
    raise `NeedsHold` where `may_hold` is False, or where the line asks and `prompt_known` is
    False: whether a human sees the agent's prompt is known only to the hook's process)."""
    if not call.command.strip():
        return refused("the call has an empty command")
    if len(call.command) > MAX_COMMAND:
        return refused(
            f"the command is {len(call.command)} characters, over the {MAX_COMMAND} guard "
            "checks; write it to a script in the workspace and run that"
        )
    budget = hook_timeout - MARGIN
    if budget < MARGIN:
        return refused(
            f"the hook's timeout of {hook_timeout:g} s is too short for guard to answer in time; "
            f"give it {int(2 * MARGIN)} s or more (guard setup {call.agent} writes one)"
        )
    try:
        with deadline(budget):
            judgement = verdict_for(call.command, call.cwd, call.session, env, call.workspace_dir)
            if judgement.verdict.decision == "ask" and not prompt_known:
                raise NeedsHold
            answer, how, logged = _answer(
                judgement, call, env, in_band_ask=in_band_ask, budget=budget, may_hold=may_hold
            )
    except HoldTimeout:
        return refused(
            f"no answer within {budget:g} s, and {call.agent} runs a call whose hook does not "
            "answer in time; answer sooner at `guard watch`, or raise the hook's timeout "
            f"(guard setup {call.agent} writes one)"
        )
    except GuardError as exc:
        return AgentAnswer("deny", f"{exc}; {NOT_RUN}")
    return _audit(judgement, call, answer, how, env, row=not logged)


def _answer(
    judgement: Judgement,
    call: AgentCall,
    env: Mapping[str, str],
    *,
    in_band_ask: bool,
    budget: float,
    may_hold: bool = True,
) -> tuple[AgentAnswer, str, bool]:
    """The answer, how it was reached, and whether its audit row is written (by the approver)."""
    verdict = judgement.verdict
    reasons = "; ".join(r.split(": ", 1)[-1] for r in verdict.reasons[:3])  # no "ask: " lead
    if verdict.decision == "allow":
        used = any(d.by.startswith("approval") for d in verdict.decided)
        if used:
            return AgentAnswer("allow", "guard: allowed by an approval"), "approval", False
        return AgentAnswer("allow", "guard: allowed by the policy"), "rule", False
    if verdict.decision == "deny":
        return AgentAnswer("deny", f"guard: denied: {reasons}; {NOT_RUN}{FORBIDDEN}"), "rule", False
    from guard.asking import approver_mode  # the prompt's modules: only when one asks

    mode = approver_mode(env, judgement.policy)
    if in_band_ask and mode != "always":
        return AgentAnswer("ask", f"guard asks: {reasons}"), f"{call.agent}-prompt", False
    if mode == "never":
        message = f"guard: denied: nobody can be asked (GUARD_APPROVER=never); {reasons}"
        hint = _grant_hint(judgement, call, env)
        return AgentAnswer("deny", f"{message}{hint}"), "no-approver", False
    if not may_hold:
        raise NeedsHold
    return _hold(judgement, call, env, budget)


def _hold(
    judgement: Judgement, call: AgentCall, env: Mapping[str, str], budget: float
) -> tuple[AgentAnswer, str, bool]:
    """The human at `guard watch` answers, within what is left of the agent's hook timeout."""
    from guard.asking import DEFAULT_TIMEOUT, approver_mode, confirm

    try:
        wanted = float(env.get("GUARD_PROMPT_TIMEOUT", "") or DEFAULT_TIMEOUT)
    except ValueError:
        wanted = DEFAULT_TIMEOUT
    seconds = min(wanted, budget - GRACE - 1)
    if seconds < SHORTEST_HOLD:
        why = (
            f"{call.agent}'s hook timeout leaves no time for a human to answer; raise it "
            f"(guard setup {call.agent} writes one that does)"
        )
        return refused(why), "no-time", False
    asked = {
        **env,
        "GUARD_APPROVER": "always",
        "GUARD_ORIGIN": call.agent,
        "GUARD_PROMPT_TIMEOUT": f"{seconds:g}",
    }
    by_hand = approver_mode(env, judgement.policy) == "always"  # the user's own GUARD_APPROVER
    held = "" if by_hand else f"{call.agent} shows no question from its hooks"
    outcome = confirm(judgement, session=call.session, env=asked, origin=call.agent, held=held)
    if outcome.allowed:
        allowed = AgentAnswer("allow", "guard: allowed by the human at `guard watch`")
        return allowed, outcome.how, outcome.logged
    message = outcome.message or "guard: denied by the human at `guard watch`"
    if outcome.how == "no-approver":
        message += _grant_hint(judgement, call, env)
    return AgentAnswer("deny", message), outcome.how, outcome.logged


def _grant_hint(judgement: Judgement, call: AgentCall, env: Mapping[str, str]) -> str:
    """`; or for this session: guard approvals grant …` for what the line asks about."""
    from guard.asking import question_for

    _question, grants = question_for(judgement, env)
    lines = []
    for c in grants.get("s", []):
        if c.surface == "protected":
            continue  # a protected path asks on every access, approved or not
        argv = ["guard", "approvals", "grant", "--session", call.session, "--surface"]
        argv += [c.surface, "--pattern", c.pattern]
        argv += ["--access", c.access] if c.access else []
        lines.append(shlex.join(argv))
    return f"; or allow it for this session: {' && '.join(lines)}" if lines else ""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise `HoldTimeout` in the main thread when `seconds` have passed."""

    def fire(_signum: int, _frame: FrameType | None) -> None:
        raise HoldTimeout

    try:
        previous = signal.signal(signal.SIGALRM, fire)
    except ValueError:  # not the main thread (a long-lived caller): its own limits apply
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _audit(
    judgement: Judgement,
    call: AgentCall,
    answer: AgentAnswer,
    how: str,
    env: Mapping[str, str],
    *,
    row: bool,
) -> AgentAnswer:
    """Write the call's row (unless ``row`` is False: the approver wrote it) and count the
    session as active; the answer to give. A row that cannot be written is said once per
    session (on stderr and in the answer); where the managed policy keeps an audit log, an
    allowed call whose row cannot be written is refused instead."""
    from guard.verdict import Store, idle_seconds, without_store
    from guard.verdict import trouble as store_trouble

    if without_store(env):
        return answer
    try:
        with Store.open() as store:
            now = time.time()
            if row:
                store.record(
                    time=now,
                    session=call.session,
                    cwd=judgement.context.cwd,
                    command=call.command,
                    decision=answer.decision,
                    reasons=judgement.verdict.reasons,
                    how=how,
                    detail={"origin": call.agent},
                )
            store.touch_session(
                call.session, now, judgement.context.cwd, idle_seconds=idle_seconds(env)
            )
            path = str(store.path)
    except GuardError as exc:
        from guard.entry.check import unwritten

        message = unwritten(judgement, call.session, answer.decision, exc)
        if not message:
            return answer
        print(message, file=sys.stderr)
        from guard.verdict import required_by

        if answer.decision == "allow" and required_by(judgement.policy):
            return AgentAnswer("deny", message)
        return AgentAnswer(answer.decision, f"{answer.reason} — {message}")
    store_trouble.worked(call.session, path)
    return answer


MAX_INPUT = 16 << 20  # bytes of hook input read; more is refused, not cut


def respond(
    protocol: Agent,
    raw: bytes,
    env: Mapping[str, str],
    *,
    hook_timeout: float | None = None,
    in_band: bool | None = None,
    may_hold: bool = True,
    prompt_known: bool = True,
) -> str | None:
    """The text to print for one hook input: never empty where empty would mean "run it"
    unless guard allowed, and the protocol's deny for anything that goes wrong. `in_band`:
    whether a human answers the agent's own prompt (by default, what guard/entry/agents/prompt.py
    sees of the agent from this process). None only where `may_hold` is False and the call
    must be held, or `prompt_known` is False (whether a human sees the agent's prompt is not
    known here) and the line asks: the caller then answers in the hook's own process."""
    try:
        if len(raw) > MAX_INPUT:
            return protocol.answer(refused(f"the hook input is over {MAX_INPUT} bytes"))
        import json

        try:
            data = json.loads(raw)
        except ValueError as exc:
            return protocol.answer(refused(f"the hook input is not JSON (truncated?): {exc}"))
        if not isinstance(data, dict):
            return protocol.answer(refused("the hook input is not a JSON object"))
        try:
            call = protocol.parse(data, env)
        except Unreadable as exc:
            return protocol.answer(refused(str(exc)))
        if call is None:
            return protocol.no_opinion
        timeout = hook_timeout if hook_timeout is not None else protocol.default_timeout
        in_band = protocol.in_band_ask and (
            prompt_for(protocol.agent) if in_band is None else in_band
        )
        answer = decide(
            call, env, in_band_ask=in_band, hook_timeout=timeout, may_hold=may_hold,
            prompt_known=prompt_known,
        )  # fmt: skip
        return protocol.answer(answer)
    except NeedsHold:
        return None
    except BaseException as exc:  # fail closed, whatever it was
        return protocol.answer(refused(f"could not check the command ({exc!r})"))


def prompt_for(agent: str) -> bool:
    """Whether a human answers `agent`'s own prompt for a hook's ask (seen from this process)."""
    from guard.entry.agents.prompt import prompt_reachable

    return prompt_reachable(agent)
