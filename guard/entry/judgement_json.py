"""A judgement as JSON: the object `guard explain --json` prints, `guard check --json` adds its
final decision to, and the resident checker answers an explain request with: the line, its
workspace, the verdict and one object per request.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from guard.projection import Decided, Projection, Verdict
from guard.verdict import Judgement


def as_json(result: Judgement) -> dict[str, Any]:
    v = result.verdict
    return {
        "command": result.projection.command,
        "cwd": result.projection.cwd,
        "workspace": list(result.projection.workspace),
        "workspace_why": result.workspace_why,
        "session_kind": "agent" if result.context.agent else "interactive",
        "decision": v.decision,
        "reasons": list(v.reasons),
        "requests": [_request_json(d) for d in v.decided],
        "warnings": list(result.warnings + result.notes),
    }


def _request_json(d: Decided) -> dict[str, Any]:
    r = d.request
    out: dict[str, Any] = {
        "surface": r.surface,
        "decision": d.decision,
        "by": d.by,
        "reason": r.reason,
        "span": list(r.span),
    }
    if r.surface == "command":
        out["argv"] = list(r.argv)
    elif r.surface in ("external_directory", "protected"):
        out["path"] = r.path
        out["access"] = r.access
        out["via"] = r.via
    elif r.surface == "effect":
        out["kind"] = r.kind
        out["target"] = r.target
        out["argv"] = list(r.argv)
        out["text"] = r.text
    else:
        out["text"] = r.text
        if r.role:
            out["role"] = r.role
    return out


def _encoder() -> Callable[[Any], str]:
    """`json.dumps(…, ensure_ascii=True)`, with one encoder made once instead of one per call
    (what dumps does). Its answers are data only (no cycles), so it checks for none; where the
    C encoder is missing, dumps itself."""
    from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]

    if c_make_encoder is None:
        return lambda value: json.dumps(value, ensure_ascii=True)
    encode = c_make_encoder(
        None, json.JSONEncoder().default, encode_basestring_ascii, None, ": ", ", ", False, False,
        True,
    )
    return lambda value: "".join(encode(value, 0))


_dumps = _encoder()


def _string_encoder() -> Callable[[str], str]:
    """A str as `_dumps` writes it (the C encoder's own function where there is one)."""
    from json.encoder import c_encode_basestring_ascii  # type: ignore[attr-defined]

    if c_encode_basestring_ascii is None:
        return _dumps
    return c_encode_basestring_ascii  # type: ignore[no-any-return]


_string = _string_encoder()


def _json(value: object) -> str:
    return _string(value) if type(value) is str else _dumps(value)


def _strings(values: tuple[str, ...]) -> str:
    try:  # strings, as they always are: the encoder's own function for each, no frame of ours
        return "[" + ", ".join(map(_string, values)) + "]"
    except TypeError:  # something else among them (no C encoder takes it): as dumps writes it
        return "[" + ", ".join([_json(v) for v in values]) + "]"


def as_json_text(result: Judgement) -> str:
    """`_dumps(as_json(result))`, written out without building the objects first (the hot
    path of `explain --jsonl`, for every line never seen before): the same text, byte for
    byte."""
    v = result.verdict
    p = result.projection
    return "".join(
        (
            '{"command": ', _json(p.command),
            ', "cwd": ', _json(p.cwd),
            ', "workspace": ', _strings(p.workspace),
            ', "workspace_why": ', _json(result.workspace_why),
            ', "session_kind": ', '"agent"' if result.context.agent else '"interactive"',
            ', "decision": ', _json(v.decision),
            ', "reasons": ', _strings(v.reasons),
            ', "requests": [', ", ".join([_request_text(d) for d in v.decided]),
            '], "warnings": ', _strings(result.warnings + result.notes),
            "}",
        )
    )  # fmt: skip


def _request_text(d: Decided) -> str:
    """`_request_json(d)` as `_dumps` writes it."""
    r = d.request
    start, end = r.span
    if type(start) is not int or type(end) is not int:
        return _dumps(_request_json(d))
    try:  # the fields every request has are strings: the encoder's function, no frame of ours
        head = (
            f'{{"surface": {_string(r.surface)}, "decision": {_string(d.decision)}, '
            f'"by": {_string(d.by)}, "reason": {_string(r.reason)}, "span": [{start}, {end}]'
        )
    except TypeError:
        return _dumps(_request_json(d))
    if r.surface == "command":
        return f'{head}, "argv": {_strings(r.argv)}}}'
    if r.surface in ("external_directory", "protected"):
        return (
            f'{head}, "path": {_json(r.path)}, "access": {_json(r.access)}, '
            f'"via": {_json(r.via)}}}'
        )
    if r.surface == "effect":
        return (
            f'{head}, "kind": {_json(r.kind)}, "target": {_json(r.target)}, '
            f'"argv": {_strings(r.argv)}, "text": {_json(r.text)}}}'
        )
    if r.role:
        return f'{head}, "text": {_json(r.text)}, "role": {_json(r.role)}}}'
    return f'{head}, "text": {_json(r.text)}}}'


class JsonLines:
    """`as_json` as one line of ASCII JSON, kept for the next judgement made of the same
    projection and verdict (the same objects: a long-lived process keeps both while nothing
    they stand for changed) with the same workspace reason, session kind and messages."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[object, ...], tuple[Projection, Verdict, str]] = OrderedDict()

    def line(self, result: Judgement) -> str:
        projection, verdict = result.projection, result.verdict
        key = (
            id(projection),
            id(verdict),
            result.workspace_why,
            result.context.agent,
            result.warnings,
            result.notes,
        )
        kept = self._kept.get(key)
        if kept is not None and kept[0] is projection and kept[1] is verdict:
            return kept[2]
        text = as_json_text(result) + "\n"
        if len(self._kept) >= 1024:
            self._kept.popitem(last=False)  # the oldest
        self._kept[key] = (projection, verdict, text)
        return text
