"""The protected list's `match` names the entry each path pattern says covers the path.

`ProtectedPaths` matches one joined regex per kind of access, and looks for the entries that
hold in any directory (`.env`, `.git/hooks`) by searching for them, not by matching the whole
path: these tests hold its answers to the patterns read one entry at a time, as written
(guard/projection/patterns.py), over many paths made of the names the list holds.
"""

from __future__ import annotations

import random

from guard.policy.files import combine
from guard.policy.shipped_policy import default_layer
from guard.projection.patterns import path_matches
from guard.projection.protected import ProtectedPath, ProtectedPaths, covered_pattern

H = "/h/u"
ENTRIES = (
    *combine([default_layer()]).protected,
    ProtectedPath("deploy/**/secrets", ("write",), "test"),
    ProtectedPath("/srv/*/keys", (), "test"),
)
NAMES = ["h", "u", ".env", ".env.local", ".env.example", "x.pem", ".git", "hooks", "config",
         ".ssh", "id_rsa", "etc", "shadow", "sudoers.d", "cron.daily", "proc", "1", "mem",
         ".bashrc", "src", "dev", "sda1", "deploy", "secrets", "srv", "keys", ".aws", "a\nb",
         "credentials", "b.key", "", "."]


def covering(path: str, access: str) -> bool:
    """Whether an entry covers `access` to `path`, each entry's pattern matched alone."""
    excepted = any(
        path_matches(covered_pattern(e.pattern[1:]), path, home=H)
        for e in ENTRIES
        if e.agent_only and e.pattern.startswith("!")
    )
    for entry in ENTRIES:
        if entry.pattern.startswith("!") or (entry.access and access not in entry.access):
            continue
        if entry.access == ("read",) and excepted:
            continue
        if path_matches(covered_pattern(entry.pattern), path, home=H):
            return True
    return False


def test_match_agrees_with_each_entry_read_alone() -> None:
    protected = ProtectedPaths(ENTRIES, H)
    r = random.Random(27)
    hits = 0
    for _ in range(4000):
        path = "/".join(r.choice(NAMES) for _ in range(r.randint(1, 7)))
        path = ("/" + path) if r.random() < 0.9 else path
        for access in ("read", "write", "execute"):
            found = protected.match(path, access) is not None
            assert found == covering(path, access), (path, access)
            hits += found
    assert hits > 500  # the paths reach the entries: the test can fail


def test_an_entry_in_any_directory_covers_what_is_below_it_and_nothing_beside_it() -> None:
    protected = ProtectedPaths(ENTRIES, H)
    assert protected.match("/w/proj/.env", "read") is not None
    assert protected.match("/w/proj/.env/x", "read") is not None
    assert protected.match("/w/proj/.envrc", "read") is None
    assert protected.match("/w/proj/x.env", "read") is None
    assert protected.match("/w/proj/.env.example", "read") is None
    assert protected.match("/w/.git/hooks/pre-commit", "write") is not None
    assert protected.match("/w/.git/hooksx", "write") is None
