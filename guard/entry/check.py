"""Checking one command line at an edge: judge it, ask a human if needed, record the verdict.

`decide_line` is the one place any entry point has a line judged (`guard check`, guarded-bash,
the shell hooks and their checker, the agents' hooks, the resident checker, `guard explain`):
the judgement with the adjustments its edge asks for (a fish line, a checker that timed out, an
agent's protected path). The entry points differ only in what they do with it. `check_line` is
the one path `guard check`, guarded-bash and the shell hooks' fallback share. Kept out of
`guard/cli/` so guarded-bash does not import argparse for it.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NamedTuple

from guard.errors import GuardError
from guard.printable import denied, escaped
from guard.verdict import Judgement, idle_seconds, judge

if TYPE_CHECKING:
    from guard.policy import Policy
    from guard.verdict import LineCache

ALLOW, DENY, ASK = 0, 1, 3


class LineRequest(NamedTuple):
    """One line to judge and what it is judged in (guard/verdict/judgement.py `judge` says
    what each of cwd … cache means), with what its edge adds: `shell` "fish" (the fish hook:
    a line fish would read otherwise than bash asks, with what differs), `ask_because` (the
    shell hooks, when their checker timed out: a line the policy allows asks, with that
    reason) and `ask_protected` (an agent's call: a protected path is never allowed silently,
    an allowed one asks again). A named tuple, not a frozen dataclass: a long-lived process
    makes one for every line, and a frozen dataclass of fifteen fields takes 2 µs to make."""

    command: str
    cwd: str | None = None
    env: Mapping[str, str] | None = None
    session: str | None = None
    positional: tuple[str, ...] | None = None
    arg0: str | None = None
    stdin_code: bool = False
    agent: bool | None = None
    workspace_dir: str | None = None
    cache: LineCache | None = None
    use_store: bool = True
    policy_loader: Callable[..., Policy] | None = None
    shell: Literal["bash", "fish"] = "bash"
    ask_because: str = ""
    ask_protected: bool = False


def decide_line(line: LineRequest) -> Judgement:
    """The judgement of `line`, with its edge's adjustments: the one call of `judge` in guard
    (tests/architecture_test.py keeps it so), so every entry point decides alike."""
    result = judge(
        line.command,
        cwd=line.cwd,
        env=line.env,
        session=line.session,
        positional=line.positional,
        arg0=line.arg0,
        use_store=line.use_store,
        policy_loader=line.policy_loader,
        stdin_code=line.stdin_code,
        agent=line.agent,
        workspace_dir=line.workspace_dir,
        cache=line.cache,
    )
    if line.shell == "fish":
        result = as_fish(result, os.environ if line.env is None else line.env)
    if line.ask_because:
        result = forced_ask(result, line.ask_because)
    if line.ask_protected:
        result = protected_ask(result)
    return result


def check_line(
    command: str,
    *,
    session: str,
    cwd: str | None = None,
    as_json: bool = False,
    prompt: bool = True,
    positional: tuple[str, ...] | None = None,
    arg0: str | None = None,
    origin: str = "guard check",
    background_audit: bool = False,
    stdin_code: bool = False,
    enforce: Callable[[Judgement], Mapping[str, object]] | None = None,
    ask_because: str = "",
    shell: str = "bash",
) -> int:
    """Judge, ask if needed, record; the exit status for allow (0), deny (1) or ask (3).

    With `background_audit` (guarded-bash, about to exec bash) the audit row is written by a
    forked child, so the command does not wait for the store — once the store has taken a row
    of this session, and not where the managed policy keeps an audit log. A row that cannot be
    written is said once per session; where the managed policy requires it, the allowed line is
    refused. `enforce` (guarded-bash) is called
    for an allowed line before the row is written: what it returns goes into the row's detail,
    and a GuardError from it refuses the line. With
    `ask_because` (the shell hooks, when their checker timed out) a line the policy allows
    asks, with that reason. With `shell` "fish" (the fish hook), a line fish would read
    otherwise than bash asks, with what differs (guard/projection/fish_lines.py)."""
    env = dict(os.environ)
    line = LineRequest(
        command,
        cwd=cwd,
        env=env,
        session=session,
        positional=positional,
        arg0=arg0,
        stdin_code=stdin_code,
        shell="fish" if shell == "fish" else "bash",
        ask_because=ask_because,
    )
    result = decide_line(line)
    if shell == "fish" and (result.verdict.decision != "allow" or result.warnings):
        print(file=sys.stderr)  # the fish hook asks with the typed line still on its row
    settled = settle(result, session=session, env=env, prompt=prompt, origin=origin)
    status, decision, how, picked = settled.status, settled.decision, settled.how, settled.key
    extra: Mapping[str, object] = {}
    if enforce is not None and decision == "allow":
        try:
            extra = enforce(result)
        except GuardError as exc:
            print(exc, file=sys.stderr)
            status, decision, how, extra = DENY, "deny", "enforcement", {"enforce": str(exc)}
    # the approver writes the row of what it answered: a second would count one decision twice
    row = not settled.logged or how == "enforcement"
    late = background_audit and may_write_late(result, session)
    child = _forked_child() if late else None
    if child:
        try:
            written = write_row(result, session, decision, how, origin, extra, picked, row=row)
            if written is not None:
                failed_late(session, written)
        finally:
            os._exit(0)
    elif child is None:
        refused = audit_check(result, session, decision, how, origin, extra, picked, row=row)
        if refused:
            status, decision = DENY, "deny"
    if as_json:
        from guard.entry.judgement_json import as_json as to_json

        out = to_json(result)
        out["final"] = decision
        print(json.dumps(out))
    return status


@dataclass(frozen=True, slots=True)
class Settled:
    """What checking a line came to: the exit status, the final decision, how it was reached,
    the key a human picked, and whether its audit row is written already (by the approver)."""

    status: int
    decision: str
    how: str
    key: str = ""
    logged: bool = False


def settle(
    result: Judgement, *, session: str, env: dict[str, str], prompt: bool, origin: str
) -> Settled:
    """Print the warnings, ask when the verdict is ask and `prompt`, say why on deny."""
    for line in told(result):  # on deny, its reasons too: nothing else is printed then
        print(line, file=sys.stderr)
    decision = result.verdict.decision
    if decision == "ask" and prompt:
        from guard.asking import confirm

        outcome = confirm(result, session=session, env=env, origin=origin)
        if not outcome.allowed and outcome.message:
            print(escaped(outcome.message), file=sys.stderr)
        return Settled(
            ALLOW if outcome.allowed else DENY,
            "allow" if outcome.allowed else "deny",
            outcome.how,
            outcome.choice,
            outcome.logged,
        )
    status = {"allow": ALLOW, "deny": DENY, "ask": ASK}[decision]
    return Settled(status, decision, how_decided(result))


def told(result: Judgement) -> list[str]:
    """What a judgement says to the person at the shell before the line runs or is asked
    about, whichever entry point judged it: each warning, and on deny the one line of its
    reasons; every line safe for a terminal."""
    lines = [escaped(w) for w in result.warnings]
    if result.verdict.decision == "deny":
        lines.append(denied(result.verdict.reasons))
    return lines


def as_fish(result: Judgement, env: Mapping[str, str]) -> Judgement:
    """`result` of a line typed into fish: one more ask for each way fish reads it otherwise."""
    from guard.projection import fish_problems

    commands = [r.argv for r in result.projection.requests if r.surface == "command" and r.argv]
    for problem in fish_problems(result.projection.command, commands, env):
        result = forced_ask(result, f"fish reads this line otherwise than bash: {problem}")
    return result


def forced_ask(result: Judgement, reason: str) -> Judgement:
    """`result` with one more request that asks for `reason` (a deny stays a deny)."""
    from guard.projection import Decided, Request, Verdict

    command = result.projection.command
    span = (0, len(command.encode("utf-8", "surrogateescape")))
    asked = Decided(Request("syntax", span, reason, text=command[:80]), "ask", "hook")
    v = result.verdict
    verdict = Verdict(
        "deny" if v.decision == "deny" else "ask",
        (f"ask: {reason}", *v.reasons),
        (asked, *v.decided),
    )
    return result.with_verdict(verdict)


def protected_ask(result: Judgement) -> Judgement:
    """`result` of an agent's call: a protected path the line reaches never gets a silent
    allow; an allowed one is asked about again."""
    from guard.projection import Decided, Verdict

    verdict = result.verdict
    protected = [d for d in verdict.decided if d.request.surface == "protected"]
    if verdict.decision != "allow" or not protected:
        return result
    from guard.verdict import describe

    home = result.context.home
    decided = tuple(
        Decided(d.request, "ask", d.by) if d.request.surface == "protected" else d
        for d in verdict.decided
    )
    reasons = tuple(dict.fromkeys(f"ask: {describe(d.request, home=home)}" for d in protected))
    return result.with_verdict(Verdict("ask", reasons, decided))


def _forked_child() -> bool | None:
    """Fork: True in the child (which keeps none of the caller's terminal or pipes), False in
    the parent, None when there is no child (the caller then writes the row itself)."""
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid:
        return False
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    return True


def how_decided(result: Judgement) -> str:
    bys = {d.by.split(" ")[0] for d in result.verdict.decided if d.decision != "allow"}
    if result.verdict.decision == "allow":
        bys = {d.by.split(" ")[0] for d in result.verdict.decided}
        return "approval" if "approval" in bys else "rule"
    return "rule" if bys else "default"


def may_write_late(result: Judgement, session: str) -> bool:
    """Whether the row of an allowed line may be written after it has started (guarded-bash's
    forked child, a checker's audit thread): only once a row of this session was written to
    this store, and never where the managed policy keeps an audit log."""
    from guard.verdict import required_by
    from guard.verdict import trouble as store_trouble

    if required_by(result.policy):
        return False
    return store_trouble.state(session, store_trouble.store_path_text())[0] == store_trouble.OK


def failed_late(session: str, problem: GuardError) -> None:
    """A row written late was lost: the session's next line writes its row first, and says."""
    from guard.verdict import trouble as store_trouble

    why = str(problem).removeprefix("guard: ")
    store_trouble.failed(session, store_trouble.store_path_text(), why)


def audit_check(
    result: Judgement,
    session: str,
    decision: str,
    how: str,
    origin: str,
    extra: Mapping[str, object] | None = None,
    key: str = "",
    *,
    row: bool = True,
) -> str:
    """Write the line's row now (unless ``row`` is False: the approver wrote it). When it
    cannot be: "" after a warning (once per session), or the refusal (printed) of an allowed
    line whose row the managed policy requires."""
    problem = write_row(result, session, decision, how, origin, extra, key, row=row)
    if problem is None:
        return ""
    message = unwritten(result, session, decision, problem)
    if message:
        print(message, file=sys.stderr)
    from guard.verdict import required_by

    return message if decision == "allow" and required_by(result.policy) else ""


def unwritten(result: Judgement, session: str, decision: str, problem: GuardError) -> str:
    """What to say of a row that could not be written: the refusal, where the managed policy
    requires the row of an allowed line; else the warning, once per session ("" after)."""
    from guard.verdict import not_written_line, refusal, required_by

    where = required_by(result.policy)
    if where and decision == "allow":
        from guard.verdict import refusal_to_system_log

        message = refusal(where, problem)
        refusal_to_system_log(
            session=session,
            cwd=result.context.cwd,
            command=result.projection.command,
            message=message,
        )
        return message
    return not_written_line(problem, session=session)


def write_row(
    result: Judgement,
    session: str,
    decision: str,
    how: str,
    origin: str,
    extra: Mapping[str, object] | None = None,
    key: str = "",
    *,
    row: bool = True,
) -> GuardError | None:
    """The line's audit row (unless ``row`` is False: the approver wrote it) and the session's
    touch; the failure, if any. The session's store state (guard/verdict/store/trouble.py)
    learns that the store works."""
    from guard.verdict import Store, without_store
    from guard.verdict import trouble as store_trouble

    if without_store(os.environ):
        return None  # in a sandbox: the approver outside logs what it is asked
    try:
        with Store.open() as store:
            if row:
                store.record(
                    time=time.time(),
                    session=session,
                    cwd=result.context.cwd,
                    command=result.projection.command,
                    decision=decision,
                    reasons=result.verdict.reasons,
                    how=how,
                    detail={"origin": origin, **(extra or {}), **({"key": key} if key else {})},
                )
            store.touch_session(
                session, time.time(), result.context.cwd, idle_seconds=idle_seconds(os.environ)
            )
            path = str(store.path)
    except GuardError as exc:
        return exc
    store_trouble.worked(session, path)
    return None
