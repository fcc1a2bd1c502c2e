"""Asking a human about a line the policy says to ask about, and remembering the answer.

Builds the question from the verdict (what each choice would approve, exactly), asks on the
terminal, and turns the answer into approvals: once (nothing stored), for this session (the
store), or always (a rule appended to the user's or the project's policy file).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from typing import TYPE_CHECKING

from guard.asking.ask_result import Outcome
from guard.asking.prompt import DEFAULT_TIMEOUT, Answer, Choice, Question
from guard.errors import GuardError
from guard.policy import Policy, setting
from guard.projection import Decided, display
from guard.verdict import Grant, Judgement, granted

if TYPE_CHECKING:
    from guard.verdict import Store

# Denials the terminal prompt itself reports on the terminal: no second line on stderr.
SHOWN_AT_THE_PROMPT = frozenset({"interrupt", "timeout"})


def asking(judgement: Judgement) -> list[Decided]:
    return [d for d in judgement.verdict.decided if d.decision == "ask"]


# what the terminal prompt calls each answer
KEY_LABELS = {
    "y": "allow once",
    "s": "allow for this session",
    "d": "allow for this session, directories and below",
    "a": "always",
    "p": "always",
    "n": "deny",
}


def question_for(
    judgement: Judgement, env: Mapping[str, str]
) -> tuple[Question, dict[str, tuple[Grant, ...]]]:
    """The question, and for each key the approvals it would store (the judgement holds what
    is offered, guard/verdict/offers.py; this renders it)."""
    home = judgement.context.home
    asked = asking(judgement)
    problems = judgement.policy.problems
    # built when the line was judged (guard/verdict/judgement.py); built now for a judgement
    # whose verdict was replaced without them
    offers = judgement.offers or judgement.with_verdict(judgement.verdict).offers
    choices = tuple(
        Choice(
            o.key,
            KEY_LABELS[o.key],
            o.scope,  # type: ignore[arg-type]
            tuple(dict.fromkeys(g.label for g in o.grants)),
            o.target,  # type: ignore[arg-type]
            confirm=o.sure,
        )
        for o in offers
    )
    command = judgement.projection.command
    lines = tuple(dict.fromkeys(_typed(_line(d, home), d, home, command) for d in asked))
    if problems:
        lines = (*lines, f"{POLICY_PROBLEM}: {problems[0]} — run `guard policy check`")
    marks = tuple(d.request.span for d in asked)
    question = Question(
        judgement.projection.command, marks, lines, choices, timeout=_timeout(env)
    )
    return question, granted(offers)


def _line(d: Decided, home: str) -> str:
    r = d.request
    if r.surface == "command":
        return "run " + " ".join(r.argv) + (f"  — {d.by}" if d.by.startswith("rule") else "")
    if r.surface == "external_directory":
        return f"{r.access} {display(r.path, home)} ({r.via})"
    if r.surface == "protected":
        return f"{r.access} {display(r.path, home)} ({r.via}) — a protected path"
    if r.surface == "dynamic":
        return f"unknown: {r.text} — {r.reason}"
    if r.surface == "effect":
        return f"{r.kind} {r.target}: {r.reason} ({r.text})"
    return f"cannot check: {r.reason}"


def _typed(line: str, d: Decided, home: str, command: str) -> str:
    """``line`` with its path, for a request on a path, shown as the line wrote it."""
    r = d.request
    if not r.path:
        return line
    shown = f" {display(r.path, home)} ("
    return line.replace(shown, f" {as_typed(r.path, home, command, r.span)} (", 1)


def as_typed(path: str, home: str, command: str, span: tuple[int, int]) -> str:
    """A path as the line wrote it (``~/x``, ``../x``, ``$HOME/x``), with the path it resolves
    to beside it when the two differ: ``../etc/x = /srv/etc/x``."""
    shown = display(path, home)
    data = command.encode("utf-8", "surrogateescape")
    typed = data[span[0] : span[1]].decode("utf-8", "surrogateescape") if data else ""
    if not typed or len(typed) > 80 or "\n" in typed or typed in (path, shown):
        return typed if typed == path else shown
    return f"{typed} = {shown}"




def _timeout(env: Mapping[str, str]) -> float:
    try:
        return float(env.get("GUARD_PROMPT_TIMEOUT", "") or DEFAULT_TIMEOUT)
    except ValueError:
        return DEFAULT_TIMEOUT


# How `ask` says that this process's terminal cannot be used; the approver is asked instead.
NO_TTY = ("no-terminal", "not-foreground", "noninteractive")
NOT_HERE = {
    "no-terminal": "no terminal",
    "not-foreground": "this process runs in the background of its terminal",
    "noninteractive": "GUARD_NONINTERACTIVE is set, so the terminal is not asked",
}


def approver_mode(env: Mapping[str, str], policy: Policy | None = None) -> str:
    """``GUARD_APPROVER``: "auto" (the approver when the terminal cannot be used), "always"
    (never the terminal: agents that drive a pty could answer there), or "never". The managed
    policy's ``[approver] required = true`` makes it "always", whatever the variable says."""
    if policy is not None and setting(policy.settings, "approver.required") is True:
        return "always"
    value = env.get("GUARD_APPROVER", "").strip().lower()
    if value in ("", "auto"):
        return "auto"
    if value in ("never", "off", "no", "0", "false"):
        return "never"
    return "always"  # "always", or a value we do not know: keep away from the agent's terminal


def confirm(
    judgement: Judgement,
    *,
    session: str,
    env: Mapping[str, str],
    origin: str = "guard check",
    held: str = "",
) -> Outcome:
    """Ask on the terminal, or the approver (`guard watch`) when the terminal cannot be used or
    ``GUARD_APPROVER=always``; store what the human granted. Never allows without a human.
    ``held``: why an agent's hook holds the call for the approver (its messages say so)."""
    from guard.asking.terminal_question import ask

    question, grants = question_for(judgement, env)
    mode = approver_mode(env, judgement.policy)
    if mode == "always":
        why = held or "GUARD_APPROVER=always keeps the question off this terminal"
        return _ask_approver(judgement, question, grants, session, env, origin, why)
    answer: Answer = ask(question, env=env)
    if answer.how in NO_TTY and mode == "auto":
        why = NOT_HERE.get(answer.how, "no terminal")
        return _ask_approver(judgement, question, grants, session, env, origin, why)
    if not answer.allowed or answer.choice is None:
        if answer.how in ("key", "enter", "arrows"):  # a human answered deny
            return Outcome(False, "human", "", "n" if answer.choice is None else answer.choice.key)
        if answer.how in SHOWN_AT_THE_PROMPT:
            return Outcome(False, answer.how, "", "")  # the prompt already said so on the tty
        return Outcome(False, answer.how, answer.message or _denied_message(judgement), "")
    key = answer.choice.key
    remember(judgement, session, answer.choice, grants.get(key, ()))
    return Outcome(True, "human", "", key)


def _ask_approver(
    judgement: Judgement,
    question: Question,
    grants: Mapping[str, Sequence[Grant]],
    session: str,
    env: Mapping[str, str],
    origin: str,
    why: str = "no terminal",
) -> Outcome:
    """The human at `guard watch` answers; it also stores what they granted. ``why`` says why
    this process's own terminal was not asked."""
    from guard.asking.approver_client import NO_TERMINAL, request_approval

    outcome = request_approval(
        judgement, question, grants, session=session, env=env, origin=origin
    )
    if not outcome.allowed and outcome.how == "no-approver":
        # say what was blocked and why, for the human reading it later and the agent now
        rest = outcome.message.removeprefix("guard: denied: ").removeprefix("guard: ")
        rest = rest.replace(f"— {NO_TERMINAL},", f"— {why},", 1)
        problems = judgement.policy.problems
        if problems:  # a rule added to a broken file would not count: say what to fix
            message = (f"guard: denied {_blocked(judgement)}. {_problem_hint(problems)}. "
                       f"{rest[:1].upper()}{rest[1:]}; or run it yourself")
        else:
            message = (f"guard: denied {_blocked(judgement)}. {rest[:1].upper()}{rest[1:]}; or "
                       f"run it yourself, or {_rule_hint(grants.get('s', []))}")
        return Outcome(False, outcome.how, message, outcome.choice)
    return outcome


def _rule_hint(narrow: Sequence[Grant]) -> str:
    """What to write in the policy to allow this line from now on: the rules the question's
    `a` would write, named, not a generic pointer."""
    if not narrow:
        return "allow it once at a terminal (what it runs cannot be approved for longer)"
    from guard.policy import user_policy_path

    rules = "; ".join(
        f'surface = "{a.surface}", pattern = "{a.pattern}"'
        + (f', access = ["{a.access}"]' if a.access else "")
        for a in narrow[:2]
    )
    more = f" (and {len(narrow) - 2} more)" if len(narrow) > 2 else ""
    return f'add an allow rule to {user_policy_path()}: {rules}{more}, action = "allow"'


POLICY_PROBLEM = "policy problem"


def _problem_hint(problems: Sequence[str]) -> str:
    """What is wrong with the policy (file:line), and the command that lists every problem."""
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return (f"A policy file has a problem, so every line asks until it is fixed: {problems[0]}"
            f"{more}; run `guard policy check` to see each problem")


def _blocked(judgement: Judgement) -> str:
    """`cat /etc/hosts` (read /etc/hosts (cat) is outside the workspace): one line's worth."""
    command = " ".join(judgement.projection.command.split())
    if len(command) > 80:
        command = command[:79] + "…"
    reasons = [
        _without_problem(r.removeprefix("ask: ").removeprefix("deny: "))
        for r in judgement.verdict.reasons[:2]
    ]
    return f"`{command}` ({'; '.join(reasons)})" if reasons else f"`{command}`"


def _without_problem(reason: str) -> str:
    """A reason without the policy problem decide() appends to each (the hint says it once)."""
    at = reason.find(f" ({POLICY_PROBLEM}: ")
    return reason[:at] if at >= 0 else reason


def remember(
    judgement: Judgement, session: str, choice: Choice, approvals: Sequence[Grant]
) -> None:
    workspace = judgement.context.workspace
    for problem in save_grant(
        judgement.projection.command, workspace[0] if workspace else "", session, choice, approvals
    ):
        print_warning(problem)


def save_grant(
    command: str,
    workspace: str,
    session: str,
    choice: Choice,
    approvals: Sequence[Grant],
    *,
    granted_by: str = "human",
    store: Store | None = None,
) -> list[str]:
    """Store what ``choice`` grants: session approvals in the store (``store``, else the
    default one), always rules in the user's or the project's policy file. Returns one line per
    problem; the caller decides where to show them (the line is still allowed once)."""
    problems: list[str] = []
    if choice.scope == "session":
        from guard.verdict import Store

        now = time.time()
        try:
            with nullcontext(store) if store is not None else Store.open() as opened:
                for a in approvals:
                    new = opened.grant(
                        session=session,
                        scope="session",
                        surface=a.surface,
                        pattern=a.pattern,
                        access=a.access,
                        granted_by=granted_by,
                        command=command,
                        now=now,
                    )
                    _audit_grant(opened, session, new, a, granted_by, command)
        except GuardError as exc:
            problems.append(f"{exc} (allowed once; the approval was not saved)")
    elif choice.scope == "always":
        from guard.policy import append_rules, project_policy_path, user_policy_path

        target = (
            project_policy_path(workspace) if choice.target == "project" else user_policy_path()
        )
        try:
            append_rules(target, approvals, command=command)
            _audit_rules(target, approvals, granted_by, command, session)
            if choice.target == "project":
                from guard.verdict import trust

                trust(target)  # it was trusted (or absent) before; the human added this rule
        except GuardError as exc:
            problems.append(f"{exc} (allowed once; the rule may not count until trusted)")
        except OSError as exc:
            problems.append(f"guard: could not write {target}: {exc.strerror}; allowed once only")
    return problems


def _audit_grant(
    store: Store, session: str, new: int, a: Grant, by: str, command: str
) -> None:
    from guard.verdict import trust_changed

    access = f" [{a.access}]" if a.access else ""
    trust_changed(store, how="grant", what=f"grant session {a.surface} {a.pattern}{access}",
                  detail={"id": new, "scope": "session", "surface": a.surface,
                          "pattern": a.pattern, "access": a.access, "by": by,
                          "command": command},
                  session=session)  # fmt: skip


def _audit_rules(
    target: str, approvals: Sequence[Grant], by: str, command: str, session: str
) -> None:
    from guard.verdict import trust_changed

    rules = [{"surface": a.surface, "pattern": a.pattern, "access": a.access} for a in approvals]
    shown = ", ".join(a.pattern for a in approvals)
    trust_changed(None, how="always-rule", what=f"allow rule in {target}: {shown}",
                  detail={"path": target, "rules": rules, "by": by, "command": command},
                  session=session)  # fmt: skip


def print_warning(message: str) -> None:
    import sys

    print(message, file=sys.stderr)


def _denied_message(judgement: Judgement) -> str:
    from guard.printable import denied

    return denied(judgement.verdict.reasons)
