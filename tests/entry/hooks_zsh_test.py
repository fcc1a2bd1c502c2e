"""The zsh hook, driven through a real interactive zsh in a pseudo-terminal.

Every test works in a workspace of its own (GUARD_WORKSPACE) under a user policy that denies
`touch denied*`; a marker file shows whether a line ran. A dropped line leaves `$?` at 130, as
in bash (the hook has `sched` set it at the prompt), which the prompt `<%?>@@ ` shows."""

from __future__ import annotations

import contextlib
import os
import re
import signal
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
    deny_touch_workspace,
    gone,
    have,
    press,
    serving,
    wait_for_audit_row,
)

pytestmark = [
    pytest.mark.pty,
    pytest.mark.skipif(not have("zsh"), reason="zsh is not installed (CI installs it)"),
]

RECORDER = 'rec() { print -r -- "$1" >> ~/preexec.log }\npreexec_functions+=(rec)'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return deny_touch_workspace(tmp_path)


@pytest.fixture
def zsh(workspace: Path) -> Iterator[Shell]:
    shell = Shell("zsh", workspace)
    yield shell
    shell.close()


def start(workspace: Path, **kwargs: object) -> Shell:
    return Shell("zsh", workspace, **kwargs)  # type: ignore[arg-type]


def markers(workspace: Path) -> list[str]:
    return sorted(p.name for p in workspace.iterdir())


@pytest.mark.parametrize(
    ("line", "output", "status"),
    [
        ("echo hi", "hi", 0),
        ("false", "", 1),
        ("print -l a b", "a\nb", 0),
        ("(exit 7)", "", 7),
        ("echo one | tr o 0; echo two", "0ne\ntwo", 0),
    ],
)
def test_an_allowed_line_runs_with_its_output_and_status(
    zsh: Shell, line: str, output: str, status: int
) -> None:
    assert zsh.run(line) == (output, status)


def test_a_denied_line_runs_nothing_at_all(zsh: Shell, workspace: Path) -> None:
    out, status = zsh.run(DENIED_SHAPE)
    assert out.startswith("guard: denied:") and out.count("\n") == 0
    assert status == 130
    assert markers(workspace) == []
    assert zsh.run("whence -w f") == ("f: none", 1)


@pytest.mark.parametrize(
    "line",
    [
        "for i in 1\ndo touch marker\ndone; touch denied",
        "echo $(touch marker) | touch denied",
        "g() { touch marker }; g; touch denied",
        " touch marker; touch denied",
        "cat > marker <<EOF; touch denied\nhi\nEOF",
    ],
)
def test_every_shape_of_a_denied_line_is_dropped_whole(
    zsh: Shell, workspace: Path, line: str
) -> None:
    out, status = zsh.run(line)
    assert "guard: denied" in out and status == 130
    assert markers(workspace) == []


def test_after_a_denied_line_dollar_question_is_130_until_the_next_command(zsh: Shell) -> None:
    assert zsh.run("echo last word") == ("last word", 0)
    assert zsh.run("touch denied0")[1] == 130
    assert zsh.run("echo $_") == ("word", 0)  # $_ is left as it was
    assert zsh.run("(exit 7)") == ("", 7)
    assert zsh.run("touch denied1")[1] == 130
    assert zsh.run("") == ("", 130)  # an empty line keeps $?, as after any command
    assert zsh.run("echo $? $pipestatus") == ("130 130", 0)
    assert zsh.run("false; echo $?") == ("1", 0)
    assert zsh.run("touch denied2")[1] == 130
    assert zsh.run("false") == ("", 1)
    assert zsh.run("echo $? $pipestatus") == ("1 1", 0)
    assert zsh.run("") == ("", 0)


def test_allowed_multi_line_input_runs_with_its_status(zsh: Shell) -> None:
    assert zsh.run("cat <<EOF\nhi\nEOF") == ("hi", 0)
    assert zsh.run("for i in 1 2\ndo echo $i\ndone; (exit 4)") == ("1\n2", 4)


def test_history_holds_the_denied_line_as_typed_and_nothing_of_the_hook(zsh: Shell) -> None:
    zsh.run("echo one")
    assert zsh.run("touch denied1   'two  spaces'")[1] == 130
    assert zsh.run("fc -ln -1") == ("touch denied1   'two  spaces'", 0)
    out, _ = zsh.run("fc -ln 1")
    assert out.splitlines() == ["echo one", "touch denied1   'two  spaces'", "fc -ln -1"]
    assert zsh.run("sched") == ("", 0)  # nothing of the hook's left waiting


def test_err_exit_and_a_zerr_trap_stay_out_of_a_denied_line(workspace: Path) -> None:
    shell = start(workspace, after="setopt err_exit\nTRAPZERR() { print zerr }")
    try:
        for line in ("touch denied1", DENIED_SHAPE):  # the second one's prompt follows a 130
            out, status = shell.run(line)
            assert "guard: denied" in out and "zerr" not in out and status == 130
        assert shell.run("echo alive") == ("alive", 0)
        assert markers(workspace) == []
    finally:
        shell.close()


def test_a_failure_while_setting_the_status_still_drops_the_line(workspace: Path) -> None:
    shell = start(workspace, after="typeset -r __guard_refused=x")  # assigning it fails
    try:
        out, _ = shell.run(DENIED_SHAPE)
        assert "guard: denied" in out
        assert markers(workspace) == []
        assert shell.run("whence -w f") == ("f: none", 1)
    finally:
        shell.close()


@pytest.mark.parametrize(
    ("key", "runs", "says"),
    ANSWERS,
)
def test_each_answer_to_the_question_does_what_it_says(
    zsh: Shell, workspace: Path, key: str, runs: bool, says: str
) -> None:
    zsh.send("cat /etc/hostname > marker")
    zsh.expect("denies in 2 s")
    press(zsh, key)
    out, status = zsh.prompt()
    assert says in out
    assert (workspace / "marker").exists() is runs
    assert status == (0 if runs else 130)


def test_a_line_allowed_at_the_question_ends_with_its_own_status(zsh: Shell) -> None:
    zsh.send("cat /etc/hostname > marker; (exit 3)")
    zsh.expect("denies in")
    answer(zsh.child, "y")
    assert zsh.prompt()[1] == 3
    assert zsh.run("echo $?") == ("3", 0)


def test_a_session_approval_stops_the_second_question(zsh: Shell, workspace: Path) -> None:
    zsh.send("cat /etc/hostname > marker")
    zsh.expect("denies in")
    answer(zsh.child, "s")
    zsh.prompt()
    assert zsh.run("cat /etc/hostname > marker2") == ("", 0)
    assert markers(workspace) == ["marker", "marker2"]


def test_always_writes_the_rule_to_the_user_policy_file(zsh: Shell) -> None:
    zsh.send("cat /etc/hostname > marker")
    zsh.expect("denies in")
    press(zsh, "a|\r")
    zsh.prompt()
    policy = Path(os.environ["GUARD_CONFIG"]).read_text()
    assert 'pattern = "/etc/hostname"' in policy and 'action = "allow"' in policy
    assert zsh.run("cat /etc/hostname > marker2") == ("", 0)


@pytest.mark.parametrize(
    ("setting", "denied"),
    [
        ("setopt hist_ignore_space", " touch denied"),
        ("setopt hist_ignore_dups hist_ignore_all_dups", "touch denied"),
        ("HISTORY_IGNORE='touch*'", "touch denied"),
        ("HISTSIZE=0 SAVEHIST=0", "touch denied"),
        ("setopt hist_no_store hist_no_functions", "touch denied"),
    ],
)
def test_lines_the_history_settings_keep_out_are_still_checked(
    workspace: Path, setting: str, denied: str
) -> None:
    shell = start(workspace, before=setting)
    try:
        for _ in range(2):
            assert "guard: denied" in shell.run(denied)[0]
        assert markers(workspace) == []
        assert shell.run(" echo ok") == ("ok", 0)
    finally:
        shell.close()


@pytest.mark.parametrize(
    "trap", ["trap 'print user trap' INT", "TRAPINT() { print user trap; return 1 }"]
)
def test_a_user_int_trap_neither_lets_a_denied_line_through_nor_gets_lost(
    workspace: Path, trap: str
) -> None:
    shell = start(workspace, before=trap)
    try:
        assert shell.run(DENIED_SHAPE)[1] == 130
        assert markers(workspace) == []
        out, _ = shell.run("trap; whence -w TRAPINT")
        assert "user trap" in out
    finally:
        shell.close()


def test_loading_twice_registers_once_and_first(workspace: Path) -> None:
    shell = start(workspace, before=RECORDER, after="preexec_functions+=(other)")
    allow_sourcing(shell.hook_file)
    try:
        assert shell.run(f'. "{shell.hook_file}"') == ("", 0)
        out, _ = shell.run("echo $preexec_functions; echo $precmd_functions")
        assert out.splitlines()[0] == "__guard_preexec rec other"
        assert out.splitlines()[1] == "__guard_precmd"
        assert shell.run(f'. "{shell.hook_file}"') == ("", 0)
        out, status = shell.run("touch denied1")
        assert out.count("guard: denied") == 1 and status == 130
        assert shell.run("echo $?") == ("130", 0)
    finally:
        shell.close()


def test_loading_prints_nothing_and_adds_only_guard_names(workspace: Path) -> None:
    dump = "dump() { print -l ${(k)parameters} > vars$1; print -l ${(k)functions} > fns$1 }"
    shell = start(workspace, load=False, before=dump)
    try:
        shell.run("dump 0")
        assert shell.run(f'. "{shell.hook_file}"') == ("", 0)
        shell.run("dump 1")

        def added(name: str) -> set[str]:
            before = (workspace / f"{name}0").read_text().split()
            return set((workspace / f"{name}1").read_text().split()) - set(before)

        others = {v for v in added("vars") if not v.startswith("__guard_")}
        assert others <= {"preexec_functions", "precmd_functions"}
        assert {f for f in added("fns") if not f.startswith("__guard_")} == {"fc", "r", "guard"}
    finally:
        shell.close()


@pytest.mark.parametrize("order", ["before", "after"])
def test_a_preexec_recorder_sees_allowed_lines_and_never_a_denied_one(
    workspace: Path, order: str
) -> None:
    shell = start(workspace, **{order: RECORDER})  # type: ignore[arg-type]
    try:
        assert shell.run("echo one") == ("one", 0)
        assert "guard: denied" in shell.run(DENIED_SHAPE)[0]
        assert shell.run("echo two") == ("two", 0)
        log = Path(os.environ["HOME"]) / "preexec.log"
        assert log.read_text().splitlines() == ["echo one", "echo two"]
    finally:
        shell.close()


def test_a_killed_checker_leaves_the_next_line_checked(zsh: Shell, workspace: Path) -> None:
    pid = int(zsh.run("echo $__guard_pid")[0])
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.1)
    assert "guard: denied" in zsh.run("touch denied")[0]
    assert zsh.run("touch marker") == ("", 0)
    assert markers(workspace) == ["marker"]
    assert int(zsh.run("echo $__guard_pid")[0]) != pid


def test_a_hung_checker_costs_a_timeout_not_a_hang_and_lets_nothing_through(
    workspace: Path,
) -> None:
    shell = start(workspace, env={"GUARD_HOOK_TIMEOUT": "3"})
    pid = int(shell.run("echo $__guard_pid")[0])
    wait_for_audit_row("echo $__guard_pid")  # stop it idle, not holding the store's lock
    try:
        os.kill(pid, signal.SIGSTOP)
        assert "guard: denied" in shell.run("touch denied")[0]
        assert shell.run("touch marker") == ("", 0)
        assert markers(workspace) == ["marker"]
    finally:
        shell.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("again", ["r", "fc -e -", "fc -s"])
def test_r_and_fc_run_history_lines_only_after_checking_them(
    zsh: Shell, workspace: Path, again: str
) -> None:
    zsh.run("touch denied1")
    assert "guard: denied" in zsh.run_allowing(again)[0]
    assert markers(workspace) == []
    zsh.run_allowing(f"{again} denied=allowed touch")
    assert markers(workspace) == ["allowed1"]


def test_fc_with_an_editor_checks_what_the_editor_left(zsh: Shell, workspace: Path) -> None:
    zsh.run("echo x")
    assert "guard: denied" in zsh.run_allowing("fc -e \"sed -i 's/echo x/touch denied/'\"")[0]
    assert markers(workspace) == []


def test_the_checker_is_no_job_of_the_shell(zsh: Shell) -> None:
    assert zsh.run("jobs") == ("", 0)


@pytest.mark.parametrize(
    "options", ["setopt nounset", "setopt sh_word_split ksh_arrays err_return"]
)
def test_strict_shell_options_neither_break_the_hook_nor_open_it(
    workspace: Path, options: str
) -> None:
    shell = start(workspace, before=options)
    try:
        assert shell.run("echo hi") == ("hi", 0)
        assert "guard: denied" in shell.run(DENIED_SHAPE)[0]
        out, status = shell.run_allowing("r hi=again echo")
        assert out.endswith("echo again\nagain") and status == 0
        assert markers(workspace) == []
    finally:
        shell.close()


def test_a_checker_that_sleeps_is_killed_the_line_asks_and_the_next_line_is_checked(
    workspace: Path, tmp_path: Path
) -> None:
    sleepy = SleepyChecker(tmp_path)
    shell = start(
        workspace, env={"GUARD_HOOK_TIMEOUT": "3"}, after=f"__guard_bin='{sleepy.program}'"
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
        assert markers(workspace) == ["marker"]
    finally:
        shell.close()
        for pid in sleepy.sleepers():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_denied_line_is_reported_with_its_control_characters_escaped(zsh: Shell) -> None:
    zsh.send("touch denied1 x\x16\x1b[2J\x16\x07")  # ^V: the next key goes in the line as it is
    out, _ = zsh.prompt()
    (said,) = [ln for ln in out.split("\n") if "guard: denied" in ln]
    said = said[said.index("guard: denied") :]
    assert said.startswith("guard: denied: touch denied1 ")
    assert "\\e[2J\\x07" in said and "\x1b" not in said and "\x07" not in said


# -- what precmd sees: prompt themes (starship, powerlevel10k) read $? there --------------------

PRECMD = "__test_precmd() { print -r -- \"precmd-saw-$?\" }\nprecmd_functions+=(__test_precmd)"


def test_precmd_sees_a_failure_after_a_line_guard_refused(workspace: Path) -> None:
    shell = start(workspace, after=PRECMD)
    try:
        assert "precmd-saw-0" in shell.run("true")[0]
        out, status = shell.run("touch denied1")
        assert "guard: denied" in out and status == 130
        assert "precmd-saw-0" not in out and re.search(r"precmd-saw-[1-9]", out)
        assert shell.run("echo $?")[0].splitlines()[0] == "130"  # and 130 after the hooks
        assert "precmd-saw-0" in shell.run("true")[0]
        assert markers(workspace) == []
    finally:
        shell.close()


@pytest.mark.parametrize("key", ["n", "\x03", ""])  # deny, ^C, no answer in time
def test_precmd_sees_a_failure_after_a_refusal_at_the_question(workspace: Path, key: str) -> None:
    """The question is asked at Enter, so a refusal there ends the line editor as a denial
    does: precmd (where prompt themes read $?) sees a failure, the prompt and `echo $?` 130."""
    shell = start(workspace, after=PRECMD)
    try:
        assert "precmd-saw-0" in shell.run("true")[0]
        shell.send("cat /etc/hostname > marker")
        shell.expect("denies in")
        answer(shell.child, key)
        out, status = shell.prompt()
        assert status == 130 and "precmd-saw-0" not in out and re.search(r"precmd-saw-[1-9]", out)
        assert "@@" not in out  # the prompt drawn again under the question is expanded
        assert not (workspace / "marker").exists()
        assert shell.run("echo $?")[0].splitlines()[0] == "130"
        assert shell.run("fc -ln -2 -2")[0].splitlines()[0].strip() == "cat /etc/hostname > marker"
    finally:
        shell.close()


def test_a_line_zsh_reads_on_is_asked_about_whole(workspace: Path) -> None:
    """A line zsh cannot take yet (a `for` awaiting its `do`) is not asked about at its first
    Enter: zsh reads on, and the whole of it is asked about once."""
    shell = start(workspace, after=PRECMD)
    try:
        shell.send("for f in /etc/hostname")
        shell.child.expect_exact("> ")
        shell.send("do cat $f > marker; done")
        shell.expect("denies in")
        answer(shell.child, "y")
        out, status = shell.prompt()
        assert status == 0 and out.count("denies in") == 0
        assert (workspace / "marker").exists()
    finally:
        shell.close()


def test_a_line_allowed_at_enter_runs_once_unasked_again(workspace: Path) -> None:
    shell = start(workspace, after=PRECMD)
    try:
        assert shell.run("echo one >> marker") == ("precmd-saw-0", 0)
        shell.send("cat /etc/hostname >> marker")
        shell.expect("denies in")
        answer(shell.child, "y")
        out, status = shell.prompt()
        assert status == 0 and "precmd-saw-0" in out and "denies in" not in out
        assert (workspace / "marker").read_text().count("\n") == 2
    finally:
        shell.close()


def test_a_refused_line_is_in_the_history_to_edit_again(zsh: Shell) -> None:
    zsh.run("touch denied1")
    assert zsh.run("fc -ln -1")[0].strip() == "touch denied1"


def test_a_users_own_accept_line_widget_still_runs_after_the_check(workspace: Path) -> None:
    own = "my-accept() { print -r -- mine; zle .accept-line }\nzle -N accept-line my-accept"
    shell = start(workspace, before=own, after=PRECMD)
    try:
        out, status = shell.run("echo hi")
        assert status == 0 and "mine" in out and "hi" in out
        out, status = shell.run("touch denied1")
        assert status == 130 and "mine" not in out and re.search(r"precmd-saw-[1-9]", out)
        assert markers(workspace) == []
    finally:
        shell.close()
