"""The managed policy layer: what a machine's administrator sets, users and projects cannot weaken.

Real policy files in temporary directories, the real store, the real `guard` CLI. The managed
file is named by GUARD_MANAGED_POLICY, and GUARD_MANAGED_OWNER names the uid that stands for
root when the tests do not run as root.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from guard.asking.confirmation import approver_mode, confirm, question_for
from guard.policy import managed
from guard.policy.files import load_policy, render_policy
from guard.verdict.judgement import judge
from guard.verdict.project_trust import trust
from guard.verdict.store.store import Store

GUARD = [sys.executable, "-m", "guard"]
SESSION = "managed-test"

MANAGED = """
[[rules]]
surface = "command"
pattern = "curl *"
action = "deny"
reason = "the company proxy only"

[[rules]]
surface = "command"
pattern = "terraform apply *"
action = "ask"
reason = "changes production"

[[rules]]
surface = "external_directory"
pattern = "/opt/tools/**"
action = "allow"
"""

LOOSENING = """
[[rules]]
surface = "command"
pattern = "curl *"
action = "allow"

[[rules]]
surface = "command"
pattern = "terraform apply *"
action = "allow"
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    path.chmod(0o644)
    return path


@pytest.fixture
def managed_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    etc = tmp_path / "etc" / "guard"
    etc.mkdir(parents=True)
    for d in (tmp_path, tmp_path / "etc", etc):
        d.chmod(0o755)
    path = etc / "policy.toml"
    monkeypatch.setenv("GUARD_MANAGED_POLICY", str(path))
    monkeypatch.setenv("GUARD_MANAGED_OWNER", str(os.getuid()))
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    return ws


def user_file() -> Path:
    return Path(os.environ["GUARD_CONFIG"])


def verdict(line: str, ws: Path) -> tuple[str, tuple[str, ...]]:
    result = judge(line, cwd=str(ws), session=SESSION)
    return result.verdict.decision, result.verdict.reasons


def grant(pattern: str, scope: str) -> None:
    with Store.open() as store:
        store.grant(session=SESSION if scope == "session" else None, scope=scope,
                    surface="command", pattern=pattern, access=None, granted_by="test",
                    command="", now=time.time())


def test_without_a_managed_file_there_is_no_managed_layer(workspace: Path) -> None:
    policy = load_policy(str(workspace))
    assert "managed" not in policy.kinds
    assert verdict("curl https://example.com", workspace)[0] == "allow"


def test_a_managed_deny_survives_a_user_rule_a_trusted_project_rule_and_approvals(
    managed_file: Path, workspace: Path
) -> None:
    write(managed_file, MANAGED)
    write(user_file(), LOOSENING)
    project = write(workspace / ".guard.toml", LOOSENING)
    trust(str(project))  # `guard policy trust`: the project's allow rules count
    grant("curl *", "session")
    grant("curl *", "always")
    decision, reasons = verdict("curl https://example.com", workspace)
    assert decision == "deny"
    assert reasons == (
        f"deny: curl https://example.com (managed rule {managed_file}:2: the company proxy only)",
    )


def test_a_managed_ask_is_never_turned_into_allow_by_lower_layers_or_approvals(
    managed_file: Path, workspace: Path
) -> None:
    write(managed_file, MANAGED)
    write(user_file(), LOOSENING)
    trust(str(write(workspace / ".guard.toml", LOOSENING)))
    grant("terraform apply *", "session")
    grant("terraform apply *", "always")
    result = judge("terraform apply -auto-approve", cwd=str(workspace), session=SESSION)
    assert result.verdict.decision == "ask"
    assert result.verdict.decided[0].by == f"managed rule {managed_file}:8"
    # the human may allow it once; nothing lasting is offered
    question, _ = question_for(result, {})
    assert [c.key for c in question.choices] == ["y", "n"]


def test_lower_layers_may_tighten_a_managed_allow_and_a_managed_ask(
    managed_file: Path, workspace: Path
) -> None:
    write(managed_file, MANAGED)
    assert verdict("cat /opt/tools/bin/x", workspace)[0] == "allow"
    write(user_file(), """
        [[rules]]
        surface = "external_directory"
        pattern = "/opt/tools/**"
        action = "ask"

        [[rules]]
        surface = "command"
        pattern = "terraform *"
        action = "deny"
    """)
    assert verdict("cat /opt/tools/bin/x", workspace)[0] == "ask"
    assert verdict("terraform apply", workspace)[0] == "deny"


def test_within_the_managed_file_the_last_match_wins(
    managed_file: Path, workspace: Path
) -> None:
    write(managed_file, MANAGED + """
        [[rules]]
        surface = "command"
        pattern = "curl https://proxy.corp/*"
        action = "allow"
    """)
    assert verdict("curl https://proxy.corp/x", workspace)[0] == "allow"
    assert verdict("curl https://evil.example", workspace)[0] == "deny"


@pytest.mark.parametrize(
    ("how", "needs_root"),
    [("file writable by others", False), ("file writable by its group", False),
     ("directory writable by its group", False), ("file owned by another uid", True),
     ("directory owned by another uid", True)],
)
def test_a_managed_file_a_user_could_change_is_refused_and_fails_closed(
    managed_file: Path, workspace: Path, how: str, needs_root: bool
) -> None:
    if needs_root and os.getuid() != 0:
        pytest.skip("only root can give a file to another uid")
    write(managed_file, MANAGED)
    if how == "file writable by others":
        managed_file.chmod(0o646)
    elif how == "file writable by its group":
        managed_file.chmod(0o664)
    elif how == "directory writable by its group":
        managed_file.parent.chmod(0o775)
    elif how == "file owned by another uid":
        os.chown(managed_file, 4242, 0)
    else:
        os.chown(managed_file.parent.parent, 4242, 0)
    policy = load_policy(str(workspace))
    assert policy.managed_rules == ()  # none of its rules are used …
    (problem,) = policy.problems
    assert problem.startswith(f"{managed_file}: managed policy ")
    assert problem.startswith(f"{managed_file}: managed policy refused: ")
    assert ", so a user could change it; make the file and the directories above it owned by " \
        "root and writable by root only (until then, everything that would be allowed asks)" \
        in problem
    # … and the layer does not vanish: what would be allowed asks
    decision, reasons = verdict("ls", workspace)
    assert decision == "ask"
    assert "a user could change it" in reasons[0]


def test_a_sticky_world_writable_directory_above_is_fine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workspace: Path
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)  # like /tmp: no one may replace what another owns in it
    mine = shared / "guard"
    mine.mkdir(mode=0o755)
    path = write(mine / "policy.toml", MANAGED)
    monkeypatch.setenv("GUARD_MANAGED_POLICY", str(path))
    monkeypatch.setenv("GUARD_MANAGED_OWNER", str(os.getuid()))
    assert load_policy(str(workspace)).problems == ()
    assert verdict("curl x", workspace)[0] == "deny"


def test_the_owner_variable_counts_only_for_the_test_file(
    managed_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert managed.owners(str(managed_file)) == {0, os.getuid()}
    assert managed.owners(managed.SYSTEM_PATH) == {0}
    monkeypatch.delenv("GUARD_MANAGED_POLICY")
    assert managed.owners(str(managed_file)) == {0}


def test_the_machine_file_wins_over_the_variable(
    tmp_path: Path, managed_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert managed.managed_policy_path() == str(managed_file)
    machine = write(tmp_path / "machine" / "policy.toml", MANAGED)
    monkeypatch.setattr(managed, "SYSTEM_PATH", str(machine))
    # a user cannot switch the machine's file off by pointing the variable elsewhere
    assert managed.managed_policy_path() == str(machine)


def test_an_unreadable_managed_file_fails_closed(
    managed_file: Path, workspace: Path
) -> None:
    managed_file.mkdir()  # reading a directory fails like an unreadable file
    decision, reasons = verdict("ls", workspace)
    assert decision == "ask"
    assert f"{managed_file}: managed policy" in reasons[0]


def test_settings_the_managed_layer_sets_are_fixed(
    managed_file: Path, workspace: Path
) -> None:
    write(managed_file, """
        [audit]
        journald = true
        [enforce]
        mode = "require"
    """)
    write(user_file(), """
        [audit]
        journald = false
        syslog = "/run/my-syslog"
    """)
    policy = load_policy(str(workspace))
    assert policy.problems == ()
    assert dict((k, v) for k, v, _ in policy.settings) == {
        "audit.journald": True, "enforce.mode": "require", "audit.syslog": "/run/my-syslog"}
    assert set(policy.fixed) == {"audit.journald", "enforce.mode"}
    assert [i.split(": ", 1)[1] for i in policy.ignored] == [
        f"audit.journald ignored: the managed policy sets it ({managed_file}:3)",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[approver]\nrequired = true\n",
         "approver.required can only be set in the managed policy; remove it from this file"),
        ("[approvals]\nalways = false\n",
         "approvals.always can only be set in the managed policy; remove it from this file"),
        ("[audit]\nsyslog = \"dev/log\"\n",
         'audit.syslog must be true, false or the absolute path of a socket ("/dev/log"); '
         "write syslog = true"),
        ("[audit]\nsyslogg = true\n", "unknown key 'syslogg' in [audit]; write one of syslog, "
         "journald"),
        ('[approver]\nnotify = "ntfy.example/guard"\n',
         'approver.notify must be an http:// or https:// address ("https://ntfy.example/guard"); '
         'write notify = "https://ntfy.example/guard"'),
    ],
)
def test_settings_in_the_wrong_file_or_of_the_wrong_type_are_problems(
    text: str, message: str, workspace: Path
) -> None:
    write(user_file(), text)
    (problem,) = load_policy(str(workspace)).problems
    assert problem == f"{user_file()}:2: {message}"


def test_a_managed_enforce_mode_is_checked_and_fixed(managed_file: Path, workspace: Path) -> None:
    write(managed_file, '[enforce]\nmode = "strict"\n')
    (problem,) = load_policy(str(workspace)).problems
    assert problem.startswith(f'{managed_file}:2: unknown enforce mode "strict"; write one of')
    write(managed_file, '[enforce]\nmode = "landlock"\n')
    policy = load_policy(str(workspace))
    assert policy.fixed == ("enforce.mode",)
    assert policy.settings[0][:2] == ("enforce.mode", "landlock")
    from guard.policy.enforce_policy import enforcement_mode

    # the managed mode wins over GUARD_ENFORCE and the session's kind
    assert enforcement_mode(policy, {"GUARD_ENFORCE": "off"}, agent=True) == "landlock"
    write(user_file(), '[enforce]\nmode = "off"\n')
    assert enforcement_mode(load_policy(str(workspace)), {}, agent=True) == "landlock"


def test_policy_show_marks_the_layer_of_each_rule(managed_file: Path, workspace: Path) -> None:
    write(managed_file, MANAGED + "[approvals]\nalways = false\n")
    write(user_file(), LOOSENING)
    shown = subprocess.run([*GUARD, "policy", "show"], cwd=workspace, capture_output=True,
                           text=True, check=True).stdout
    assert f"  [managed] {managed_file}\n" in shown
    assert f"  [user] {user_file()}\n" in shown
    final = f"([managed final] {managed_file}:2)"
    assert f"    deny   curl * — the company proxy only  {final}" in shown
    assert f"    allow  /opt/tools/**  ([managed] {managed_file}:14)" in shown
    assert f"    allow  curl *  ([user] {user_file()}:2)" in shown
    assert f"  approvals.always = false  ({managed_file}:19) [managed, fixed]" in shown


def test_lasting_approvals_can_be_turned_off(managed_file: Path, workspace: Path) -> None:
    write(managed_file, "[approvals]\nalways = false\n")
    result = judge("cat /etc/hosts", cwd=str(workspace), session=SESSION)
    question, _ = question_for(result, {})
    assert [c.key for c in question.choices] == ["y", "s", "d", "n"]
    grant("cat /etc/hosts", "always")  # one given before the administrator turned them off
    assert verdict("cat /etc/hosts", workspace)[0] == "ask"
    refused = subprocess.run(
        [*GUARD, "approvals", "grant", "--session", SESSION, "--surface", "command",
         "--pattern", "make *", "--always"], capture_output=True, text=True)
    assert refused.returncode == 1
    assert refused.stderr.startswith("guard: the managed policy turns off lasting approvals")
    with Store.open() as store:
        assert [a.pattern for a in store.list_approvals()] == ["cat /etc/hosts"]


def test_an_approver_can_be_required_whatever_the_environment_says(
    managed_file: Path, workspace: Path
) -> None:
    env = {**os.environ, "GUARD_APPROVER": "never"}
    result = judge("cat /etc/hosts", cwd=str(workspace), session=SESSION, env=env)
    assert approver_mode(env, result.policy) == "never"
    write(managed_file, "[approver]\nrequired = true\n")
    result = judge("cat /etc/hosts", cwd=str(workspace), session=SESSION, env=env)
    assert approver_mode(env, result.policy) == "always"
    outcome = confirm(result, session=SESSION, env={**env, "GUARD_APPROVER_WAIT": "0"})
    assert not outcome.allowed
    assert outcome.how == "no-approver"  # the approver was asked, not the terminal


def doctor_line() -> tuple[str, int]:
    done = subprocess.run([*GUARD, "doctor"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    rows = [r for r in done.stdout.splitlines() if r.split()[1:2] == ["managed"]]
    return "\n".join(rows), done.returncode


def test_doctor_shows_the_managed_layer_path_and_state(managed_file: Path) -> None:
    row, _ = doctor_line()
    assert row == f"ok       managed no managed policy ({managed_file} does not exist)"
    write(managed_file, MANAGED + "[approvals]\nalways = false\n")
    row, _ = doctor_line()
    assert row == (f"ok       managed {managed_file} in use: 3 rules (deny and ask are final); "
                   "fixes approvals.always")
    managed_file.chmod(0o666)
    row, status = doctor_line()
    assert row.startswith(f"problem  managed {managed_file}: managed policy refused: it is "
                          "writable by its group or by others (mode 666), so a user could")
    assert status == 1


def test_policy_check_checks_the_managed_file_as_the_managed_layer(
    managed_file: Path, workspace: Path
) -> None:
    write(managed_file, "[approvals]\nalways = false\n")
    done = subprocess.run([*GUARD, "policy", "check"], cwd=workspace, capture_output=True,
                          text=True)
    assert done.returncode == 0
    assert done.stdout == f"guard: {managed_file} — no problems\n"
    write(managed_file, "[approvals]\nalways = 0\n")
    done = subprocess.run([*GUARD, "policy", "check"], cwd=workspace, capture_output=True,
                          text=True)
    assert done.returncode == 1
    assert done.stdout == (f"{managed_file}:2: approvals.always must be true or false; write "
                           "always = true\n")


def test_a_link_is_checked_where_it_lives_and_where_it_points(
    managed_file: Path, tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = write(managed_file.parent / "real.toml", MANAGED)
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    open_dir.chmod(0o777)  # anyone could point a link here elsewhere
    link = open_dir / "policy.toml"
    link.symlink_to(good)
    monkeypatch.setenv("GUARD_MANAGED_POLICY", str(link))
    (problem,) = load_policy(str(workspace)).problems
    assert f"{open_dir} is writable by its group or by others (mode 777)" in problem
    monkeypatch.setenv("GUARD_MANAGED_POLICY", str(managed_file))
    managed_file.symlink_to(good)  # a link in a safe directory to a safe file is fine
    assert load_policy(str(workspace)).problems == ()
    assert verdict("curl x", workspace)[0] == "deny"
    good.chmod(0o666)  # … and to a file anyone may write is not
    assert "writable by its group or by others" in load_policy(str(workspace)).problems[0]


def test_guarded_bash_refuses_a_managed_deny_the_user_allowed(
    managed_file: Path, workspace: Path
) -> None:
    write(managed_file, MANAGED)
    write(user_file(), LOOSENING)
    bash = Path(sys.executable).parent / "guarded-bash"
    done = subprocess.run([str(bash), "-c", "curl https://example.com; echo ran"], cwd=workspace,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 126
    assert done.stdout == ""  # nothing of the line ran
    assert "the company proxy only" in done.stderr


def test_policy_check_of_the_managed_file_by_name(managed_file: Path) -> None:
    write(managed_file, "[approver]\nrequired = true\n")
    done = subprocess.run([*GUARD, "policy", "check", str(managed_file)], capture_output=True,
                          text=True)
    assert (done.returncode, done.stdout) == (0, f"guard: {managed_file} — no problems\n")


def test_the_resident_checker_reads_a_changed_managed_file_again(
    managed_file: Path, workspace: Path
) -> None:
    from guard.verdict.cache.line_cache import LineCache

    kept = LineCache()
    assert kept.policy(str(workspace)).managed_rules == ()
    write(managed_file, MANAGED)
    assert len(kept.policy(str(workspace)).managed_rules) == 3
    managed_file.chmod(0o666)  # only the mode changes: the file is refused from now on
    assert kept.policy(str(workspace)).problems != ()


@pytest.mark.parametrize(
    ("line", "decision"),
    [
        ("curl https://example.com", "deny"),
        ("/usr/bin/curl https://example.com", "deny"),
        ("command curl x", "deny"),
        ("env FOO=1 curl x", "deny"),
        ("bash -c 'curl x'", "deny"),
        ("echo $(curl -s x)", "deny"),
        ("git status && curl x", "deny"),
        ("terraform apply", "ask"),
        ("terraform plan", "allow"),
        ("echo curl is denied here", "allow"),
        ("git commit -m 'stop using curl *'", "allow"),
    ],
)
def test_a_managed_rule_catches_the_command_however_it_is_run(
    managed_file: Path, workspace: Path, line: str, decision: str
) -> None:
    write(managed_file, MANAGED)
    write(user_file(), LOOSENING + '[[rules]]\nsurface = "command"\npattern = "*"\n'
                                   'action = "allow"\n')
    assert verdict(line, workspace)[0] == decision


def test_protected_paths_the_managed_layer_adds_cannot_be_allowed_below(
    managed_file: Path, workspace: Path
) -> None:
    keys = workspace / "keys"
    keys.mkdir()
    (keys / "id").write_text("secret")
    protect = f'[protected]\npaths = ["{keys}"]\n'
    allow = f'[[rules]]\nsurface = "protected"\npattern = "{keys}/**"\naction = "allow"\n'
    write(user_file(), protect + allow)  # the user protects it, and allows it: theirs to say
    assert verdict("cat keys/id", workspace)[0] == "allow"
    write(managed_file, protect)  # the machine protects it: the user's allow no longer counts
    with Store.open() as store:
        store.grant(session=SESSION, scope="session", surface="protected", pattern=f"{keys}/id",
                    access="read", granted_by="test", command="", now=time.time())
    result = judge("cat keys/id", cwd=str(workspace), session=SESSION)
    assert result.verdict.decision == "ask"
    (asked,) = [d for d in result.verdict.decided if d.decision == "ask"]
    assert asked.by == f"managed rule {managed_file}:2"
    assert "protected by the machine's managed policy" in result.verdict.reasons[0]
    shown = render_policy(result.policy)
    assert f"  {keys}  ([managed final] {managed_file}:2)" in shown


def test_a_project_file_cannot_aim_the_audit_log_anywhere(workspace: Path) -> None:
    write(workspace / ".guard.toml", '[audit]\nsyslog = "/tmp/agent.sock"\n')
    (problem,) = load_policy(str(workspace)).problems
    assert problem == (f"{workspace}/.guard.toml:2: audit.syslog can only be set in the managed "
                       "policy or the user policy; remove it from this file")


def test_a_user_may_name_the_approvers_webhook(workspace: Path) -> None:
    write(user_file(), '[approver]\nnotify = "http://127.0.0.1:8090/guard"\n')
    policy = load_policy(str(workspace))
    assert policy.problems == ()
    assert dict((k, v) for k, v, _ in policy.settings) == {
        "approver.notify": "http://127.0.0.1:8090/guard"}
