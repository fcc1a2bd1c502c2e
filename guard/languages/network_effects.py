"""Network writes: what a line sends to another machine (the `publish` effect, target the host).

`curl`/`wget`/HTTPie with a method other than GET/HEAD or with data or upload options, `sftp`
to a host, `nc HOST PORT` fed input. A plain download sends nothing and is no effect. A host
on this machine (`localhost`, `127.*`, `::1`) is not another machine. Pure: the parsed argv.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from guard.languages.effect_argv import Parsed

_CURL_SENDS = ("-d", "-F", "-T", "--json", "--upload-file", "--form", "--form-string")
_WGET_SENDS = ("--post-data", "--post-file", "--body-data", "--body-file")
_LOWER = frozenset({"get", "head", "post", "put", "patch", "delete", "options"})
_READING_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "DELETE"})  # DELETE is `destroy`
_HOST = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*://)?(?:[^@/?#]*@)?(\[[^]]*\]|[^/:?#]*)")
_LOCAL = re.compile(r"^(localhost|127\.[\d.]+|\[?::1\]?|0\.0\.0\.0|\[::\])$", re.I)
# HTTPie request items that send data: `k=v`, `k:=json`, `k@file`, `k=@file` (not `k==query`)
_HTTPIE_DATA = re.compile(r"^[^=:@]*(?::=@?|=@?|@)(?!=)")


def http_upload(name: str, parsed: Parsed) -> str | None:
    """`http/HOST` when the command sends data or a writing method, else None."""
    values = parsed.values
    ops = list(parsed.operands)
    if name == "curl":
        method = values.get("-X") or values.get("--request")
        sends = any(o in parsed.options for o in _CURL_SENDS) or any(
            o.startswith("--data") for o in parsed.options
        )
        url = values.get("--url") or _first_url(ops)
        sends = sends and not {"-G", "--get"} & parsed.options  # -G: the data is the query
    elif name == "wget":
        method = values.get("--method")
        sends = any(o in parsed.options for o in _WGET_SENDS)
        url = _first_url(ops)
    else:  # HTTPie: [METHOD] URL [ITEMS]
        method = None
        first = ops[0] if ops else None
        if first is not None and first.isalpha() and (first.isupper() or first in _LOWER):
            method, ops = first, ops[1:]
        url = ops[0] if ops else None
        sends = any(item is not None and _HTTPIE_DATA.match(item) for item in ops[1:])
        sends = sends or "--form" in parsed.options or "-f" in parsed.options
    writing = method is not None and method.upper() not in _READING_METHODS
    if not (sends or writing):
        return None
    return _target("http", url, httpie=name not in ("curl", "wget"))


def fed_to_host(parsed: Parsed, fed: bool) -> str | None:
    """`nc HOST PORT` with input: what it reads is sent to HOST (`nc -l` listens instead)."""
    if not fed or {"-l", "--listen", "-z"} & parsed.options:
        return None
    ops = list(parsed.operands)
    if not ops:
        return None
    return _target("tcp", ops[0])


def sftp_host(parsed: Parsed) -> str | None:
    ops = list(parsed.operands)
    return _target("ssh", ops[0]) if ops else None


def _first_url(ops: Sequence[str | None]) -> str | None:
    return ops[0] if ops else None


def _target(kind: str, where: str | None, *, httpie: bool = False) -> str | None:
    if where is None:
        return kind  # not known: anywhere
    if httpie and where.startswith(":"):
        return None  # `http :3000/x` is localhost
    found = _HOST.match(where)
    host = found.group(1) if found else ""
    if not host:
        return kind
    if _LOCAL.match(host):
        return None
    return f"{kind}/{host.lower()}"
