"""A session's word on its store, kept across its processes in a private runtime folder."""

from __future__ import annotations

import os
from pathlib import Path

from guard.verdict.store import trouble as trouble

STORE = "/state/guard.db"


def folder() -> Path:
    return Path(os.environ["XDG_RUNTIME_DIR"]) / "guard" / trouble.FOLDER


def test_nothing_is_known_of_a_new_session() -> None:
    assert trouble.state("s1", STORE) == ("", "")


def test_a_problem_is_told_once_per_session_and_again_when_it_changes() -> None:
    assert trouble.tell("s1", STORE, "damaged")
    assert not trouble.tell("s1", STORE, "damaged")
    assert trouble.tell("s2", STORE, "damaged")  # another session
    assert trouble.tell("s1", STORE, "the disk is full")  # another problem
    trouble.worked("s1", STORE)
    assert trouble.state("s1", STORE) == ("ok", "")
    assert trouble.tell("s1", STORE, "the disk is full")  # back after the store worked


def test_a_row_lost_late_is_left_for_the_next_line_unless_it_was_told() -> None:
    trouble.worked("s1", STORE)
    trouble.failed("s1", STORE, "damaged")
    assert trouble.state("s1", STORE) == ("failed", "damaged")
    assert trouble.tell("s1", STORE, "damaged")
    trouble.failed("s1", STORE, "damaged")
    assert trouble.state("s1", STORE) == ("told", "damaged")


def test_what_is_known_of_one_store_says_nothing_of_another() -> None:
    trouble.worked("s1", STORE)
    assert trouble.state("s1", "/elsewhere/guard.db") == ("", "")


def test_the_folder_is_private_and_a_session_of_any_name_has_one_file() -> None:
    for session in ("ppid-1-2-abc", "../../etc/passwd", "a/b", ".hidden", "x" * 500, "é"):
        trouble.worked(session, STORE)
        assert trouble.state(session, STORE) == ("ok", "")
    assert folder().stat().st_mode & 0o777 == 0o700
    assert folder().parent.stat().st_mode & 0o777 == 0o700
    names = sorted(p.name for p in folder().iterdir())
    assert len(names) == 6 and all("/" not in n and not n.startswith(".") for n in names)


def test_a_folder_others_may_write_is_not_believed_and_every_line_tells() -> None:
    trouble.worked("s1", STORE)
    folder().chmod(0o777)
    assert trouble.state("s1", STORE) == ("", "")
    assert trouble.tell("s1", STORE, "damaged")
    assert trouble.tell("s1", STORE, "damaged")


def test_files_of_sessions_long_gone_go_when_a_new_session_comes() -> None:
    trouble.worked("old", STORE)
    trouble.worked("recent", STORE)
    week = trouble.KEPT_SECONDS + 60
    os.utime(folder() / "old", (1.0, os.stat(folder() / "old").st_mtime - week))
    trouble.worked("recent", STORE)  # known: nothing else is looked at
    assert (folder() / "old").exists()
    trouble.worked("new", STORE)
    assert sorted(p.name for p in folder().iterdir()) == ["new", "recent"]
    assert trouble.state("old", STORE) == ("", "")  # then it writes its rows first again
