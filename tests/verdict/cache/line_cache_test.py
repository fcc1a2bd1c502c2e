"""A long-lived process keeps policy, context and store between lines, and is never stale: the
very next line sees an edited policy file, a new `.git`, a store moved elsewhere. And
`guard explain --jsonl` answers every line, one by one, as it comes."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from guard.verdict.cache.line_cache import LineCache
from guard.verdict.judgement import judge

DENY_TOUCH = '[[rules]]\nsurface = "command"\npattern = "touch denied*"\naction = "deny"\n'


class Jsonl:
    """`guard explain --jsonl` as a client sees it: one line written, one answer read."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "guard", "explain", "--jsonl"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=cwd,
        )

    def ask(self, raw: str, timeout: float = 30) -> dict[str, object]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(raw.encode("utf-8", "surrogateescape") + b"\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, f"no answer to {raw!r} within {timeout} s"
        answer: dict[str, object] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=20)


def test_explain_jsonl_sees_a_policy_edit_on_the_very_next_line(workspace: Path) -> None:
    client = Jsonl(workspace)
    try:
        assert client.ask(json.dumps("touch denied1"))["decision"] == "allow"
        Path(os.environ["GUARD_CONFIG"]).parent.mkdir(parents=True, exist_ok=True)
        Path(os.environ["GUARD_CONFIG"]).write_text(DENY_TOUCH)
        assert client.ask(json.dumps("touch denied1"))["decision"] == "deny"
        (workspace / ".guard.toml").write_text(DENY_TOUCH.replace("denied*", "other*"))
        assert client.ask(json.dumps("touch other"))["decision"] == "deny"  # the project file
        Path(os.environ["GUARD_CONFIG"]).write_text("")
        assert client.ask(json.dumps("touch denied1"))["decision"] == "allow"
    finally:
        assert client.close() == 0


@pytest.mark.parametrize(
    "raw",
    ["42", "not json", '"unterminated', "[" * 5000, "\udcff\udcfe", '{"command": "ls"}', "null"],
)
def test_explain_jsonl_answers_a_bad_line_with_a_syntax_request_and_goes_on(
    workspace: Path, raw: str
) -> None:
    client = Jsonl(workspace)
    try:
        bad = client.ask(raw)
        assert bad["decision"] == "ask" and "error" in bad
        requests = bad["requests"]
        assert isinstance(requests, list) and requests[0]["surface"] == "syntax"
        assert str(requests[0]["reason"]).startswith("guard: line 1 ")
        assert client.ask(json.dumps("ls"))["decision"] == "allow"  # the next line still counts
    finally:
        assert client.close() == 2


def test_a_new_git_directory_moves_the_workspace_on_the_next_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GUARD_WORKSPACE", raising=False)
    repo = tmp_path / "repo"
    sub = repo / "sub"
    sub.mkdir(parents=True)
    cache = LineCache()
    try:
        line = "cat ../notes"
        first = judge(line, cwd=str(sub), cache=cache, use_store=False)
        assert first.context.workspace == (str(sub),) and first.verdict.decision == "ask"
        (repo / ".git").mkdir()
        second = judge(line, cwd=str(sub), cache=cache, use_store=False)
        assert second.context.workspace == (str(repo),) and second.verdict.decision == "allow"
    finally:
        cache.close()


def test_the_store_follows_guard_state_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workspace: Path
) -> None:
    cache = LineCache()
    try:
        first = cache.store().path
        monkeypatch.setenv("GUARD_STATE_DIR", str(tmp_path / "elsewhere"))
        second = cache.store().path
        assert first != second and second == tmp_path / "elsewhere" / "guard.db"
    finally:
        cache.close()


def test_a_store_directory_opened_to_others_is_refused_on_the_next_line(workspace: Path) -> None:
    """A fresh open refuses a store others could replace; the kept connection must not outlive
    that: the next line opens it again, and the open says why approvals are not used."""
    from guard.errors import GuardError

    cache = LineCache()
    try:
        state = cache.store().path.parent
        (state / "notes.txt").write_text("not the store's\n")  # so guard will not tighten it
        state.chmod(0o777)
        cache.begin_line()
        with pytest.raises(GuardError, match="can be written by others"):
            cache.store()
        cache.end_line()
        state.chmod(0o700)
        assert cache.store().path.parent == state
    finally:
        cache.close()


def test_trust_given_or_lost_elsewhere_counts_on_the_next_line(workspace: Path) -> None:
    from guard.verdict.project_trust import trust

    project = workspace / ".guard.toml"
    allow = '[[rules]]\nsurface = "external_directory"\npattern = "/etc/hosts"\naction = "allow"\n'
    project.write_text(allow)
    cache = LineCache()
    try:
        line = "cat /etc/hosts"
        assert judge(line, cwd=str(workspace), cache=cache).verdict.decision == "ask"  # untrusted
        trust(str(project))  # `guard policy trust`, on a connection of its own
        assert judge(line, cwd=str(workspace), cache=cache).verdict.decision == "allow"
        project.write_text(allow + "# changed\n")  # a changed file is untrusted again
        assert judge(line, cwd=str(workspace), cache=cache).verdict.decision == "ask"
    finally:
        cache.close()


def test_whom_the_managed_policy_may_belong_to_counts_on_the_next_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GUARD_MANAGED_OWNER (the tests' root) is read with the file: naming another owner
    refuses the same, unchanged file at once."""
    etc = tmp_path / "etc"
    etc.mkdir()
    managed = etc / "policy.toml"
    managed.write_text(DENY_TOUCH)
    managed.chmod(0o644)
    owner = os.getuid()
    if owner == 0:  # root's files are always root's: give this one to someone else
        owner = 65534
        os.chown(managed, owner, -1)
    monkeypatch.setenv("GUARD_MANAGED_POLICY", str(managed))
    monkeypatch.setenv("GUARD_MANAGED_OWNER", str(owner))
    time.sleep(1.1)  # a stamp younger than a second is never kept: this one is
    cache = LineCache()
    try:
        cache.begin_line()
        assert cache.policy(None).problems == ()
        cache.end_line()
        monkeypatch.setenv("GUARD_MANAGED_OWNER", str(owner + 1))
        cache.begin_line()
        assert any("managed policy refused" in p for p in cache.policy(None).problems)
        cache.end_line()
    finally:
        cache.close()


def test_a_cycle_left_by_a_line_is_freed_within_collect_every_lines(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the caches keep is frozen every FREEZE_EVERY lines (out of the collector's walks);
    a cycle frozen with it is still freed once COLLECT_EVERY lines have passed."""
    import gc
    import weakref

    from guard.verdict.cache import line_cache

    monkeypatch.setattr(line_cache, "COLLECT_EVERY", 512)

    class Cyclic:
        me: object

    cache = LineCache()
    was_enabled = gc.isenabled()
    gc.disable()  # only guard's own freezing and collecting, so the test sees what they do
    try:
        while line_cache._LINES[0] <= max(line_cache._FREEZE_AT):  # past the first freezes
            judge("true", cwd=str(workspace), cache=cache)
        left = Cyclic()
        left.me = left
        gone = weakref.ref(left)
        del left
        for n in range(2 * 512 + line_cache.FREEZE_EVERY):
            judge(f"true {n}", cwd=str(workspace), cache=cache)
        assert gone() is None
    finally:
        cache.close()
        if was_enabled:
            gc.enable()
