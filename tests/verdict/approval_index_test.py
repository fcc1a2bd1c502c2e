"""Approvals indexed: the index finds exactly what a scan of every approval finds, with many of
them, in a real store with 100,000, and an older store upgrades in place."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guard.projection.requests import Request
from guard.verdict.approval_index import ApprovalIndex, stored_key
from guard.verdict.cache.line_cache import LineCache
from guard.verdict.decision import _approved_by
from guard.verdict.judgement import judge
from guard.verdict.store.schema import MIGRATIONS, SCHEMA_VERSION
from guard.verdict.store.store import Store

HOME = "/h/u"


class A(NamedTuple):
    id: int
    scope: str
    surface: str
    pattern: str
    access: str | None


WORDS = ["git", "git status", "npm", "make", "ls", "cat", "rm", "tool", "x y", "-r", "--force"]
PATHS = ["/etc", "/etc/hosts", "/srv/data", "~", "~/notes", "/", "/var/log/syslog", "/tmp"]
command_patterns = st.builds(
    lambda words, tail: " ".join(words) + tail,
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    st.sampled_from(["", " *", "*", " -*", " ?", "\\*"]),
)
path_patterns = st.builds(
    lambda base, tail: base + tail,
    st.sampled_from(PATHS),
    st.sampled_from(["", "/**", "/*", "*", "/h*", "/x"]),
)
approvals = st.lists(
    st.one_of(
        st.tuples(st.just("command"), command_patterns, st.none()),
        st.tuples(
            st.just("external_directory"),
            path_patterns,
            st.sampled_from([None, "read", "write"]),
        ),
        st.tuples(st.just("dynamic"), st.sampled_from(["$x", "$(date)", "$x *", "*"]), st.none()),
    ),
    max_size=120,
)
requests = st.one_of(
    st.builds(
        lambda argv: Request("command", (0, 1), "", argv=tuple(argv)),
        st.lists(st.sampled_from(["git", "status", "npm", "ls", "-r", "x", "y", "*"]), min_size=1),
    ),
    st.builds(
        lambda path, access: Request(
            "external_directory", (0, 1), "", path=path, access=access, via="cat"
        ),
        st.sampled_from(
            [
                "/etc",
                "/etc/hosts",
                "/etc/x/y",
                "/h/u",
                "/h/u/notes",
                "/h/u/notes/a",
                "/tmp/h1",
                "/srv/data/x",
                "/var/log/syslog",
                "/h/uother",
            ]
        ),
        st.sampled_from(["read", "write"]),
    ),
    st.builds(
        lambda text: Request("dynamic", (0, 1), "", text=text),
        st.sampled_from(["$x", "$(date)", "$x y", "$y"]),
    ),
)


@settings(max_examples=300, deadline=None)
@given(approvals, st.lists(requests, min_size=1, max_size=8))
def test_the_index_finds_what_a_scan_finds(
    given_approvals: list[tuple[str, str, str | None]], asked: list[Request]
) -> None:
    rows = tuple(A(n + 1, "always", s, p, a) for n, (s, p, a) in enumerate(given_approvals))
    index = ApprovalIndex(rows, HOME)
    for request in asked:
        assert index.match(request) == _approved_by(request, rows, HOME), request


def fill(path: Path, count: int) -> None:
    """`count` always-approvals straight into a real store, as many grants would leave it; the
    first thousand without their lookup key, as an older guard still running would write them."""
    with Store.open(path):
        pass
    rows = [
        ("command", f"tool{n} run *", None)
        if n % 2
        else ("external_directory", f"/srv/d{n}/**", "read")
        for n in range(count)
    ]
    con = sqlite3.connect(path)
    with con:
        con.executemany(
            "INSERT INTO approvals (session, scope, surface, pattern, access, granted_by, "
            "granted_at, command, lookup) VALUES (NULL, 'always', ?, ?, ?, 'human', 0, '', ?)",
            [(*r, None if n < 1000 else stored_key(r[0], r[1])) for n, r in enumerate(rows)],
        )
    con.close()


@settings(max_examples=40, deadline=None)
@given(approvals, st.lists(requests, min_size=1, max_size=8))
def test_the_store_reads_every_approval_that_may_match(
    given_approvals: list[tuple[str, str, str | None]], asked: list[Request]
) -> None:
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "guard.db") as store:
        for surface, pattern, access in given_approvals:
            store.grant(
                session=None,
                scope="always",
                surface=surface,
                pattern=pattern,
                access=access,
                granted_by="human",
                command="",
                now=0,
            )
        every = store.approvals(None, 0)
        for request in asked:
            some = store.approvals(None, 0, matching=[request], home=HOME)
            assert _approved_by(request, some, HOME) == _approved_by(request, every, HOME)


def test_a_hundred_thousand_approvals_answer_rightly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUARD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("GUARD_WORKSPACE", str(tmp_path))
    (tmp_path / "state").mkdir()
    policy = tmp_path / "policy.toml"  # these tools ask, unless approved
    policy.write_text('[[rules]]\nsurface = "command"\npattern = "tool*"\naction = "ask"\n')
    monkeypatch.setenv("GUARD_CONFIG", str(policy))
    fill(tmp_path / "state" / "guard.db", 100_000)
    cache = LineCache()
    try:
        expected = {
            "tool99999 run fast": "allow",  # the last one granted
            "tool7 run": "allow",
            "tool8 run x": "ask",  # even numbers are paths
            "tool7 walk": "ask",
            "tool1 run": "allow",  # filed before the lookup key existed
            "cat /srv/d4/x/y": "allow",
            "cat /srv/d5/x": "ask",
            "cat /srv/d998/a": "allow",
            "echo hi > /srv/d4/x": "ask",  # read only
        }
        for _ in range(2):  # loaded once, then from memory: the same answers
            for line, decision in expected.items():
                verdict = judge(line, cwd=str(tmp_path), session="s1", cache=cache).verdict
                assert verdict.decision == decision, line
        for line, decision in expected.items():  # a fresh process reads only what may match
            assert judge(line, cwd=str(tmp_path), session="s1").verdict.decision == decision
    finally:
        cache.close()


def test_an_approval_granted_or_revoked_elsewhere_counts_on_the_next_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUARD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("GUARD_WORKSPACE", str(tmp_path))
    cache = LineCache()
    try:
        line = "cat /etc/hosts"
        assert judge(line, cwd=str(tmp_path), session="s1", cache=cache).verdict.decision == "ask"
        with Store.open() as other:  # another process's connection
            granted = other.grant(
                session=None,
                scope="always",
                surface="external_directory",
                pattern="/etc/hosts",
                access="read",
                granted_by="human",
                command=line,
                now=0,
            )
        assert judge(line, cwd=str(tmp_path), session="s1", cache=cache).verdict.decision == "allow"
        with Store.open() as other:
            other.revoke(granted)
        assert judge(line, cwd=str(tmp_path), session="s1", cache=cache).verdict.decision == "ask"
    finally:
        cache.close()


def test_a_store_of_the_previous_schema_is_upgraded_with_its_approvals(tmp_path: Path) -> None:
    path = tmp_path / "guard.db"
    con = sqlite3.connect(path)
    for step in range(SCHEMA_VERSION - 1):
        for statement in MIGRATIONS[step]:
            con.execute(statement)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    con.execute(
        "INSERT INTO approvals (session, scope, surface, pattern, access, granted_by, "
        "granted_at, command) VALUES (NULL, 'always', 'command', 'make *', NULL, 'human', 0, '')"
    )
    con.commit()
    con.close()
    with Store.open(path) as store:
        assert [a.pattern for a in store.approvals(None, 0)] == ["make *"]
        before, _ = store.approvals_state("s")
        store.grant(
            session=None,
            scope="always",
            surface="command",
            pattern="ls *",
            access=None,
            granted_by="cli",
            command="",
            now=0,
        )
        after, _ = store.approvals_state("s")
        assert after != before
        names = {r[0] for r in store._con.execute("SELECT name FROM sqlite_master")}
        assert "approvals_lookup" in names


def test_approvals_list_pages(tmp_path: Path) -> None:
    with Store.open(tmp_path / "guard.db") as store:
        for n in range(25):
            store.grant(
                session=None,
                scope="always",
                surface="command",
                pattern=f"t{n} *",
                access=None,
                granted_by="cli",
                command="",
                now=0,
            )
        page = store.list_approvals(limit=10, offset=20)
        assert [a.pattern for a in page] == [f"t{n} *" for n in range(20, 25)]
        assert len(store.list_approvals()) == 25 == store.count_approvals()
