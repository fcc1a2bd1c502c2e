"""Session identity: GUARD_SESSION, else the parent process and when it started."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guard.verdict.store.session import process_stamp, session_id, stat_start_time

REPO = Path(__file__).resolve().parents[3]
ON_PROC = os.path.isfile(f"/proc/{os.getpid()}/stat")


FIELDS_3_TO_21 = "S 1 100 100 0 -1 4194560 500 0 0 0 2 3 0 0 20 0 1 0"


def stat_line(comm: str, start: str = "8675309") -> str:
    """A /proc/<pid>/stat line as the kernel writes it, with starttime (field 22) = start."""
    assert FIELDS_3_TO_21.count(" ") == 18
    return f"4242 ({comm}) {FIELDS_3_TO_21} {start} 12345678 300 18446744073709551615 0\n"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (stat_line("bash"), "8675309"),
        (stat_line("my prog"), "8675309"),
        (stat_line("a) 1 2 (b"), "8675309"),
        (stat_line(") ) )"), "8675309"),
        (stat_line("(((("), "8675309"),
        (stat_line("x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 99 ("), "8675309"),
        (stat_line("tab\there"), "8675309"),
        (stat_line("bash", start="12"), "12"),
        (stat_line("bash", start="-1"), None),
        (stat_line("bash", start="١٢"), None),  # digits, but not ASCII ones
        ("4242 (bash) S 1 100", None),  # cut short
        ("4242 bash S 1 100 100 0 -1 4194560 500 0 0 0 2 3 0 0 20 0 1 0 8675309", None),
        ("", None),
    ],
)
def test_the_start_time_is_field_22_counted_after_the_last_parenthesis(
    line: str, expected: str | None
) -> None:
    assert stat_start_time(line) == expected


def stamp(pid: int) -> str | None:
    return {100: "555-cafe1234"}.get(pid)


@pytest.mark.parametrize(
    ("env", "ppid", "expected"),
    [
        ({"GUARD_SESSION": "shell-7"}, 100, "shell-7"),
        ({"GUARD_SESSION": "shell-7"}, 200, "shell-7"),
        ({"GUARD_SESSION": ""}, 100, "ppid-100-555-cafe1234"),
        ({}, 100, "ppid-100-555-cafe1234"),
        ({}, 200, "ppid-200"),  # start time unknown: the pid alone
    ],
)
def test_guard_session_wins_else_the_parent_and_its_start_time(
    env: dict[str, str], ppid: int, expected: str
) -> None:
    assert session_id(env, ppid, stamp) == expected


def fake_proc(root: Path, pid: int, line: str, boot_id: str | None) -> str:
    (root / "self").mkdir(parents=True, exist_ok=True)
    (root / str(pid)).mkdir()
    (root / str(pid) / "stat").write_bytes(line.encode("latin-1"))
    if boot_id is not None:
        (root / "sys/kernel/random").mkdir(parents=True)
        (root / "sys/kernel/random/boot_id").write_text(boot_id + "\n")
    return str(root)


@pytest.mark.parametrize(
    ("line", "boot_id", "expected"),
    [
        (stat_line("a) (b"), "3f1c0a2b-9d8e-4f00-8a11-0123456789ab", "8675309-3f1c0a2b"),
        (stat_line("bash"), None, "8675309"),
        (stat_line("bash").replace("8675309", "zz"), "3f1c0a2b-9d8e", None),
        (stat_line("b\xe9\xff"), "3f1c0a2b-9d8e", "8675309-3f1c0a2b"),  # not UTF-8
    ],
)
def test_the_stamp_is_the_start_time_and_the_boot(tmp_path: Path, line: str,
                                                  boot_id: str | None,
                                                  expected: str | None) -> None:
    proc = fake_proc(tmp_path / "proc", 4242, line, boot_id)
    assert process_stamp(4242, proc) == expected


def test_a_process_that_is_gone_has_no_stamp(tmp_path: Path) -> None:
    proc = fake_proc(tmp_path / "proc", 4242, stat_line("bash"), None)
    assert process_stamp(4243, proc) is None


@pytest.mark.skipif(shutil.which("ps") is None, reason="needs ps")
def test_without_a_proc_file_system_ps_tells_the_start_time(tmp_path: Path) -> None:
    no_proc = str(tmp_path / "no-proc")
    stamp = process_stamp(os.getpid(), no_proc)
    assert stamp is not None
    assert " " not in stamp
    assert ":" in stamp  # ps's lstart: a date with the time of day
    assert stamp == process_stamp(os.getpid(), no_proc)
    assert process_stamp(2**22 + 12345, no_proc) is None  # above any pid_max: no such process


# -- real processes ---------------------------------------------------------------------------

PRINT_SESSION = "from guard.verdict.store.session import current_session; print(current_session())"


def session_of_child(*, env: dict[str, str] | None = None, via_shell: bool = False) -> str:
    """The session a real child process of this test (or of a shell it starts) computes."""
    environment = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    command = [sys.executable, "-c", PRINT_SESSION]
    if via_shell:  # `; true` keeps sh from exec-ing python: sh stays its parent
        command = ["sh", "-c", '"$@"; true', "sh", *command]
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=True,
                          timeout=60)
    assert done.stderr == ""
    return done.stdout.strip()


def test_two_commands_from_one_parent_share_a_session() -> None:
    first, second = session_of_child(), session_of_child()
    assert first == second
    assert first.startswith(f"ppid-{os.getpid()}-")


def test_commands_from_another_parent_are_another_session() -> None:
    mine = session_of_child()
    theirs, again = session_of_child(via_shell=True), session_of_child(via_shell=True)
    assert theirs.startswith("ppid-")
    assert theirs != mine
    assert theirs != again  # each sh is a parent of its own


def test_guard_session_wins_over_the_parent() -> None:
    assert session_of_child(env={"GUARD_SESSION": "hook-1234"}) == "hook-1234"
    assert session_of_child(env={"GUARD_SESSION": "hook-1234"}, via_shell=True) == "hook-1234"


PARENT_WITH_A_STRANGE_NAME = """
import os, subprocess, sys
from guard.verdict.store.session import process_stamp
before = process_stamp(os.getpid())
with open("/proc/self/comm", "w") as handle:
    handle.write("x) 1 2 (y z")
with open("/proc/self/stat") as handle:
    assert "(x) 1 2 (y z)" in handle.read()
print(before)
print(process_stamp(os.getpid()))
sys.stdout.flush()
subprocess.run([sys.executable, "-c", sys.argv[1]], check=True)
print(os.getpid())
"""


@pytest.mark.skipif(not ON_PROC, reason="needs Linux /proc")
def test_a_parent_named_with_spaces_and_parentheses_keeps_its_session() -> None:
    done = subprocess.run([sys.executable, "-c", PARENT_WITH_A_STRANGE_NAME, PRINT_SESSION],
                          capture_output=True, text=True, check=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    before, after, child, pid = done.stdout.split()
    assert before == after
    assert child == f"ppid-{pid}-{before}"
