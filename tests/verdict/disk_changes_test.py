"""A long-lived `guard explain --jsonl` lets the kernel tell it what changed on disk once it has
judged a few lines (guard/verdict/cache/disk_changes.py), and still sees on the very next line a
policy file that appears: made outright, made after the kernel's queue overflowed with other
changes, or brought by a mount (which inotify does not tell of). And what the watch vouches
for: names on local file systems, never through a link."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guard.verdict.cache import disk_changes, line_cache

pytestmark = pytest.mark.skipif(
    disk_changes.start() is None, reason="the kernel cannot tell of changes here (no inotify)"
)

DENY = '[[rules]]\nsurface = "command"\npattern = "touch denied*"\naction = "deny"\n'
GUARD = [sys.executable, "-m", "guard"]


class Explainer:
    """One `guard explain --jsonl` process, asked a line at a time."""

    def __init__(self, cwd: Path, prefix: list[str] | None = None) -> None:
        self.process = subprocess.Popen(
            [*(prefix or []), *GUARD, "explain", "--jsonl"],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def decision(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(line) + "\n")
        self.process.stdin.flush()
        return str(json.loads(self.process.stdout.readline())["decision"])

    def warmed(self) -> Explainer:
        """Past the lines after which the disk is watched, and past the next two: the questions
        asked again afresh under the watch, then vouched for."""
        for n in range(line_cache.WATCH_AFTER + 3):
            assert self.decision(f"touch denied{n}") == "allow"
        return self

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=30) == 0


def test_a_policy_file_made_while_the_disk_is_watched_counts_on_the_next_line(
    workspace: Path,
) -> None:
    explainer = Explainer(workspace).warmed()
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(DENY)
    assert explainer.decision("touch denied-now") == "deny"
    policy.unlink()
    assert explainer.decision("touch denied-again") == "allow"
    explainer.close()


def test_a_policy_file_made_after_the_kernels_queue_overflowed_counts_on_the_next_line(
    workspace: Path,
) -> None:
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)  # a watched directory, its file not there
    explainer = Explainer(workspace).warmed()
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    if limit > 100_000:
        pytest.skip(f"the kernel queues {limit:,} events: too many to overflow in a test")
    for n in range(limit // 2 + 100):  # made and removed beside it: two events each
        (policy.parent / f"n{n}").touch()
        (policy.parent / f"n{n}").unlink()
    policy.write_text(DENY)  # its own event is dropped: the queue is full
    assert explainer.decision("touch denied-now") == "deny"
    explainer.close()


def test_a_policy_file_brought_by_a_mount_counts_on_the_next_line(
    workspace: Path, tmp_path: Path
) -> None:
    unshare = shutil.which("unshare")
    mount = shutil.which("mount")
    if unshare is None or mount is None:
        pytest.skip("no unshare or mount here")
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = subprocess.run(  # the mount lives as long as the namespace: this one command
        [unshare, "-rm", mount, "--bind", str(elsewhere), str(policy.parent)], capture_output=True
    )
    if probe.returncode != 0:
        pytest.skip("no mount namespace may be made here, or no mount in it")
    (elsewhere / policy.name).write_text(DENY)
    # the explainer and the mount in one namespace of their own: the script runs the one,
    # makes the mount when told, and relays the lines
    driver = tmp_path / "driver.py"
    driver.write_text(
        "import subprocess, sys\n"
        f"p = subprocess.Popen({[*GUARD, 'explain', '--jsonl']!r}, stdin=subprocess.PIPE,\n"
        "                     stdout=subprocess.PIPE, text=True)\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('MOUNT'):\n"
        f"        subprocess.run([{mount!r}, '--bind', {str(elsewhere)!r}, "
        f"{str(policy.parent)!r}], check=True)\n"
        "        print('mounted', flush=True)\n"
        "        continue\n"
        "    p.stdin.write(line); p.stdin.flush()\n"
        "    print(p.stdout.readline(), end='', flush=True)\n"
        "p.stdin.close(); sys.exit(p.wait())\n"
    )
    explainer = Explainer(workspace, [unshare, "-rm", sys.executable, str(driver)]).warmed()
    assert explainer.process.stdin is not None and explainer.process.stdout is not None
    explainer.process.stdin.write("MOUNT\n")
    explainer.process.stdin.flush()
    assert explainer.process.stdout.readline() == "mounted\n"
    assert explainer.decision("touch denied-now") == "deny"
    explainer.close()


def test_a_change_to_a_name_watched_moves_the_generation_and_one_elsewhere_does_not(
    tmp_path: Path,
) -> None:
    changes = disk_changes.start()
    assert changes is not None
    watched = tmp_path / "dir" / "policy.toml"
    watched.parent.mkdir()
    assert changes.cover([str(watched)])
    before = changes.news()
    (watched.parent / "other.txt").write_text("x")  # a name nobody asked about
    (tmp_path / "beside").mkdir()
    assert changes.news() == before
    watched.write_text("x")
    assert changes.news() > before
    before = changes.news()
    os.rename(watched.parent, tmp_path / "moved")  # a directory above it, renamed
    assert changes.news() > before
    changes.close()


def test_a_path_through_a_link_or_on_a_file_system_not_local_is_not_vouched_for(
    tmp_path: Path,
) -> None:
    changes = disk_changes.start()
    assert changes is not None
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    assert not changes.cover([str(tmp_path / "link" / "policy.toml")])
    assert not changes.cover(["/proc/self/policy.toml"])  # procfs: not a local disk's names
    assert changes.cover([str(tmp_path / "missing" / "below" / "policy.toml")])
    changes.close()


def test_a_forked_child_vouches_for_nothing(tmp_path: Path) -> None:
    """A child shares its parent's queue: the events one reads the other never sees."""
    changes = disk_changes.start()
    assert changes is not None
    assert changes.cover([str(tmp_path / "policy.toml")])
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        moved = changes.news() != changes.news()
        os.write(write, b"moved" if moved else b"still")
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 16) == b"moved"
    first = changes.news()
    assert changes.news() == first  # the parent's own watch goes on
    changes.close()


def test_a_files_mode_changed_through_another_hard_link_moves_the_generation(
    tmp_path: Path,
) -> None:
    changes = disk_changes.start()
    assert changes is not None
    store = tmp_path / "state" / "guard.db"
    store.parent.mkdir()
    store.write_text("")
    other = tmp_path / "elsewhere"
    other.mkdir()
    os.link(store, other / "same.db")
    assert changes.cover([], files=[str(store)])
    before = changes.news()
    (other / "same.db").chmod(0o666)  # not through the directory watched
    assert changes.news() > before
    (tmp_path / "link.db").symlink_to(store)
    assert not changes.cover([], files=[str(tmp_path / "link.db")])  # a link's target moves
    changes.close()
