"""A long-lived process keeps a line's surroundings (workspace, context, trust, policy, the
protected list) between lines, and the very next line sees any change they were built from:
a link, a `.git`, the environment given or the process's own, a policy file whose stamp is too
young to prove anything, a directory above the managed policy made writable."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from guard.verdict.cache.line_cache import LineCache
from guard.verdict.judgement import Judgement, judge

SESSION = "surroundings-test"


@pytest.fixture
def cache() -> object:
    kept = LineCache()
    yield kept
    kept.close()


def line(
    cache: LineCache,
    command: str,
    cwd: Path,
    env: dict[str, str] | None = None,
    *,
    agent: bool = True,
) -> Judgement:
    judged = judge(command, cwd=str(cwd), env=env, session=SESSION, cache=cache, agent=agent)
    if cache.links.watching:  # judged again: the next line's questions are vouched for by the
        # kernel (the first look after the watch), so a change before it must be told
        judge(command, cwd=str(cwd), env=env, session=SESSION, cache=cache, agent=agent)
    return judged


def test_the_surroundings_of_a_line_are_kept_while_nothing_they_saw_changed(
    cache: LineCache, workspace: Path
) -> None:
    first = line(cache, "ls", workspace)
    second = line(cache, "cat notes.txt", workspace)
    assert second.context is first.context and second.policy is first.policy  # not built again
    assert second.verdict.decision == "allow"


def test_guards_own_directory_made_a_link_is_protected_on_the_next_line(
    cache: LineCache, workspace: Path
) -> None:
    target = workspace / "conf"
    target.mkdir()
    assert line(cache, "touch conf/x", workspace).verdict.decision == "allow"
    own = Path(os.environ["XDG_CONFIG_HOME"]) / "guard"
    own.parent.mkdir(parents=True, exist_ok=True)
    own.symlink_to(target)  # guard's config now lives in the workspace
    after = line(cache, "touch conf/x", workspace)
    assert after.verdict.decision != "allow"
    assert any("is a protected path" in r for r in after.verdict.reasons)


def test_a_change_to_the_environment_given_is_seen_on_the_next_line(
    cache: LineCache, tmp_path: Path, workspace: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    env = dict(os.environ)  # a person's session: the workspace follows GUARD_WORKSPACE
    assert line(cache, "ls", workspace, env, agent=False).context.workspace == (str(workspace),)
    moved = dict(env, GUARD_WORKSPACE=str(other))
    assert line(cache, "ls", workspace, moved, agent=False).context.workspace == (str(other),)
    assert line(cache, "ls", workspace, env, agent=False).context.workspace == (str(workspace),)


def test_a_change_to_the_process_environment_is_seen_on_the_next_line(
    cache: LineCache, tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = dict(os.environ)  # the environment given stays the same: `guard explain --jsonl`'s
    assert line(cache, "touch denied", workspace, env).verdict.decision == "allow"
    policy = tmp_path / "elsewhere.toml"
    policy.write_text('[[rules]]\nsurface = "command"\npattern = "touch denied*"\n'
                      'action = "deny"\n')
    monkeypatch.setenv("GUARD_CONFIG", str(policy))  # where guard's own code looks for it
    assert line(cache, "touch denied", workspace, env).verdict.decision == "deny"


def test_a_policy_file_younger_than_a_second_is_read_again_on_every_line(
    cache: LineCache, workspace: Path
) -> None:
    """A file changed twice within one tick of the kernel's clock shows one stamp (kernels
    before multigrain timestamps): what was read while its stamp was that young is not kept."""
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text('[[rules]]\nsurface = "command"\npattern = "touch a*"\naction = "deny"\n')
    first = line(cache, "touch a", workspace)
    assert first.verdict.decision == "deny"
    assert line(cache, "touch a", workspace).policy is not first.policy  # read again
    time.sleep(1.1)
    settled = line(cache, "touch a", workspace)
    assert line(cache, "touch a", workspace).policy is settled.policy  # kept from now on
    assert line(cache, "touch a", workspace).context is settled.context
    policy.write_text('[[rules]]\nsurface = "command"\npattern = "touch b*"\naction = "deny"\n')
    assert line(cache, "touch a", workspace).verdict.decision == "allow"  # the very next line
    assert line(cache, "touch b", workspace).verdict.decision == "deny"


def test_a_directory_above_the_managed_policy_made_writable_is_seen_on_the_next_line(
    cache: LineCache, tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    etc = tmp_path / "etc" / "guard"
    etc.mkdir(parents=True)
    for d in (tmp_path, tmp_path / "etc", etc):
        d.chmod(0o755)
    managed = etc / "policy.toml"
    managed.write_text('[[rules]]\nsurface = "command"\npattern = "curl *"\naction = "deny"\n')
    managed.chmod(0o644)
    monkeypatch.setenv("GUARD_MANAGED_POLICY", str(managed))
    monkeypatch.setenv("GUARD_MANAGED_OWNER", str(os.getuid()))
    time.sleep(1.1)  # its stamps are settled: the policy read from it is kept
    first = line(cache, "ls", workspace)
    assert line(cache, "curl x", workspace).verdict.decision == "deny"
    assert line(cache, "ls", workspace).policy is first.policy  # kept
    (tmp_path / "etc").chmod(0o777)  # anyone may now replace guard/ and the file in it
    after = line(cache, "ls", workspace)
    assert after.policy.problems != () and after.verdict.decision == "ask"  # fails closed


def test_the_line_is_judged_where_pwd_says_while_pwd_is_this_directory(
    cache: LineCache, tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the shell says: $PWD (a link to the directory) while it leads here, else the
    directory itself; a long-lived process asks again on every line."""
    link = tmp_path / "link"
    link.symlink_to(workspace)
    monkeypatch.chdir(workspace)
    env = dict(os.environ, PWD=str(link))

    def where() -> tuple[str, str]:
        kept = judge("ls", env=env, session=SESSION, cache=cache, agent=False)
        fresh = judge("ls", env=env, session=SESSION, agent=False)
        return kept.context.cwd, fresh.context.cwd

    assert where() == (str(link), str(link))
    link.unlink()
    link.symlink_to(tmp_path)  # $PWD leads elsewhere now
    assert where() == (str(workspace), str(workspace))


def test_a_file_made_in_a_settled_directory_is_seen_on_the_next_line(
    cache: LineCache, workspace: Path
) -> None:
    """What was not there is asked again as its directory's stamp once the directory has
    settled: a file made in it changes that stamp."""
    line(cache, "ls", workspace)  # the store is made: the directories above it change
    time.sleep(1.1)
    first = line(cache, "touch denied", workspace)
    assert line(cache, "touch denied", workspace).context is first.context  # kept
    (workspace / ".guard.toml").write_text(
        '[[rules]]\nsurface = "command"\npattern = "touch denied*"\naction = "deny"\n'
    )  # a project file, untrusted: it may only tighten, and this rule does
    assert line(cache, "touch denied", workspace).verdict.decision == "deny"
    Path(os.environ["XDG_RUNTIME_DIR"]).mkdir(parents=True, exist_ok=True)
    home = Path(os.environ["HOME"])
    (home / "notes").mkdir(parents=True, exist_ok=True)
    time.sleep(1.1)
    line(cache, "ls", workspace)
    line(cache, "ls", workspace)
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)  # guard's config dir, where none was
    policy.write_text('[[rules]]\nsurface = "command"\npattern = "ls*"\naction = "deny"\n')
    assert line(cache, "ls", workspace).verdict.decision == "deny"


def test_kept_surroundings_judge_every_line_as_a_fresh_process_would(
    cache: LineCache, workspace: Path
) -> None:
    """The benchmark's mix and some lines that ask, judged with kept surroundings (each line
    three times over) and each by a fresh judge: the same verdicts and requests."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from projection import MIX

    (workspace / ".env").write_text("KEY=x\n")
    lines = [*MIX, "source .env", "cat ~/.ssh/id_rsa", "touch ~/.config/guard/x", "ls /etc"]
    time.sleep(1.1)  # settled: the surroundings are kept, not read again on every line

    def shown(j: Judgement) -> list[tuple[str, str, str]]:
        return [(d.request.surface, d.decision, d.request.reason) for d in j.verdict.decided]

    for _ in range(3):
        for command in lines:
            kept = line(cache, command, workspace)
            fresh = judge(command, cwd=str(workspace), session=SESSION, agent=True)
            assert (kept.verdict.decision, shown(kept)) == (
                fresh.verdict.decision, shown(fresh)
            ), command  # fmt: skip
    assert line(cache, "ls", workspace).context is line(cache, "pwd", workspace).context


def test_a_secret_made_below_a_directory_grep_reads_asks_on_the_next_line(
    cache: LineCache, workspace: Path
) -> None:
    docs = workspace / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("notes\n")
    assert line(cache, "grep -r KEY docs", workspace).verdict.decision == "allow"
    assert line(cache, "grep -r KEY docs", workspace).verdict.decision == "allow"  # kept
    (docs / "old").mkdir()
    (docs / "old" / ".env").write_text("KEY=x\n")
    kept = line(cache, "grep -r KEY docs", workspace)
    fresh = judge("grep -r KEY docs", cwd=str(workspace), session=SESSION, agent=True)
    assert kept.verdict.decision == fresh.verdict.decision == "ask"
    assert any("docs/old/.env" in r for r in kept.verdict.reasons)
