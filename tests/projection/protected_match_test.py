"""The protected list's `match` names the entry each path pattern says covers the path.

`ProtectedPaths` matches one joined regex per kind of access, and looks for the entries that
hold in any directory (`.env`, `.git/hooks`) by searching for them, not by matching the whole
path: these tests hold its answers to the patterns read one entry at a time, as written
(guard/projection/patterns.py), over many paths made of the names the list holds.
"""

from __future__ import annotations

import random
import re

from guard.policy.files import combine
from guard.policy.shipped_policy import default_layer
from guard.projection.patterns import path_matches
from guard.projection.protected import (
    ProtectedPath,
    ProtectedPaths,
    _branches,
    _joined,
    covered_pattern,
)

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


def test_entries_are_joined_as_written_unless_a_branch_would_take_in_the_others() -> None:
    # joined without a group of its own, a regex with a `|` outside its groups would make its
    # second half an entry of its own: `a|b` joined with `c` must still need `a` or `b` whole
    assert not _branches(r"/h/u/\.ssh(?:/.*)?")
    assert not _branches(r"/x[|](?:a|b)")
    assert not _branches(r"/x[]|](?:a|b)")
    assert not _branches(r"/x[^]|]")
    assert not _branches(r"/x\|y")
    assert _branches(r"/a|/b")
    assert _branches(r"/x[a]|/b")
    assert _branches(r"(?:a)|b")
    assert _branches(r"[^]]|b")
    joined = _joined([r"/a/b|/c", r"/d"])
    assert joined is not None
    assert joined.fullmatch("/c") and joined.fullmatch("/d") and joined.fullmatch("/a/b")
    assert not joined.fullmatch("/a/b|/c")


def test_joined_entries_match_what_any_of_them_matches() -> None:
    # units a path pattern's regex is made of, and others a regex may hold, shared or not
    units = ["/", "a", "b", r"\.", "[^/]*", "[]a]", "[]b]", "[^]b]+", "a{2}", "a{2}?", "a{1,2}",
             "b{1,2}?", "a*", "a*?", "b?",
             "(?:/.*)?", "(?=/|\\Z)", "(?:a|b)", ".", "[ab]"]
    r = random.Random(27)
    texts = ["".join(r.choice("ab/.]") for _ in range(r.randint(0, 6))) for _ in range(80)]
    for _ in range(1500):
        # beginnings shared, as a protected list's are (the home directory, a `/`)
        shared = "".join(r.choice(units) for _ in range(r.randint(0, 3)))
        regexes = [shared + "".join(r.choice(units) for _ in range(r.randint(0, 3)))
                   for _ in range(r.randint(1, 6))]
        if r.random() < 0.2:
            regexes.append(r.choice(regexes) + "|" + r.choice(units))
        joined = _joined(regexes)
        assert joined is not None
        for text in texts:
            alone = any(re.fullmatch(x, text, re.DOTALL) for x in regexes)
            assert (joined.fullmatch(text) is not None) == alone, (regexes, text, joined.pattern)
            alone = any(re.search(x, text, re.DOTALL) for x in regexes)
            assert (joined.search(text) is not None) == alone, (regexes, text, joined.pattern)
