"""Which project policy files a human trusts.

A project's `.guard.toml` lives in the workspace, where an agent may write without asking, so
an untrusted one may only tighten the policy (its allow rules, allow defaults and extra roots
are ignored). `guard policy trust` records the file's content hash in the store; any change
makes it untrusted again. A store that cannot be read means untrusted: fail closed.
"""

from __future__ import annotations

import os
import time

from guard.errors import GuardError


def digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    import hashlib  # only when there is a file to hash

    return hashlib.sha256(data).hexdigest()


def is_trusted(path: str) -> tuple[bool, str]:
    """Whether the file at `path` is trusted as it is now, and a note when it is not."""
    if os.path.islink(path):  # a link could borrow another project's trusted file
        return False, (f"guard: {path} is a symbolic link: its allow rules and roots are "
                       "ignored; make it a plain file, read it, then run `guard policy trust`")
    current = digest(path)
    if current is None:
        return True, ""  # nothing there to trust; a missing file loosens nothing
    from guard.verdict.store.store import Store

    try:
        with Store.open() as store:
            trusted = store.trusted_policy(os.path.realpath(path))
    except GuardError as exc:
        return False, f"{exc} (so {path} may only tighten the policy)"
    if trusted == current:
        return True, ""
    what = "has changed since it was trusted" if trusted else "is not trusted yet"
    return False, (
        f"guard: {path} {what}: its allow rules and roots are ignored; read it, then "
        f"run `guard policy trust` to use them"
    )


def trust(path: str) -> str:
    """Trust the file at `path` as it is now; returns its hash."""
    from guard.verdict.store.store import Store

    if os.path.islink(path):
        raise GuardError(f"guard: {path} is a symbolic link; make it a plain file to trust it")
    current = digest(path)
    if current is None:
        raise GuardError(f"guard: cannot read {path}; check the path")
    with Store.open() as store:
        store.trust_policy(os.path.realpath(path), current, time.time())
    return current
