"""The resident checker decides what a fresh process decides, on the very next line after any
change on disk: a real checker (`guard serve --user`) and a fresh `guard check` with
`GUARD_RESIDENT=0` side by side, over sequences of changes — policy edits, modes and owners of
the managed policy and the directories above it, link swaps, files appearing where a line
searches, the store replaced or opened to others, links under an enforced line's ruleset.

After each change the checker is asked first (so nothing a fresh process does, such as
tightening a store directory, can hide what the checker kept), then a fresh process; their exit
statuses and messages must be equal, and each sequence checks that its changes did change the
verdict, so that a checker that never changes its mind cannot pass.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from checkers import checker_pids

from guard.entry.resident import protocol as wire
from guard.entry.resident.client import request
from guard.verdict.store.store import Store

BIN = Path(sys.executable).parent
GUARD = str(BIN / "guard")
SHIM = str(BIN / "guarded-bash")
Outcome = tuple[int, bytes, bytes]


def _status() -> dict[str, str] | None:
    answer = request([("kind", "status")])
    if answer is None or wire.first(answer, "action") != "done":
        return None
    return {key: wire.text(value) for key, value in answer}


def _served() -> int:
    now = _status()
    assert now is not None, "the checker is not answering"
    return int(now["served"])


def _wait_for(condition: Callable[[], object], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> Outcome:
    done = subprocess.run(
        argv, cwd=cwd, env={**os.environ, **env}, stdin=subprocess.DEVNULL,
        capture_output=True, timeout=120, check=False, start_new_session=True,
    )  # fmt: skip
    # the checker writes the audit row after it answered, so a store it cannot write to is
    # not the answer's to tell (issue 26.4 is about that warning, not about verdicts)
    told = b"".join(
        line for line in done.stderr.splitlines(keepends=True)
        if not line.startswith(b"guard: the audit log is not being written")
    )  # fmt: skip
    return done.returncode, done.stdout, told


@pytest.fixture
def work(tmp_path: Path) -> Path:
    workspace = tmp_path / "work" / "proj"
    workspace.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    return workspace


@pytest.fixture
def resident(monkeypatch: pytest.MonkeyPatch, work: Path) -> Iterator[str]:
    """The checker turned on, started and answering; stopped (and gone) after the test."""
    monkeypatch.delenv("GUARD_RESIDENT")
    monkeypatch.setenv("GUARD_RESIDENT_IDLE", "60")
    monkeypatch.setenv("GUARD_AGENT", "1")
    path = wire.socket_path(os.environ)
    try:
        _run([GUARD, "check", "--", "true"], work, {})
        _wait_for(lambda: _status() is not None)
        yield path
    finally:
        request([("kind", "stop")])
        for pid in checker_pids(path):
            os.kill(pid, signal.SIGKILL)
        _wait_for(lambda: not checker_pids(path))


def both(argv: list[str], cwd: Path, **env: str) -> tuple[Outcome, Outcome]:
    """`argv` through the checker (which must have answered it), then in a fresh process."""
    before = _served()
    through = _run(argv, cwd, env)
    assert _served() == before + 1, f"the checker did not answer {argv}"
    alone = _run(argv, cwd, {**env, "GUARD_RESIDENT": "0"})
    return through, alone


def check(line: str, cwd: Path, **env: str) -> tuple[Outcome, Outcome]:
    return both([GUARD, "check", "--no-prompt", "--session", "t", "--", line], cwd, **env)


def side_by_side(
    steps: list[tuple[str, Callable[[], None]]],
    probe: Callable[[], tuple[Outcome, Outcome]],
    *,
    settle: float = 0.0,
) -> dict[str, Outcome]:
    """Each change made, then the probe through the checker and fresh: equal after every one.
    The fresh outcome of each step, by its name. `settle`: seconds to wait before each change,
    so that what the checker keeps is older than a stamp that proves nothing (a second)."""
    seen: dict[str, Outcome] = {}
    differ = []
    for name, change in steps:
        time.sleep(settle)
        change()
        through, alone = probe()
        if through != alone:
            differ.append((name, through, alone))
        seen[name] = alone
    assert [name for name, _, _ in differ] == [], "\n".join(map(repr, differ))
    return seen


MANAGED = '[[rules]]\nsurface = "command"\npattern = "curl *"\naction = "deny"\n'


def _chmod(path: Path, mode: int) -> Callable[[], None]:
    return lambda: path.chmod(mode)


def _relink(link: Path, target: Path) -> Callable[[], None]:
    def change() -> None:
        new = link.with_name(link.name + ".new")
        new.symlink_to(target)
        new.replace(link)  # one rename: the link is never missing

    return change


def test_the_managed_policys_modes_owners_directories_and_links_count_at_once(
    resident: str, work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26.3: after `chmod 666` of the managed policy (refused: every allowed line asks) the
    checker kept allowing, as it compared the file's bytes only. Its mode, owner, the
    directories above it and above the link that names it, and which file it is, all count."""
    etc = tmp_path / "etc"
    safe, loose = etc / "safe", etc / "loose"
    for d in (safe, loose):
        d.mkdir(parents=True)
    for d in (tmp_path, etc, safe, loose):
        d.chmod(0o755)
    (safe / "policy.toml").write_text(MANAGED)
    (loose / "policy.toml").write_text(MANAGED)  # the same bytes, in a directory others may write
    for f in (safe / "policy.toml", loose / "policy.toml"):
        f.chmod(0o644)
    loose.chmod(0o777)  # no sticky bit: anyone may replace what is in it
    link = etc / "policy.toml"
    link.symlink_to(safe / "policy.toml")
    monkeypatch.setenv("GUARD_MANAGED_POLICY", str(link))
    monkeypatch.setenv("GUARD_MANAGED_OWNER", str(os.getuid()))
    policy = safe / "policy.toml"
    steps: list[tuple[str, Callable[[], None]]] = [
        ("used", lambda: None),
        ("file 666", _chmod(policy, 0o666)),
        ("file 644", _chmod(policy, 0o644)),
        ("directory 777", _chmod(safe, 0o777)),
        ("directory 755", _chmod(safe, 0o755)),
        ("directory above 757", _chmod(etc, 0o757)),
        ("directory above 755", _chmod(etc, 0o755)),
        ("link to a loose directory", _relink(link, loose / "policy.toml")),
        ("link back", _relink(link, safe / "policy.toml")),
        ("edited", lambda: policy.write_text(MANAGED.replace("curl", "wget"))),
    ]  # fmt: skip
    if os.geteuid() == 0:  # only root may give a file away
        steps += [
            ("owned by another uid", lambda: os.chown(policy, 65534, -1)),
            ("owned again", lambda: os.chown(policy, 0, -1)),
            ("directory owned by another uid", lambda: os.chown(safe, 65534, -1)),
            ("directory owned again", lambda: os.chown(safe, 0, -1)),
        ]
    seen = side_by_side(steps, lambda: check("ls", work))
    refused = {name for name, (status, _, _) in seen.items() if status != 0}
    expected = {"file 666", "directory 777", "directory above 757", "link to a loose directory"}
    if os.geteuid() == 0:
        expected |= {"owned by another uid", "directory owned by another uid"}
    assert refused == expected


def test_who_the_managed_policy_may_belong_to_is_the_clients_word(
    resident: str, work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GUARD_MANAGED_OWNER (the tests' stand-in for root) comes with each request: a client
    that names another owner gets the verdict a fresh process with it gets."""
    etc = tmp_path / "etc"
    etc.mkdir()
    policy = etc / "policy.toml"
    policy.write_text(MANAGED)
    policy.chmod(0o644)
    owner = os.getuid()
    if owner == 0:  # root's files are always root's: give this one to someone else
        owner = 65534
        os.chown(policy, owner, -1)
    monkeypatch.setenv("GUARD_MANAGED_POLICY", str(policy))
    monkeypatch.setenv("GUARD_MANAGED_OWNER", str(owner))
    assert check("ls", work)[0][0] == 0
    through, alone = check("ls", work, GUARD_MANAGED_OWNER=str(owner + 1))
    assert through == alone
    assert alone[0] == 3


def test_user_policy_edits_and_link_swaps_count_at_once(resident: str, work: Path) -> None:
    config = Path(os.environ["GUARD_CONFIG"])
    config.parent.mkdir(parents=True, exist_ok=True)
    rule = '[[rules]]\nsurface = "command"\npattern = "{}"\naction = "deny"\n'
    first, second = config.with_name("a.toml"), config.with_name("b.toml")
    first.write_text(rule.format("ls"))
    second.write_text(rule.format("pw"))  # the same size
    steps: list[tuple[str, Callable[[], None]]] = [
        ("none", lambda: None),
        ("a file", lambda: config.write_text(rule.format("ls"))),
        ("edited", lambda: config.write_text(rule.format("pw"))),
        ("a link to a", lambda: (config.unlink(), config.symlink_to(first))),
        ("a link to b", _relink(config, second)),
        ("a link to a again", _relink(config, first)),
        ("gone", lambda: config.unlink()),
    ]
    seen = side_by_side(steps, lambda: check("ls", work))
    denied = {name for name, (status, _, _) in seen.items() if status == 1}
    assert denied == {"a file", "a link to a", "a link to a again"}


def test_files_appearing_in_a_searched_directory_count_at_once(resident: str, work: Path) -> None:
    """A recursive read sees the secrets below the directory it searches as they are now."""
    docs = work / "docs"
    docs.mkdir()
    (docs / "notes.md").write_text("token\n")
    inner = docs / "deep"
    steps: list[tuple[str, Callable[[], None]]] = [
        ("no secret", lambda: None),
        ("a secret appears", lambda: (docs / ".env").write_text("TOKEN=1\n")),
        ("it goes", lambda: (docs / ".env").unlink()),
        ("one appears deeper", lambda: (inner.mkdir(), (inner / "id_rsa").write_text("k\n"))),
        ("it goes too", lambda: shutil.rmtree(inner)),
    ]
    seen = side_by_side(steps, lambda: check("grep -r token docs", work))
    asked = {name for name, (status, _, _) in seen.items() if status == 3}
    assert asked == {"a secret appears", "one appears deeper"}


def _grant(db: Path) -> None:
    with Store.open(db) as store:
        store.grant(session=None, scope="always", surface="external_directory",
                    pattern="/etc/hosts", access="read", granted_by="test", command="cat",
                    now=time.time())  # fmt: skip


def test_the_store_replaced_or_opened_to_others_counts_at_once(
    resident: str, work: Path, tmp_path: Path
) -> None:
    """The checker keeps the store open; a fresh process opens it for each line and refuses one
    that others could replace (then approvals are not used). The checker must do as it does."""
    state = Path(os.environ["GUARD_STATE_DIR"])
    db = state / "guard.db"
    aside = tmp_path / "aside"
    aside.mkdir()

    def replace(with_approval: bool) -> Callable[[], None]:
        def change() -> None:
            new = aside / ("granted.db" if with_approval else "empty.db")
            for suffix in ("", "-wal", "-shm"):
                Path(f"{new}{suffix}").unlink(missing_ok=True)
            Store.open(new).close()
            if with_approval:
                _grant(new)
            for suffix in ("-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)
            os.replace(new, db)

        return change

    def open_up() -> None:
        (state / "notes.txt").write_text("not the store's\n")  # so guard will not tighten it
        state.chmod(0o777)

    steps: list[tuple[str, Callable[[], None]]] = [
        ("no approval", lambda: None),
        ("replaced by a store that approves", replace(True)),
        ("replaced by an empty store", replace(False)),
        ("approved again", replace(True)),
        ("its directory opened to others", open_up),
        ("closed again", lambda: state.chmod(0o700)),
    ]
    seen = side_by_side(steps, lambda: check("cat /etc/hosts", work))
    allowed = {name for name, (status, _, _) in seen.items() if status == 0}
    assert allowed == {"replaced by a store that approves", "approved again", "closed again"}
    assert b"can be written by others" in seen["its directory opened to others"][2]


HELPER = """#!/bin/sh
cat "$HOME/stuff/id_rsa" 2>/dev/null || echo "no read"
(echo x > "$TMPDIR/probe-$$") 2>/dev/null && echo wrote || echo "no write"
"""


def test_a_kept_ruleset_follows_link_swaps_at_once(
    resident: str, work: Path, tmp_path: Path
) -> None:
    """The ruleset an enforced line runs under, as the checker keeps it: a directory in home
    turned into a link to ~/.ssh, or a temp dir pointed there, is withheld on the next line,
    as a fresh guarded-bash withholds it (Landlock follows a granted link to its target)."""
    from guard.kernel.line_hold import probe

    abi, why_not = probe()
    if abi is None:
        pytest.skip(f"no Landlock here: {why_not}")
    home = Path(os.environ["HOME"])
    ssh = home / ".ssh"
    ssh.mkdir()
    (ssh / "id_rsa").write_text("SECRET\n")
    stuff = home / "stuff"
    stuff.mkdir()
    (stuff / "id_rsa").write_text("plain\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    tmp_link = tmp_path / "tmplink"
    tmp_link.symlink_to(tmp)
    helper = work / "helper.sh"
    helper.write_text(HELPER)
    helper.chmod(0o755)

    def stuff_to_ssh() -> None:
        shutil.rmtree(stuff)
        stuff.symlink_to(ssh)

    def stuff_back() -> None:
        stuff.unlink()
        stuff.mkdir()
        (stuff / "id_rsa").write_text("plain\n")

    steps: list[tuple[str, Callable[[], None]]] = [
        ("plain", lambda: None),
        ("a directory in home becomes a link to ~/.ssh", stuff_to_ssh),
        ("a directory again", stuff_back),
        ("nothing changes", lambda: None),  # kept now with stamps old enough to stand
        ("the temp dir pointed at ~/.ssh", _relink(tmp_link, ssh)),
        ("the temp dir back", _relink(tmp_link, tmp)),
    ]
    seen = side_by_side(
        steps, lambda: both([SHIM, "-c", "./helper.sh"], work, TMPDIR=str(tmp_link)), settle=1.1
    )
    outputs = {name: out for name, (_, out, _) in seen.items()}
    assert outputs == {
        "plain": b"plain\nwrote\n",
        "a directory in home becomes a link to ~/.ssh": b"no read\nwrote\n",
        "a directory again": b"plain\nwrote\n",
        "nothing changes": b"plain\nwrote\n",
        "the temp dir pointed at ~/.ssh": b"plain\nno write\n",
        "the temp dir back": b"plain\nwrote\n",
    }
    assert not list(ssh.glob("probe-*"))
