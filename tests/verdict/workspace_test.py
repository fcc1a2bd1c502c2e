"""The workspace rule and protected paths, as a user meets them: real `guard check`, the real
Claude Code adapter with JSON on stdin, and a real interactive bash through a pty.

The workspace is never the home directory, a directory above it, or `/`; an agent's workspace is
decided once per session; protected paths ask on every access, inside the workspace or not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from shells import Shell, answer, guard_program, have

from guard.approvals.arity import approval_choices
from guard.projection.requests import Request
from guard.verdict.judgement import judge
from guard.verdict.workspace import choose_workspace, too_wide

GUARD = [sys.executable, "-m", "guard"]
ALLOW, DENY, ASK = 0, 1, 3


def check(line: str, cwd: Path | str, **env: str) -> int:
    """`guard check --no-prompt` as a hook or a script runs it: the exit status."""
    full = {**os.environ, **env}
    done = subprocess.run(
        [*GUARD, "check", "--no-prompt", "--", line],
        cwd=str(cwd),
        env=full,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode in (ALLOW, DENY, ASK), done.stderr
    return done.returncode


def adapter(line: str, cwd: Path | str, session: str = "s1", **env: str) -> dict[str, object]:
    """`guard hook claude-code` fed what Claude Code sends: its parsed answer."""
    payload = {
        "session_id": session,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": line},
        "cwd": str(cwd),
    }
    done = subprocess.run(
        [*GUARD, "hook", "claude-code"],
        input=json.dumps(payload),
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert isinstance(answer, dict)
    return answer


@pytest.fixture
def home() -> Path:
    return Path(os.environ["HOME"])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    ws = tmp_path / "proj"
    (ws / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    (ws / "README.md").write_text("hello\n")
    return ws


def reaching_lines(home: Path) -> list[str]:
    config = os.environ["GUARD_CONFIG"]
    return [
        "cat ~/.ssh/id_rsa",
        "echo 'curl x | sh' >> ~/.bashrc",
        f"echo '[[rules]]' >> {config}",
        "cat /etc/shadow",
        "echo x > /etc/cron.d/x",
        f"cp {home}/.aws/credentials /tmp/c",
    ]


# ---- the rule itself --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("directory", "wide"),
    [("/", True), ("/h", True), ("/h/u", True), ("/h/u/src", False), ("/h/u2", False)],
)
def test_home_above_home_and_root_are_too_wide(directory: str, wide: bool) -> None:
    assert too_wide(directory, "/h/u") is wide


def test_home_a_dotfiles_repo_and_root_give_no_workspace(home: Path, project: Path) -> None:
    env = {"HOME": str(home)}
    assert choose_workspace(str(home), env, str(home)).roots == ()
    assert choose_workspace("/", env, str(home)).roots == ()
    (home / ".git").mkdir()
    (home / "notes").mkdir()
    dotfiles = choose_workspace(str(home / "notes"), env, str(home))
    assert dotfiles.roots == ()
    assert "home directory" in dotfiles.why
    inside = choose_workspace(str(project / "src"), env, str(home))
    assert inside.roots == (os.path.realpath(project),)


def test_guard_workspace_may_name_home_with_a_warning(home: Path) -> None:
    chosen = choose_workspace("/", {"GUARD_WORKSPACE": str(home)}, str(home))
    assert chosen.roots == (os.path.realpath(home),)
    assert chosen.warning.startswith("guard: GUARD_WORKSPACE names")


# ---- from ~ and from /, nothing is inside ---------------------------------------------------


@pytest.mark.parametrize("agent", ["1", "0"])
def test_from_home_the_lines_that_reach_out_ask(home: Path, agent: str) -> None:
    for line in reaching_lines(home):
        assert check(line, home, GUARD_AGENT=agent, GUARD_SESSION=f"h{agent}") == ASK, line


def test_from_home_as_a_git_repo_the_lines_that_reach_out_ask(home: Path) -> None:
    subprocess.run(["git", "init", "-q", str(home)], check=True)
    for line in reaching_lines(home):
        assert check(line, home, GUARD_AGENT="1", GUARD_SESSION="dot") == ASK, line


def test_from_root_the_lines_that_reach_out_ask(home: Path) -> None:
    for line in reaching_lines(home):
        assert check(line, "/", GUARD_AGENT="1", GUARD_SESSION="root") == ASK, line
    assert check("ls /etc", "/", GUARD_AGENT="1", GUARD_SESSION="root2") == ASK


def test_the_claude_code_adapter_never_allows_them(home: Path) -> None:
    for where in (home, Path("/")):
        for line in reaching_lines(home):
            answer = adapter(line, where, session=f"cc-{where}")
            assert answer["permissionDecision"] in ("ask", "deny"), (where, line, answer)


def test_the_claude_code_adapter_asks_for_a_protected_path_an_approval_allowed(
    project: Path,
) -> None:
    first = adapter("echo x > .git/hooks/pre-commit", project, session="ap")
    assert first["permissionDecision"] == "ask"
    path = os.path.realpath(project / ".git/hooks/pre-commit")
    subprocess.run(
        [*GUARD, "approvals", "grant", "--session", "claude-code:ap", "--surface", "protected",
         "--pattern", path, "--access", "write"],
        check=True, capture_output=True,
    )  # fmt: skip
    again = adapter("echo x > .git/hooks/pre-commit", project, session="ap")
    assert again["permissionDecision"] == "ask"  # Claude Code's own prompt still shows it


# ---- an agent's workspace is decided once -----------------------------------------------------


def test_cd_home_in_an_agent_session_does_not_move_its_workspace(
    home: Path, project: Path
) -> None:
    (home / "notes.txt").write_text("n\n")
    session = {"GUARD_AGENT": "1", "GUARD_SESSION": "agent-a"}
    assert check("cat README.md", project, **session) == ALLOW
    # the agent cd's home; its next line starts there, and home is still outside
    assert check("cat notes.txt", home, **session) == ASK
    assert check(f"cat {project}/README.md", home, **session) == ALLOW
    # a fresh session started in home has no workspace at all
    assert check(f"cat {project}/README.md", home, GUARD_AGENT="1", GUARD_SESSION="b") == ASK


def test_the_adapter_takes_the_workspace_from_claude_project_dir(
    home: Path, project: Path
) -> None:
    (home / "notes.txt").write_text("n\n")
    given = {"CLAUDE_PROJECT_DIR": str(project)}
    assert adapter(f"cat {project}/README.md", home, session="p1", **given)[
        "permissionDecision"
    ] == "allow"
    assert adapter("cat notes.txt", home, session="p1", **given)["permissionDecision"] == "ask"
    # and keeps it: a later call whose cwd is elsewhere does not move it
    assert adapter("cat README.md", project, session="p1")["permissionDecision"] == "allow"


# ---- a person's shell in ~ ------------------------------------------------------------------


@pytest.mark.pty
@pytest.mark.parametrize("name", ["bash", "zsh"])
def test_a_person_in_home_reads_quietly_but_protected_paths_ask(home: Path, name: str) -> None:
    if not have(name):
        pytest.skip(f"{name} is not installed")
    (home / "notes.txt").write_text("my notes\n")
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("SECRET\n")
    shell = Shell(name, home, env={"GUARD_WORKSPACE": ""})
    try:
        out, status = shell.run("ls")
        assert "notes.txt" in out and status == 0
        out, status = shell.run("cat notes.txt")
        assert out == "my notes" and status == 0
        shell.send("cat ~/.ssh/id_rsa")
        shell.expect("protected path")
        answer(shell.child, "n")
        out, status = shell.prompt()
        assert "SECRET" not in out
        shell.send("echo hi >> notes.txt")
        shell.expect("write ~/notes.txt")
        answer(shell.child, "n")
        shell.prompt()
        assert (home / "notes.txt").read_text() == "my notes\n"
    finally:
        shell.close()


# ---- protected paths inside the workspace ---------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "echo 'curl x | sh' > .git/hooks/pre-commit",
        "cp README.md .git/hooks/post-checkout",
        "echo '[[rules]]' >> .guard.toml",
        "echo 'x' > .git/config",
        "tee .envrc < README.md",
    ],
)
def test_a_protected_path_inside_the_workspace_asks_on_write(project: Path, line: str) -> None:
    assert check(line, project, GUARD_AGENT="1", GUARD_SESSION="w") == ASK


@pytest.mark.parametrize(
    "line",
    [
        "ls -la",
        "cat README.md && echo x > out.txt",
        "mkdir -p build && cp README.md build/",
        "git status",
        "cat .git/config",
        "echo '*.o' >> .gitignore",
        "make -n",
    ],
)
def test_ordinary_project_lines_stay_allowed(project: Path, line: str) -> None:
    assert check(line, project, GUARD_AGENT="1", GUARD_SESSION="o") == ALLOW


def test_setting_guard_variables_for_what_runs_asks(project: Path) -> None:
    for line in (
        "GUARD_WORKSPACE=/ bash -c 'cat /etc/hostname'",
        "export GUARD_WORKSPACE=/",
        "env GUARD_CONFIG=/tmp/p.toml guard check -- ls",
        "CLAUDE_PROJECT_DIR=/ claude -p hi",
    ):
        assert check(line, project, GUARD_AGENT="1", GUARD_SESSION="g") == ASK, line


def test_globs_and_links_reach_protected_paths_too(home: Path, project: Path) -> None:
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("k")
    os.symlink(home / ".ssh", project / "keys")
    for line in ("cat ~/.s*/id_rsa", "cat keys/id_rsa", "grep -r x ~/.ss?"):
        result = judge(line, cwd=str(project), session=None, agent=True)
        assert any(r.surface == "protected" for r in result.projection.requests), line
        assert result.verdict.decision == "ask"
    quiet = judge("ls ~/*", cwd=str(project), session=None, agent=True)
    assert not any(r.surface == "protected" for r in quiet.projection.requests)


# ---- policy -----------------------------------------------------------------------------------


def write_policy(text: str) -> None:
    path = Path(os.environ["GUARD_CONFIG"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_a_user_adds_protected_paths_and_a_broad_allow_does_not_remove_them(
    home: Path, project: Path
) -> None:
    (project / "secrets").mkdir()
    write_policy(
        '[protected]\npaths = ["secrets"]\n\n'
        '[[rules]]\nsurface = "external_directory"\npattern = "/**"\naction = "allow"\n'
    )
    assert check("cat secrets/token", project, GUARD_AGENT="1", GUARD_SESSION="u") == ASK
    assert check("cat ~/.aws/credentials", project, GUARD_AGENT="1", GUARD_SESSION="u") == ASK
    assert check("cat /etc/hostname", project, GUARD_AGENT="1", GUARD_SESSION="u") == ALLOW


def test_removing_an_entry_is_a_rule_on_the_protected_surface(home: Path, project: Path) -> None:
    write_policy(
        '[[rules]]\nsurface = "protected"\npattern = "~/.aws/config"\naccess = "read"\n'
        'action = "allow"\n\n'
        '[[rules]]\nsurface = "external_directory"\npattern = "~/.aws/**"\naction = "allow"\n'
    )
    assert check("cat ~/.aws/config", project, GUARD_AGENT="1", GUARD_SESSION="r") == ALLOW
    assert check("cat ~/.aws/credentials", project, GUARD_AGENT="1", GUARD_SESSION="r") == ASK


def test_an_approval_for_a_protected_path_is_never_wider_than_the_path() -> None:
    request = Request(
        "protected", (0, 1), "", path="/h/u/.ssh/id_rsa", access="read", via="cat"
    )
    (only,) = approval_choices(request, home="/h/u", is_dir=False)
    assert only.pattern == "/h/u/.ssh/id_rsa"


# ---- what the user is told --------------------------------------------------------------------


def test_explain_shows_the_workspace_and_why(home: Path, project: Path) -> None:
    out = subprocess.run(
        [*GUARD, "explain", "--", "ls"], cwd=str(home), capture_output=True, text=True,
        env={**os.environ, "GUARD_AGENT": "1", "GUARD_SESSION": "e1"}, check=True,
    ).stdout  # fmt: skip
    assert "workspace: none: the directory" in out and "home directory" in out
    data = json.loads(
        subprocess.run(
            [*GUARD, "explain", "--json", "--", "ls"], cwd=str(project), capture_output=True,
            text=True, env={**os.environ, "GUARD_AGENT": "1", "GUARD_SESSION": "e2"}, check=True,
        ).stdout
    )  # fmt: skip
    assert data["workspace"] == [os.path.realpath(project)]
    assert data["workspace_why"] == "the git worktree root"


def test_doctor_warns_when_a_session_here_would_have_no_workspace(
    home: Path, project: Path
) -> None:
    def doctor(cwd: Path) -> str:
        done = subprocess.run(
            [*GUARD, "doctor"], cwd=str(cwd), capture_output=True, text=True, timeout=60
        )
        return done.stdout

    assert "a session started here has no workspace" in doctor(home)
    assert f"workspace {os.path.realpath(project)} (the git worktree root)" in doctor(project)


def test_guard_init_warns_once_when_guard_workspace_names_home(home: Path) -> None:
    done = subprocess.run(
        [guard_program(home), "init", "bash"], capture_output=True, text=True, cwd=str(home),
        env={**os.environ, "GUARD_WORKSPACE": str(home)}, check=True,
    )  # fmt: skip
    assert done.stderr.startswith("guard: GUARD_WORKSPACE names")
    assert done.stdout.count("\n") > 10  # the hook itself still comes out whole


def test_an_approval_of_a_protected_path_counts_among_many_others(project: Path) -> None:
    session = {"GUARD_AGENT": "1", "GUARD_SESSION": "many"}
    assert check("echo x > .git/hooks/pre-commit", project, **session) == ASK
    path = os.path.realpath(project / ".git/hooks/pre-commit")
    grants = [("command", f"tool{i} *", None) for i in range(40)]
    grants.append(("protected", path, "write"))
    for surface, pattern, access in grants:
        extra = ["--access", access] if access else []
        subprocess.run(
            [*GUARD, "approvals", "grant", "--session", "many", "--surface", surface,
             "--pattern", pattern, *extra],
            check=True, capture_output=True,
        )  # fmt: skip
    assert check("echo x > .git/hooks/pre-commit", project, **session) == ALLOW
    assert check("echo x > .git/hooks/post-merge", project, **session) == ASK
