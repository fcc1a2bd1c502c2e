"""A long-lived process's realpath (guard/verdict/cache/resolved_paths.py) answers as
os.path.realpath does, on the first line and on every later one, whatever changed on disk
in between."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from guard.verdict.cache.line_cache import LineCache
from guard.verdict.cache.resolved_paths import Links
from guard.verdict.judgement import judge


def tree(root: Path) -> list[str]:
    """A directory with links of every kind, and the paths to ask about in it."""
    (root / "real" / "sub").mkdir(parents=True)
    (root / "real" / "file").write_text("x")
    (root / "abs").symlink_to(root / "real")
    (root / "rel").symlink_to("real/sub")
    (root / "up").symlink_to("real/sub/..")
    (root / "chain").symlink_to("abs")
    (root / "dangling").symlink_to("nowhere/deeper")
    (root / "loop1").symlink_to("loop2")
    (root / "loop2").symlink_to("loop1")
    (root / "real" / "back").symlink_to("../rel")
    names = [
        "real", "real/sub", "real/file", "real/file/below", "abs", "abs/sub", "abs/../x",
        "rel", "rel/..", "rel/../file", "up", "up/sub", "chain/sub", "chain/back/x", "dangling",
        "dangling/more", "loop1", "loop1/x", "missing", "missing/a/b", "real/missing/a",
        "real/./sub//x/", "real/back/../..", ".", "", "real/" + "../" * 40 + "tmp",
        "up/" + "../" * 40, "rel/../../" + "/.." * 40 + "/./",
    ]  # fmt: skip
    return [str(root / name) if name else str(root) + "/" for name in names]


def changes(root: Path) -> list[Callable[[], None]]:
    """Edits that change where some of tree()'s paths lead."""

    def retarget() -> None:
        (root / "abs").unlink()
        (root / "abs").symlink_to(root / "real" / "sub")

    def dir_to_link() -> None:
        (root / "real").rename(root / "moved")
        (root / "real").symlink_to("moved/sub")

    def missing_appears() -> None:
        (root / "missing").symlink_to("real")

    def dangling_lands() -> None:
        (root / "nowhere").symlink_to("real")

    def loop_breaks() -> None:
        (root / "loop2").unlink()
        (root / "loop2").mkdir()

    def file_in_the_way() -> None:  # real/missing/a: not there, and now cannot be
        (root / "moved" / "sub" / "missing").write_text("x")

    return [retarget, dir_to_link, missing_appears, dangling_lands, loop_breaks, file_in_the_way]


@pytest.mark.parametrize("in_line", [True, False])
def test_every_answer_is_realpaths_before_and_after_each_change(
    tmp_path: Path, in_line: bool
) -> None:
    paths = tree(tmp_path)
    links = Links()

    def ask() -> None:
        for _ in range(2):  # the first asking keeps the answer, the second uses it
            if in_line:
                links.begin()
            try:
                for path in paths:
                    assert links.realpath(path) == os.path.realpath(path), path
            finally:
                links.end()

    ask()
    for change in changes(tmp_path):
        change()
        ask()


def test_walks_from_a_directory_the_kernel_vouches_for_answer_as_realpath(tmp_path: Path) -> None:
    """With the disk watched, a line whose surroundings (here: where the directory leads) are
    vouched for walks its paths from that directory on, and answers as realpath does, before
    and after each change below it."""
    paths = tree(tmp_path)
    links = Links()
    links.watch_disk()
    if not links.watching:
        pytest.skip("the kernel cannot tell of changes here (no inotify)")
    links.begin()
    links.record()
    links.realpath(str(tmp_path))
    answered = links.recorded()
    links.end()
    assert answered is not None

    def ask() -> None:
        for _ in range(3):  # asked afresh under the watch, then vouched for
            links.begin()
            try:
                assert links.still(answered)
                for path in paths:
                    assert links.realpath(path) == os.path.realpath(path), path
            finally:
                links.end()

    ask()
    for change in changes(tmp_path):
        change()
        ask()
    links.close()


def test_a_link_retargeted_between_two_lines_moves_the_next_lines_access(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (tmp_path / "outside").mkdir()
    (ws / "notes").mkdir()
    (ws / "here").symlink_to(ws / "notes")
    monkeypatch.setenv("GUARD_WORKSPACE", str(ws))
    cache = LineCache()

    def outside() -> list[str]:
        result = judge("cat here/a.txt", cwd=str(ws), cache=cache, use_store=False)
        return [d.request.path for d in result.verdict.decided if d.request.path]

    assert outside() == []
    assert outside() == []  # kept
    (ws / "here").unlink()
    (ws / "here").symlink_to(tmp_path / "outside")
    assert outside() == [str(tmp_path / "outside" / "a.txt")]
    (ws / "here").unlink()
    (ws / "here").mkdir()
    assert outside() == []


def test_each_kind_of_question_is_asked_again_by_its_own_look(tmp_path: Path) -> None:
    """A question kept with its answer must get the same kind of answer when asked again."""
    from guard.verdict.cache import path_questions as looks

    plain = tmp_path / "f"
    plain.write_text("x")
    links = Links()
    links.begin()
    try:
        asked = {
            looks.LSTAT: looks.stamp_of(os.lstat(plain)),
            looks.STAT: looks.stamp_of(os.stat(plain)),
            looks.NODE: looks.PLAIN,
            looks.GONE: False,
            looks.IDENTITY: (os.stat(plain).st_dev, os.stat(plain).st_ino),
            looks.EXISTS: True,
            looks.NO_STAT: False,
            looks.ENTRIES: looks.stamp_of(os.lstat(plain)),
            looks.OWNERS: looks.owners_of(os.stat(plain)),
        }
        assert len(asked) == len(links._asks)
        assert links.still(tuple((kind, str(plain), a) for kind, a in asked.items()))
    finally:
        links.end()


def deep_changes(root: Path) -> list[Callable[[], None]]:
    """Edits to the directories on the way to a file, each at another depth: what a walk
    found to be a plain directory on one line is a link, or gone, on the next."""
    outside = root / "outside"

    def deepest_to_link() -> None:
        (root / "a" / "b" / "c").rename(root / "c-old")
        (root / "a" / "b" / "c").symlink_to(outside)

    def middle_to_link() -> None:
        (root / "a" / "b").rename(root / "b-old")
        (root / "a" / "b").symlink_to(root / "b-old")

    def top_gone() -> None:
        (root / "a").rename(root / "a-old")

    def top_back_as_link() -> None:
        (root / "a").symlink_to(outside)

    def top_back_as_directory() -> None:
        (root / "a").unlink()
        (root / "a" / "b" / "c").mkdir(parents=True)

    return [deepest_to_link, middle_to_link, top_gone, top_back_as_link, top_back_as_directory]


@pytest.mark.parametrize("watched", [True, False])
def test_directories_found_on_one_line_are_looked_at_again_when_they_change(
    tmp_path: Path, watched: bool
) -> None:
    """With the disk watched, the directories a walk found plain are vouched for on later
    lines by the kernel rather than looked at again: each change to one of them, or above
    it, is seen on the next line as realpath sees it."""
    (tmp_path / "outside" / "c").mkdir(parents=True)
    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    (tmp_path / "a" / "b" / "c" / "file").write_text("x")
    names = ["a/b/c/file", "a/b/c/new", "a/b/c", "a/b/x/y", "a/b/c/d/e", "a/../a/b/c/file"]
    paths = [str(tmp_path / name) for name in names]
    links = Links()
    if watched:
        links.watch_disk()
        if not links.watching:
            pytest.skip("the kernel cannot tell of changes here (no inotify)")

    def ask() -> None:
        for round in range(3):  # each path new on the first line, then kept, then vouched
            links.begin()
            try:
                for path in paths:
                    assert links.realpath(path + "/" * round) == os.path.realpath(path), path
            finally:
                links.end()

    ask()
    for change in deep_changes(tmp_path):
        change()
        ask()
    links.close()
