"""The bash hook, driven through a real interactive bash in a pseudo-terminal.

Every test works in a workspace of its own (GUARD_WORKSPACE) under a user policy that denies
`touch denied*`; a marker file shows whether a line ran."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from shells import (
    ANSWERS,
    DENIED_SHAPE,
    Shell,
    SleepyChecker,
    allow_sourcing,
    answer,
    bash_preexec,
    deny_touch_workspace,
    gone,
    guard_program,
    hook,
    press,
    serving,
    wait_for_audit_row,
)

pytestmark = pytest.mark.pty


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return deny_touch_workspace(tmp_path)


@pytest.fixture
def bash(workspace: Path) -> Iterator[Shell]:
    shell = Shell("bash", workspace)
    yield shell
    shell.close()


def start(workspace: Path, **kwargs: object) -> Shell:
    return Shell("bash", workspace, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "output", "status"),
    [
        ("echo hi", "hi", 0),
        ("false", "", 1),
        ("printf 'a\\nb\\n'", "a\nb", 0),
        ("(exit 7)", "", 7),
        ("echo one | tr o 0; echo two", "0ne\ntwo", 0),
    ],
)
def test_an_allowed_line_runs_with_its_output_and_status(
    bash: Shell, line: str, output: str, status: int
) -> None:
    assert bash.run(line) == (output, status)


def test_the_status_of_the_last_line_survives_the_prompt_hook(bash: Shell) -> None:
    bash.run("false")
    assert bash.run("echo $?") == ("1", 0)


def test_a_denied_line_runs_nothing_at_all(bash: Shell, workspace: Path) -> None:
    out, status = bash.run(DENIED_SHAPE)
    assert status == 130
    assert out.startswith("guard: denied:") and out.count("\n") == 0
    assert list(workspace.iterdir()) == []
    assert bash.run("declare -F f || echo no function") == ("no function", 0)


@pytest.mark.parametrize(
    "line",
    [
        "for i in 1\ndo touch marker\ndone; touch denied",
        "echo $(touch marker) | touch denied",
        "touch marker && { touch denied; }",
        "g() { touch marker; }; g; touch denied",
    ],
)
def test_every_shape_of_a_denied_line_is_dropped_whole(
    bash: Shell, workspace: Path, line: str
) -> None:
    assert bash.run(line)[1] == 130
    assert list(workspace.iterdir()) == []


@pytest.mark.parametrize(
    ("key", "runs", "says"),
    ANSWERS,
)
def test_each_answer_to_the_question_does_what_it_says(
    bash: Shell, workspace: Path, key: str, runs: bool, says: str
) -> None:
    bash.send("cat /etc/hostname > marker")
    bash.expect("denies in 2 s")
    press(bash, key)
    out, status = bash.prompt()
    assert says in out
    assert (workspace / "marker").exists() is runs
    assert status == (0 if runs else 130)


def test_a_session_approval_stops_the_second_question(bash: Shell, workspace: Path) -> None:
    bash.send("cat /etc/hostname > marker")
    bash.expect("denies in")
    answer(bash.child, "s")
    bash.prompt()
    out, status = bash.run("cat /etc/hostname > marker2")
    assert (out, status) == ("", 0)
    assert (workspace / "marker2").exists()


def test_always_writes_the_rule_to_the_user_policy_file(bash: Shell) -> None:
    bash.send("cat /etc/hostname > marker")
    bash.expect("denies in")
    press(bash, "a|\r")
    bash.prompt()
    policy = Path(os.environ["GUARD_CONFIG"]).read_text()
    assert 'pattern = "/etc/hostname"' in policy and 'action = "allow"' in policy
    assert bash.run("cat /etc/hostname > marker2")[1] == 0


HISTORY_CASES = [
    ("HISTCONTROL=ignorespace", " touch denied", " touch marker", "touch marker"),
    ("HISTCONTROL=ignoreboth", " touch denied", " touch marker", "touch marker"),
    ("HISTCONTROL=ignoredups", "touch denied", "touch marker", "touch marker"),
    ("HISTIGNORE='touch*:ls'", "touch denied", "touch marker", "touch marker"),
    ("HISTSIZE=0", "touch denied", "touch marker", "touch marker"),
]


@pytest.mark.parametrize(("setting", "denied", "allowed", "hidden"), HISTORY_CASES)
def test_lines_the_history_settings_keep_out_are_still_checked_and_still_kept_out(
    workspace: Path, setting: str, denied: str, allowed: str, hidden: str
) -> None:
    shell = start(workspace, before=setting)
    try:
        shell.run("echo first")
        shell.run(allowed)
        assert shell.run(allowed)[1] == 0
        for _ in range(2):
            out, status = shell.run(denied)
            assert status == 130 and "guard: denied" in out
        assert sorted(p.name for p in workspace.iterdir()) == ["marker"]
        listing, _ = shell.run("history")
        if setting.startswith("HISTSIZE"):
            assert "touch" not in listing
        elif "dups" in setting:
            assert listing.count("touch marker") == 1
        else:
            assert hidden not in listing
    finally:
        shell.close()


def test_set_plus_o_history_is_refused_because_it_would_blind_the_hook(bash: Shell) -> None:
    out, status = bash.run("set +o history")
    assert status == 130 and "set +o history" in out
    assert bash.run("echo still seen") == ("still seen", 0)


def test_with_history_turned_off_anyway_no_line_runs(bash: Shell, workspace: Path) -> None:
    bash.run('h() { set +o "$1"; }')
    bash.run("h history")
    out, status = bash.run("touch marker")
    assert status == 130 and "history is off" in out
    assert list(workspace.iterdir()) == []


def test_a_user_int_trap_neither_lets_a_denied_line_through_nor_gets_lost(
    workspace: Path,
) -> None:
    shell = start(workspace, before="trap 'echo user trap' INT")
    try:
        assert shell.run(DENIED_SHAPE)[1] == 130
        assert list(workspace.iterdir()) == []
        assert shell.run("trap -p INT") == ("trap -- 'echo user trap' SIGINT", 0)
    finally:
        shell.close()


@pytest.mark.parametrize(
    "setup",
    [
        "PROMPT_COMMAND='echo -n'",
        "PROMPT_COMMAND=('echo -n' 'true')",
        "",
    ],
)
def test_loading_twice_registers_once(workspace: Path, setup: str) -> None:
    shell = start(workspace, before=setup, load=False)
    allow_sourcing(shell.hook_file)
    try:
        for _ in range(2):
            assert shell.run(f'. "{shell.hook_file}"') == ("", 0)
        out, _ = shell.run('printf "%s|" "${PROMPT_COMMAND[@]}"; echo; echo "$PS0 $PS2"; bind -X')
        assert out.count("__guard_precmd") == 1
        assert out.count("$(__guard_ps0)") == 1
        assert out.count("__guard_fast=__guard_armed=0") == 1  # PS2's part
        assert out.count("__guard_enter") == 1  # Enter's key binding
        assert shell.run(DENIED_SHAPE)[1] == 130
    finally:
        shell.close()


def test_loading_prints_nothing_and_adds_only_guard_names(workspace: Path) -> None:
    shell = start(workspace, load=False)
    allow_sourcing(shell.hook_file)
    try:
        shell.run("compgen -v | sort > vars0; compgen -A function | sort > fns0")
        assert shell.run(f'. "{shell.hook_file}"') == ("", 0)
        shell.run("compgen -v | sort > vars1; compgen -A function | sort > fns1")

        def added(name: str) -> set[str]:
            before = (workspace / f"{name}0").read_text().split()
            return set((workspace / f"{name}1").read_text().split()) - set(before)

        others = {v for v in added("vars") if not v.startswith("__guard_")}
        assert others == {"PS0", "PROMPT_COMMAND"}
        assert {f for f in added("fns") if not f.startswith("__guard_")} == {"fc", "guard"}
    finally:
        shell.close()


@pytest.mark.parametrize("order", ["before", "after"])
def test_bash_preexec_sees_allowed_lines_and_never_a_denied_one(
    workspace: Path, order: str
) -> None:
    home = Path(os.environ["HOME"])
    rc = bash_preexec(home)
    shell = start(workspace, **{order: rc})  # type: ignore[arg-type]
    try:
        assert shell.run("echo one") == ("one", 0)
        assert shell.run(DENIED_SHAPE)[1] == 130
        assert shell.run("echo two") == ("two", 0)
        assert list(workspace.iterdir()) == []
        assert (home / "preexec.log").read_text().splitlines() == ["echo one", "echo two"]
    finally:
        shell.close()


def test_a_killed_checker_leaves_the_next_line_checked(bash: Shell, workspace: Path) -> None:
    pid = int(bash.run("echo $__guard_pid")[0])
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.1)
    assert bash.run("touch denied")[1] == 130
    assert bash.run("touch marker") == ("", 0)
    assert sorted(p.name for p in workspace.iterdir()) == ["marker"]
    assert int(bash.run("echo $__guard_pid")[0]) != pid


@pytest.mark.parametrize("term", ["xterm", "dumb"])  # the wait at Enter, the wait in PS0
def test_a_hung_checker_costs_a_timeout_not_a_hang_and_lets_nothing_through(
    workspace: Path, term: str
) -> None:
    shell = start(workspace, env={"GUARD_HOOK_TIMEOUT": "3", "TERM": term})
    try:
        pid = int(shell.run("echo $__guard_pid")[0])
        wait_for_audit_row("echo $__guard_pid")  # stop it idle, not holding the store's lock
        os.kill(pid, signal.SIGSTOP)
        assert shell.run("touch denied")[1] == 130
        assert shell.run("touch marker") == ("", 0)
        assert sorted(p.name for p in workspace.iterdir()) == ["marker"]
    finally:
        shell.close()
        with __import__("contextlib").suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def test_fc_runs_history_lines_only_after_checking_them(bash: Shell, workspace: Path) -> None:
    bash.run("touch denied1")
    out, status = bash.run_allowing("fc -s touch")
    assert "guard: denied" in out and status != 0
    assert list(workspace.iterdir()) == []
    bash.run_allowing("fc -s denied=allowed touch")
    assert sorted(p.name for p in workspace.iterdir()) == ["allowed1"]


def test_fc_with_an_editor_checks_what_the_editor_left(bash: Shell, workspace: Path) -> None:
    bash.run("echo x")
    out, status = bash.run_allowing("fc -e \"sed -i 's/echo x/touch denied/'\"")
    assert "guard: denied" in out and status != 0
    assert list(workspace.iterdir()) == []


def test_the_checker_is_no_job_of_the_shell(bash: Shell) -> None:
    assert bash.run("jobs") == ("", 0)


def test_the_hook_passes_shellcheck(tmp_path: Path) -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (CI installs it: apt-get install shellcheck)")
    path = tmp_path / "guard.bash"
    path.write_text(hook("bash", guard_program(tmp_path)))
    done = subprocess.run(["shellcheck", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("options", ["set -u", "set -o pipefail; shopt -s extglob nullglob"])
def test_strict_shell_options_neither_break_the_hook_nor_open_it(
    workspace: Path, options: str
) -> None:
    shell = start(workspace, before=options)
    try:
        assert shell.run("echo hi") == ("hi", 0)
        assert shell.run(DENIED_SHAPE)[1] == 130
        assert shell.run(" echo spaced") == ("spaced", 0)
        out, status = shell.run_allowing("fc -s hi=again echo")
        assert out.endswith("echo again\nagain") and status == 0
        assert list(workspace.iterdir()) == []
    finally:
        shell.close()


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_guard_init_prints_the_hook_with_the_programs_absolute_path(
    tmp_path: Path, shell: str
) -> None:
    program = guard_program(tmp_path)
    done = subprocess.run([program, "init", shell], capture_output=True, text=True, check=True)
    assert f"__guard_bin={program}\n" in done.stdout
    assert "__guard_bin=guard " not in done.stdout
    assert done.stdout == hook(shell, program)


def test_guard_init_refuses_a_shell_it_has_no_hook_for(tmp_path: Path) -> None:
    done = subprocess.run(
        [guard_program(tmp_path), "init", "nu"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "invalid choice" in done.stderr


def test_python_settings_in_the_shell_cannot_run_code_inside_guard(
    workspace: Path, tmp_path: Path
) -> None:
    """Red-team finding: with PYTHONPATH naming a directory an agent can write, a
    sitecustomize.py there ran inside `guard check` and could approve anything."""
    evil = tmp_path / "evil"
    evil.mkdir()
    imported = tmp_path / "imported"
    (evil / "sitecustomize.py").write_text(
        f"import os, sys\nopen({str(imported)!r}, 'w').close()\n"
        "if 'check' in sys.argv: os._exit(0)\n"
    )
    shell = start(workspace, env={"GUARD_HOOK_TIMEOUT": "3", "PYTHONPATH": str(evil)})
    try:
        pid = int(shell.run("echo $__guard_pid")[0])
        wait_for_audit_row("echo $__guard_pid")
        os.kill(pid, signal.SIGSTOP)  # the fallback `guard check` decides now
        assert shell.run("touch denied")[1] == 130
        assert list(workspace.iterdir()) == []
        assert not imported.exists()
    finally:
        shell.close()
        with __import__("contextlib").suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("term", ["xterm", "dumb"])  # the wait at Enter, the wait in PS0
def test_a_checker_that_sleeps_is_killed_the_line_asks_and_the_next_line_is_checked(
    workspace: Path, tmp_path: Path, term: str
) -> None:
    sleepy = SleepyChecker(tmp_path)
    shell = start(
        workspace,
        env={"GUARD_HOOK_TIMEOUT": "3", "TERM": term},
        after=f"__guard_bin='{sleepy.program}'",
    )
    try:
        shell.send("echo allowed-by-the-policy")  # allowed, but the checker never answers
        asked = shell.expect("denies in", timeout=20)
        assert "checker timed out" in asked
        (sleeper,) = sleepy.sleepers()
        assert gone(sleeper)  # killed by its pid, not left to hang the next line
        sleepy.asleep.unlink()  # the checker the next prompt starts answers
        answer(shell.child, "y")
        out, status = shell.prompt()
        assert "allowed-by-the-policy" in out and status == 0
        pid = int(shell.run("echo $__guard_pid")[0])
        assert pid != sleeper and serving(pid)
        assert shell.run("touch marker") == ("", 0)
        assert "guard: denied" in shell.run("touch denied")[0]
        assert sorted(p.name for p in workspace.iterdir()) == ["marker"]
    finally:
        shell.close()
        for pid in sleepy.sleepers():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_denied_line_is_reported_with_its_control_characters_escaped(bash: Shell) -> None:
    bash.send("touch denied1 x\x16\x1b[2J\x16\x07")  # ^V: the next key goes in the line as it is
    out, _ = bash.prompt()
    (said,) = [ln for ln in out.split("\n") if "guard: denied" in ln]
    said = said[said.index("guard: denied") :]
    assert said.startswith("guard: denied: touch denied1 ")
    assert "\\e[2J\\x07" in said and "\x1b" not in said and "\x07" not in said


def children_waited_for(shell: Shell) -> int:
    """Page faults of the children bash has waited for (/proc/PID/stat cminflt): it grows
    with every process bash forks and waits for, such as PS0's command substitution."""
    stat = Path(f"/proc/{shell.child.pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[8])


@pytest.mark.parametrize(("term", "forks"), [("xterm", False), ("dumb", True)])
def test_an_allowed_line_is_checked_at_enter_without_a_fork(
    workspace: Path, term: str, forks: bool
) -> None:
    """On a terminal that can redraw a line the check runs in bash itself at Enter; on a dumb
    one PS0's command substitution (a fork) checks every line."""
    shell = start(workspace, env={"TERM": term})
    try:
        for _ in range(3):
            shell.run("true")
        before = children_waited_for(shell)
        for line in ("true", "echo hi", "cd .", "x=1"):
            shell.run(line)
        assert (children_waited_for(shell) > before) is forks
        assert shell.run("touch denied")[1] == 130
        assert list(workspace.iterdir()) == []
    finally:
        shell.close()


def test_the_check_at_enter_leaves_status_pipestatus_and_last_argument_as_they_were(
    bash: Shell,
) -> None:
    bash.run("echo one two")
    assert bash.run("echo $_") == ("two", 0)
    bash.run("false | true | (exit 3)")
    assert bash.run('echo "$? ${PIPESTATUS[*]}"') == ("3 1 0 3", 0)


@pytest.mark.parametrize("keys", ["\n", "\x0f"])  # C-j: accept-line; C-o: operate-and-get-next
def test_a_line_accepted_by_another_key_than_enter_is_checked_by_ps0(
    bash: Shell, workspace: Path, keys: str
) -> None:
    bash.child.send("touch denied" + keys)
    out, status = bash.prompt()
    assert status == 130 and "guard: denied" in out
    assert list(workspace.iterdir()) == []


def guard_keys(shell: Shell) -> str:
    """The key sequence that runs guard's check at Enter, as bytes to type (from `bind -X`,
    a line that runs in this shell: how anyone who can run a line here could learn it)."""
    out, _ = shell.run("bind -X")
    (seq,) = [ln.split('"')[1] for ln in out.splitlines() if "__guard_enter" in ln]
    return seq.replace("\\C-x", "\x18").replace("\\C-_", "\x1f")


def test_a_line_that_goes_on_after_the_check_at_enter_is_checked_whole_by_ps0(
    bash: Shell, workspace: Path
) -> None:
    """The check at Enter approved `echo hi`; the line went on (continuation lines come after
    PS2) and became `echo hi &&` + `touch denied`: PS2 took the approval back."""
    keys = guard_keys(bash)
    bash.child.send("echo hi" + keys)  # the check at Enter, for `echo hi`
    bash.child.send(" &&\n")  # C-j accepts, bash reads on
    bash.send("touch denied")
    out, status = bash.prompt()
    assert status == 130 and "guard: denied" in out
    assert list(workspace.iterdir()) == []


def test_a_line_bash_changes_by_history_expansion_is_checked_as_expanded(
    bash: Shell, workspace: Path
) -> None:
    assert bash.run("echo denied1") == ("denied1", 0)
    out, status = bash.run("touch !$")
    assert status == 130 and "guard: denied: touch denied1" in out
    assert list(workspace.iterdir()) == []


@pytest.mark.parametrize(
    "setup",
    [
        'bind \'"\\C-m": "\\C-e\\C-j"\'',  # a macro of the user's own on Enter
        "TERM=dumb",  # bind -x would show the line twice
        "set +o emacs",  # no line editing
    ],
)
def test_enter_is_left_alone_where_guard_cannot_bind_it_and_ps0_checks(
    workspace: Path, setup: str
) -> None:
    shell = start(workspace, before=setup)
    try:
        if "C-e" in setup:
            assert '"\\C-m": "\\C-e\\C-j"' in shell.run("bind -s")[0]
        before = children_waited_for(shell)
        assert shell.run("echo hi") == ("hi", 0)
        assert children_waited_for(shell) > before  # PS0's command substitution checked it
        assert shell.run(DENIED_SHAPE)[1] == 130
        assert list(workspace.iterdir()) == []
    finally:
        shell.close()


def test_in_vi_mode_enter_checks_without_a_fork_too(workspace: Path) -> None:
    shell = start(workspace, after="set -o vi")
    try:
        shell.run("true")
        before = children_waited_for(shell)
        assert shell.run("echo hi") == ("hi", 0)
        assert children_waited_for(shell) == before
        assert shell.run(DENIED_SHAPE)[1] == 130
        assert list(workspace.iterdir()) == []
    finally:
        shell.close()


def test_ctrl_c_while_the_check_at_enter_waits_runs_nothing(
    workspace: Path, tmp_path: Path
) -> None:
    sleepy = SleepyChecker(tmp_path)
    shell = start(
        workspace, env={"GUARD_HOOK_TIMEOUT": "30"}, after=f"__guard_bin='{sleepy.program}'"
    )
    try:
        shell.send("touch marker")  # allowed, but the checker never answers
        time.sleep(0.5)  # a human who gives up waiting
        shell.child.send("\x03")
        _, status = shell.prompt()
        assert status == 130
        assert list(workspace.iterdir()) == []
    finally:
        shell.close()
        for pid in sleepy.sleepers():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("int_trap", ["", "trap 'echo user trap' INT"])
def test_each_request_carries_the_shells_int_trap(tmp_path: Path, int_trap: str) -> None:
    """The checker answers whether to stop a dropped line with SIGINT or through the USR2
    relay from the INT trap the request carries: none, SIGINT; one (which would swallow it),
    the relay. The hook's own __guard_send, run by bash into a file."""
    text = (Path(__file__).resolve().parents[2] / "shell-hooks" / "guard.bash").read_text()
    start = text.index("__guard_send() {")
    send = text[start : text.index("\n}\n", start) + 3]
    out = tmp_path / "request"
    script = f"{send}\n{int_trap}\nexec 9>{out}\n__guard_in=9 __guard_pid=1\n"
    script += "__guard_send line ls id1\n"
    subprocess.run(["bash", "--norc", "-c", script], check=True)
    fields = out.read_bytes().split(b"\0")
    assert fields[:3] == [b"1", b"id1", b"bash"] and fields[8:10] == [b"line", b"ls"]
    assert fields[7].decode() == ("trap -- 'echo user trap' SIGINT\n" if int_trap else "")
