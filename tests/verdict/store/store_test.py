"""The approvals store: where it lives, what it keeps, how long session approvals last."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from guard.errors import GuardError
from guard.verdict.store.file import default_store_path
from guard.verdict.store.schema import IDLE_SECONDS, SCHEMA_VERSION, Approval
from guard.verdict.store.store import Store

T0 = 1_700_000_000.0


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "state" / "guard.db") as opened:
        yield opened


def grant(store: Store, pattern: str, *, session: str | None = "s1", scope: str = "session",
          surface: str = "command", access: str | None = None, now: float = T0) -> int:
    return store.grant(session=session, scope=scope, surface=surface, pattern=pattern,
                       access=access, granted_by="human", command=f"run {pattern}", now=now)


def patterns(approvals: tuple[Approval, ...]) -> list[str]:
    return [a.pattern for a in approvals]


# -- where it lives ---------------------------------------------------------------------------


def test_the_store_lives_in_guard_state_dir_when_it_is_set(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUARD_STATE_DIR", str(tmp_path / "elsewhere"))
    assert default_store_path() == tmp_path / "elsewhere" / "guard.db"


def test_the_store_lives_in_the_user_state_dir_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GUARD_STATE_DIR")
    # conftest points XDG_STATE_HOME into this test's temp dir; platformdirs follows it on Linux
    expected = Path(os.environ["XDG_STATE_HOME"]) / "guard" / "guard.db"
    if os.uname().sysname == "Linux":
        assert default_store_path() == expected
    assert default_store_path().name == "guard.db"


def test_a_relative_guard_state_dir_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUARD_STATE_DIR", "state")
    with pytest.raises(GuardError, match=r"^guard: GUARD_STATE_DIR must be an absolute path"):
        default_store_path()


def test_open_without_a_path_uses_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    with Store.open() as opened:
        assert opened.path == Path(os.environ["GUARD_STATE_DIR"]) / "guard.db"
    assert (Path(os.environ["GUARD_STATE_DIR"]) / "guard.db").is_file()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_directory_is_0700_and_the_files_0600(tmp_path: Path) -> None:
    path = tmp_path / "new" / "guard.db"
    old = os.umask(0o022)
    try:
        with Store.open(path) as opened:
            grant(opened, "git push *")  # a write makes the -wal and -shm files
            assert mode(path.parent) == 0o700
            assert {p.name: mode(p) for p in path.parent.iterdir()} == {
                "guard.db": 0o600, "guard.db-wal": 0o600, "guard.db-shm": 0o600}
    finally:
        os.umask(old)


def test_a_store_left_readable_by_others_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "guard.db"
    Store.open(path).close()
    path.chmod(0o644)
    with Store.open(path) as opened:
        grant(opened, "make *")
        assert mode(path) == 0o600
        assert mode(Path(f"{path}-wal")) == 0o600


STATE_DIRS = [
    # mode of an existing state dir, what else is in it, what guard does: the mode after, or refused
    (0o777, (), 0o700),  # ours and empty: tightened
    (0o775, ("guard.db",), 0o700),  # ours, holding only the store: tightened
    (0o757, ("notes.txt",), None),  # other files in it: not ours to chmod, refused
    (0o1777, (), None),  # a shared directory such as /tmp: refused, never chmod-ed
    (0o755, (), 0o755),  # nobody else can write it: left alone
]


@pytest.mark.parametrize(("before", "files", "after"), STATE_DIRS)
def test_a_state_dir_others_can_write_is_tightened_or_refused(
    tmp_path: Path, before: int, files: tuple[str, ...], after: int | None
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    for name in files:
        if name == "guard.db":
            Store.open(state / name).close()
        else:
            (state / name).write_text("x")
    state.chmod(before)
    done = subprocess.run(
        [sys.executable, "-m", "guard", "approvals", "list"], capture_output=True, text=True,
        env={**os.environ, "GUARD_STATE_DIR": str(state)}, timeout=60, check=False,
    )  # fmt: skip
    if after is None:
        assert done.returncode == 1
        assert done.stderr.startswith(f"guard: the state directory {state} can be written by ")
        assert f"chmod 700 {state}" in done.stderr and done.stderr.count("\n") == 1
        assert mode(state) == before  # left as it was, and no store made in it
        assert not (state / "guard.db").exists()
    else:
        assert (done.returncode, done.stdout) == (0, "no approvals\n")
        assert mode(state) == after


def test_a_fresh_store_has_the_current_schema_in_wal_mode(store: Store) -> None:
    con = sqlite3.connect(store.path)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        con.close()
    assert {"sessions", "approvals", "audit", "pending"} <= tables


def test_reopening_keeps_what_was_stored(tmp_path: Path) -> None:
    path = tmp_path / "guard.db"
    with Store.open(path) as first:
        grant(first, "git push *", scope="always", session=None)
    with Store.open(path) as second:
        assert patterns(second.list_approvals()) == ["git push *"]
        assert second.check() == ()


# -- approvals --------------------------------------------------------------------------------


def test_a_session_sees_its_own_approvals_and_the_always_ones(store: Store) -> None:
    grant(store, "git push *", session="s1")
    grant(store, "npm run build *", session="s2")
    grant(store, "make *", scope="always", session=None)
    grant(store, "/etc/hosts", scope="always", session=None, surface="external_directory",
          access="read")
    assert patterns(store.approvals("s1", T0)) == ["git push *", "make *", "/etc/hosts"]
    assert patterns(store.approvals("s2", T0)) == ["npm run build *", "make *", "/etc/hosts"]
    assert patterns(store.approvals("s3", T0)) == ["make *", "/etc/hosts"]
    assert patterns(store.approvals(None, T0)) == ["make *", "/etc/hosts"]


def test_an_approval_comes_back_as_it_was_granted(store: Store) -> None:
    number = store.grant(session="s1", scope="session", surface="external_directory",
                         pattern="/srv/data/**", access="write", granted_by="ana",
                         command="cp x /srv/data/", now=T0)
    assert store.approvals("s1", T0) == (
        Approval(id=number, session="s1", scope="session", surface="external_directory",
                 pattern="/srv/data/**", access="write", granted_by="ana", granted_at=T0,
                 command="cp x /srv/data/"),
    )


def test_an_always_grant_belongs_to_no_session(store: Store) -> None:
    grant(store, "make *", scope="always", session="s1")
    (approval,) = store.list_approvals()
    assert (approval.scope, approval.session) == ("always", None)


@pytest.mark.parametrize(
    ("seconds_later", "idle_seconds", "visible"),
    [
        (0, IDLE_SECONDS, True),
        (IDLE_SECONDS - 1, IDLE_SECONDS, True),
        (IDLE_SECONDS, IDLE_SECONDS, True),
        (IDLE_SECONDS + 1, IDLE_SECONDS, False),
        (61, 60, False),
        (59, 60, True),
    ],
)
def test_session_approvals_last_until_the_session_is_idle_too_long(
    store: Store, seconds_later: float, idle_seconds: float, visible: bool
) -> None:
    grant(store, "git push *")
    grant(store, "make *", scope="always", session=None)
    expected = ["git push *", "make *"] if visible else ["make *"]
    assert patterns(store.approvals("s1", T0 + seconds_later, idle_seconds)) == expected


def test_activity_keeps_session_approvals_alive(store: Store) -> None:
    grant(store, "git push *")
    for hour in range(1, 49):
        store.touch_session("s1", T0 + hour * 3600)
    assert patterns(store.approvals("s1", T0 + 48 * 3600 + IDLE_SECONDS)) == ["git push *"]


def test_a_session_back_from_idle_does_not_get_its_approvals_back(store: Store) -> None:
    grant(store, "git push *")
    later = T0 + IDLE_SECONDS + 1
    assert store.approvals("s1", later) == ()
    store.touch_session("s1", later)
    assert store.approvals("s1", later) == ()
    assert store.list_approvals("s1") == ()


def test_a_late_touch_never_moves_last_seen_backwards(store: Store) -> None:
    store.touch_session("s1", T0 + 100, "/srv/app", workspace="/srv/app")
    store.touch_session("s1", T0, "/tmp")
    session = store.session("s1")
    assert session is not None
    assert (session.first_seen, session.last_seen) == (T0 + 100, T0 + 100)
    assert (session.cwd, session.workspace) == ("/srv/app", "/srv/app")  # where it began
    assert store.session("nobody") is None


def test_granting_the_same_thing_twice_keeps_one_row(store: Store) -> None:
    cases = [
        dict(pattern="git push *"),
        dict(pattern="make *", scope="always", session=None),
        dict(pattern="/etc", surface="external_directory", access="read"),
        dict(pattern="/etc", surface="external_directory", access="read", scope="always",
             session=None),
    ]
    first = [grant(store, **case) for case in cases]  # type: ignore[arg-type]
    again = [grant(store, **case, now=T0 + 5) for case in cases]  # type: ignore[arg-type]
    assert first == again
    assert len(store.list_approvals()) == len(cases)


def test_grants_that_differ_in_any_part_are_distinct(store: Store) -> None:
    grant(store, "/etc", surface="external_directory", access="read")
    grant(store, "/etc", surface="external_directory", access="write")
    grant(store, "/etc", surface="external_directory", access=None)
    grant(store, "/etc", surface="external_directory", access="read", session="s2")
    grant(store, "/etc", surface="external_directory", access="read", scope="always",
          session=None)
    assert len(store.list_approvals()) == 5


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (dict(scope="forever"), "scope"),
        (dict(surface="files"), "surface"),
        (dict(access="delete"), "access"),
        (dict(session=None), "session"),
    ],
)
def test_a_malformed_grant_is_refused(store: Store, change: dict[str, object],
                                      complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        grant(store, "x", **change)  # type: ignore[arg-type]
    assert store.list_approvals() == ()


def test_revoke_removes_one_approval_and_says_whether_it_existed(store: Store) -> None:
    keep = grant(store, "make *")
    drop = grant(store, "git push *")
    assert store.revoke(drop) is True
    assert store.revoke(drop) is False
    assert [a.id for a in store.list_approvals()] == [keep]


def test_a_revoked_id_is_never_given_out_again(store: Store) -> None:
    drop = grant(store, "git push *")
    store.revoke(drop)
    assert grant(store, "make *") > drop


def test_clear_removes_one_sessions_approvals_or_all(store: Store) -> None:
    grant(store, "a", session="s1")
    grant(store, "b", session="s1")
    grant(store, "c", session="s2")
    grant(store, "d", scope="always", session=None)
    assert store.clear("s1") == 2
    assert patterns(store.list_approvals()) == ["c", "d"]
    assert store.clear() == 2
    assert store.list_approvals() == ()


def test_listing_for_a_session_shows_its_approvals_even_when_idle(store: Store) -> None:
    grant(store, "a", session="s1")
    grant(store, "b", session="s2")
    grant(store, "c", scope="always", session=None)
    assert patterns(store.list_approvals("s1")) == ["a", "c"]
    assert patterns(store.list_approvals()) == ["a", "b", "c"]


# -- audit ------------------------------------------------------------------------------------


def record(store: Store, command: str, *, session: str = "s1", time: float = T0) -> int:
    return store.record(time=time, session=session, cwd="/srv/app", command=command,
                        decision="ask", reasons=("writes ~/.bashrc", "runs «sudo»"), how="human")


def test_the_log_shows_the_newest_verdicts_first(store: Store) -> None:
    for n in range(5):
        record(store, f"echo {n}", session="s1" if n % 2 else "s2", time=T0 + n)
    assert [r.command for r in store.log()] == [f"echo {n}" for n in (4, 3, 2, 1, 0)]
    assert [r.command for r in store.log(limit=2)] == ["echo 4", "echo 3"]
    assert [r.command for r in store.log("s1")] == ["echo 3", "echo 1"]
    assert store.log("nobody") == ()


def test_an_audit_row_comes_back_as_it_was_written(store: Store) -> None:
    number = store.record(time=T0, session="s1", cwd="/srv/app", command="rm -rf ~/x",
                          decision="deny", reasons=("writes ~/x", "naïve \"quote\""),
                          how="no-terminal", detail={"timeout": 30, "tty": None})
    (row,) = store.log()
    assert (row.id, row.time, row.session, row.cwd, row.command, row.decision, row.reasons,
            row.how) == (number, T0, "s1", "/srv/app", "rm -rf ~/x", "deny",
                         ("writes ~/x", "naïve \"quote\""), "no-terminal")
    assert row.detail == '{"timeout": 30, "tty": null}'
    record(store, "ls")
    assert store.log()[0].detail == ""


# -- schema upgrades and imports ----------------------------------------------------------------


def test_a_later_version_upgrades_an_existing_store_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import guard.verdict.store.store as module

    path = tmp_path / "guard.db"
    with Store.open(path) as old:
        grant(old, "make *", scope="always", session=None)
    step = ("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)",)
    monkeypatch.setattr(module, "MIGRATIONS", (*module.MIGRATIONS, step))
    monkeypatch.setattr(module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with Store.open(path) as new:
        assert patterns(new.list_approvals()) == ["make *"]
    con = sqlite3.connect(path)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
        assert con.execute("SELECT count(*) FROM notes").fetchone()[0] == 0
    finally:
        con.close()


def test_opening_the_store_does_not_import_platformdirs_when_guard_state_dir_is_set() -> None:
    code = ("import sys; from guard.verdict.store.store import Store; Store.open().close(); "
            "print('platformdirs' in sys.modules)")
    repo = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONPATH": str(repo)}, timeout=60)
    assert done.stdout.strip() == "False"
