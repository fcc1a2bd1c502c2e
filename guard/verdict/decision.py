"""The decision: policy rules and a human's approvals turn a projection into a verdict.

Pure: no files, clock or terminal. For each request the last matching rule of its surface
decides, else the surface's default. An `ask` becomes `allow` when an approval covers the
request; nothing overrides `deny`. While the policy has problems, nothing is allowed: what
would have been allowed asks, with the problem as the reason, and approvals do not apply.
The managed layer's deny and ask are final: when its own last matching rule is not an allow,
no lower layer's rule makes the request less strict, and no approval turns its ask into allow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from guard.policy import Policy, Rule, display_path
from guard.projection import (
    STRICTNESS,
    Decided,
    Decision,
    Projection,
    Request,
    Surface,
    Verdict,
    command_name,
    compile_command,
    compile_path,
    compile_text,
    literal_head,
    render_argv,
    strictest,
)

if TYPE_CHECKING:
    from guard.verdict.approval_index import ApprovalIndex, ApprovalLike


ROLE_WORDS = {
    "command_name": "as the command to run",
    "path": "as a path",
    "redirect": "as a redirect target",
    "code": "as shell code",
    "chdir": "as a directory to enter",
    "data": "as an argument",
}

_Index = dict[Surface, tuple[Rule, ...]]
_INDEXES: dict[tuple[int, str, bool], tuple[Policy, _Index]] = {}
SCAN_APPROVALS = 32  # more approvals than this are indexed (guard/verdict/approval_index.py)


def decide(
    policy: Policy,
    projection: Projection,
    approvals: tuple[ApprovalLike, ...] | ApprovalIndex,
    *,
    home: str,
    agent: bool = True,
) -> Verdict:
    """The verdict for a whole line: the strictest of its requests, one reason per non-allow.
    Rules marked for one kind of session (`session = "interactive"`) apply only to it; an
    agent's session is assumed when the caller does not say. `approvals` may be an
    `ApprovalIndex` a long-lived process keeps (built with this home)."""
    if isinstance(approvals, tuple) and len(approvals) > SCAN_APPROVALS:
        from guard.verdict.approval_index import ApprovalIndex

        approvals = ApprovalIndex(approvals, home)
    kind = "agent" if agent else "interactive"
    index = _index(policy, kind)
    managed = _index(policy, kind, managed=True) if policy.managed_rules else {}
    decided: list[Decided] = []
    reasons: list[str] = []
    for request in projection.requests:
        one, why = _decide_one(policy, index, request, approvals, home, managed)
        decided.append(one)
        if one.decision != "allow":
            line = f"{one.decision}: {describe(request, home=home)}{why}"
            if line not in reasons:
                reasons.append(line)
    return Verdict(strictest([d.decision for d in decided]), tuple(reasons), tuple(decided))


def _decide_one(
    policy: Policy,
    index: _Index,
    request: Request,
    approvals: tuple[ApprovalLike, ...] | ApprovalIndex,
    home: str,
    managed: _Index,
) -> tuple[Decided, str]:
    rule = _last_match(index.get(request.surface, ()), request, home)
    decision: Decision
    if rule is not None:
        decision, by = rule.action, f"rule {rule.source}:{rule.line}"
        why = f" ({by}: {rule.reason})" if rule.reason else f" ({by})"
    elif request.surface in policy.defaults:
        decision, by, why = policy.defaults[request.surface], "default", ""
    else:  # a surface this policy does not know: fail closed
        decision, by, why = "ask", "default", " (no policy for this kind of request)"
    final = _managed_match(managed, request, home)
    if final is not None and STRICTNESS[final.action] >= STRICTNESS[decision]:
        decision, by = final.action, f"managed rule {final.source}:{final.line}"
        why = f" ({by}: {final.reason})" if final.reason else f" ({by})"
    if policy.problems and decision != "deny":
        if decision == "allow":
            decision, by = "ask", "policy problem"
        more = len(policy.problems) - 1
        why += f" (policy problem: {policy.problems[0]}" + (f"; and {more} more)" if more else ")")
    elif decision == "ask" and final is None:
        approval = (
            _approved_by(request, approvals, home)
            if isinstance(approvals, tuple)
            else approvals.match(request)
        )
        if approval is not None:
            decision, by, why = "allow", f"approval #{approval.id}", ""
    return Decided(request, decision, by), why


def _managed_match(managed: _Index, request: Request, home: str) -> Rule | None:
    """The managed layer's last matching rule for `request` when it is a deny or an ask."""
    if not managed:
        return None
    rule = _last_match(managed.get(request.surface, ()), request, home)
    return rule if rule is not None and rule.action != "allow" else None


def _index(policy: Policy, kind: str, *, managed: bool = False) -> _Index:
    """The policy's rules (or only the managed layer's) by surface, last first, for one kind
    of session; built once per Policy object and kind."""
    key = (id(policy), kind, managed)
    cached = _INDEXES.get(key)
    if cached is not None and cached[0] is policy:
        return cached[1]
    index: _Index = {}
    for rule in reversed(policy.managed_rules if managed else policy.rules):
        if rule.session in ("", kind):
            index[rule.surface] = (*index.get(rule.surface, ()), rule)
    if len(_INDEXES) > 32:
        _INDEXES.clear()
    _INDEXES[key] = (policy, index)
    return index


def _last_match(rules: tuple[Rule, ...], request: Request, home: str) -> Rule | None:
    if request.surface == "command":
        if not rules:
            return None
        text = render_argv(request.argv)
        named = ""
        if request.argv and "/" in request.argv[0]:
            named = render_argv((command_name(request.argv), *request.argv[1:]))
        for head, rule in _command_heads(rules):
            if not (text.startswith(head) or (named and named.startswith(head))):
                continue
            compiled = compile_command(rule.pattern)
            if compiled.regex.fullmatch(text):
                return rule
            # A rule naming a command catches it run by a path, but only to be stricter:
            # `allow git *` does not cover `./git`, while `ask rm * -*r*` catches `/bin/rm -r`.
            stricter = compiled.by_name and rule.action != "allow"
            if named and stricter and compiled.regex.fullmatch(named):
                return rule
        return None
    for rule in rules:
        if _other_matches(rule.surface, rule.pattern, rule.access, request, home) and (
            not rule.role or request.role in rule.role
        ):
            return rule
    return None


def _command_heads(rules: tuple[Rule, ...]) -> tuple[tuple[str, Rule], ...]:
    """Each command rule with its pattern's literal head, worked out once per index's tuple
    (decide asks for them for every command of every line)."""
    kept = _HEADS.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    heads = tuple((literal_head(rule.pattern), rule) for rule in rules)
    if len(_HEADS) > 64:
        _HEADS.clear()
    _HEADS[id(rules)] = (rules, heads)
    return heads


_HEADS: dict[int, tuple[tuple[Rule, ...], tuple[tuple[str, Rule], ...]]] = {}


def _other_matches(
    surface: str, pattern: str, access: tuple[str, ...], request: Request, home: str
) -> bool:
    """Whether a path or text pattern (with its access filter) matches a non-command request."""
    if surface in ("external_directory", "protected"):
        if access and request.access not in access:
            return False
        if not request.path.startswith(literal_head(pattern, home, path=True)):
            return False
        return compile_path(pattern, home).fullmatch(request.path) is not None
    subject = effect_subject(request) if surface == "effect" else request.text
    if not subject.startswith(literal_head(pattern)):
        return False
    return compile_text(pattern).fullmatch(subject) is not None


def effect_subject(request: Request) -> str:
    """What `effect` rules and approvals match: `kind:target` (`discard:git-worktree`)."""
    return f"{request.kind}:{request.target}"


def _approved_by(
    request: Request, approvals: tuple[ApprovalLike, ...], home: str
) -> ApprovalLike | None:
    text = render_argv(request.argv) if request.surface == "command" else ""
    for approval in approvals:
        if approval.surface != request.surface:
            continue
        if request.surface == "command":
            head = literal_head(approval.pattern)
            if text.startswith(head) and compile_command(approval.pattern).regex.fullmatch(text):
                return approval
            continue
        access = (approval.access,) if approval.access is not None else ()
        if _other_matches(approval.surface, approval.pattern, access, request, home):
            return approval
    return None


def describe(request: Request, *, home: str = "") -> str:
    """One human line for what a request would do."""
    if request.surface == "command":
        return render_argv(request.argv)
    if request.surface == "external_directory":
        via = f" ({request.via})" if request.via else ""
        path = display_path(request.path, home)
        return f"{request.access or 'use'} {path}{via} is outside the workspace"
    if request.surface == "protected":
        via = f" ({request.via})" if request.via else ""
        path = display_path(request.path, home)
        return f"{request.access or 'use'} {path}{via} is a protected path"
    if request.surface == "effect":
        return f"{request.kind} {request.target}: {request.reason} ({request.text})"
    if request.reason:  # the projection says best why this part cannot be known or checked
        return request.reason
    if request.surface == "dynamic":
        where = ROLE_WORDS.get(request.role or "", "")
        return f"{request.text} cannot be known before it runs" + (f" ({where})" if where else "")
    return f"cannot check {request.text!r}"
