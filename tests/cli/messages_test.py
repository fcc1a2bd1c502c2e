"""Messages that do not contradict themselves: the reason the terminal was not asked is the
real one, the way out names the rule to write, and install-shell lists only commands as
commands. Real processes; the ones that need a terminal run in a pty."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

GUARD = [sys.executable, "-m", "guard"]


def in_a_terminal(*args: str, cwd: Path, **env: str) -> tuple[int, str]:
    child = pexpect.spawn(GUARD[0], [*GUARD[1:], *args], cwd=str(cwd), encoding="utf-8",
                          env={**os.environ, "TERM": "dumb", **env}, timeout=30)  # fmt: skip
    child.logfile_read = seen = io.StringIO()
    child.expect(pexpect.EOF)
    child.close()
    return int(child.exitstatus or 0), " ".join(seen.getvalue().split())


@pytest.mark.pty
@pytest.mark.parametrize(
    ("env", "said"),
    [({"GUARD_NONINTERACTIVE": "1"}, "GUARD_NONINTERACTIVE is set, so the terminal is not asked"),
     ({"GUARD_APPROVER": "always"}, "GUARD_APPROVER=always keeps the question off this terminal")],
)  # fmt: skip
def test_with_a_terminal_there_the_message_never_says_there_is_none(
    tmp_path: Path, env: dict[str, str], said: str
) -> None:
    status, shown = in_a_terminal("check", "--", "cat /etc/hosts", cwd=tmp_path, **env)
    assert status == 1
    assert "no terminal" not in shown and "needs your approval" not in shown
    assert shown.startswith("guard: denied `cat /etc/hosts` (read /etc/hosts (cat) is outside")
    assert f"Nobody can be asked here — {said}, and no approver is listening" in shown


def test_the_way_out_names_the_rule_that_would_allow_the_line(tmp_path: Path) -> None:
    done = subprocess.run([*GUARD, "check", "--", "cat /etc/hosts"], cwd=tmp_path,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
                          start_new_session=True)  # fmt: skip
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    policy = os.environ["GUARD_CONFIG"]
    assert done.stderr.endswith(
        f'add an allow rule to {policy}: surface = "external_directory", pattern = "/etc/hosts", '
        'access = ["read"], action = "allow"\n'
    )
    code = subprocess.run([*GUARD, "check", "--", 'eval "$X"'], cwd=tmp_path,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
                          start_new_session=True)  # fmt: skip
    assert code.stderr.endswith("allow it once at a terminal (what it runs cannot be approved "
                                "for longer)\n")  # fmt: skip


def test_install_shell_lists_commands_to_run_and_nothing_else(tmp_path: Path) -> None:
    done = subprocess.run([*GUARD, "install-shell", "--dir", str(tmp_path / "bin"), "--script"],
                          capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    lines = done.stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("To make it your login shell"))
    commands = [ln.strip() for ln in lines[start + 1 :] if ln.startswith("  ")]
    assert commands and all(c.split()[0] in ("echo", "chsh", "export") for c in commands)


BROKEN = '[[rules]]\nsurface = "command"\npattern = "ls *"\naction = allow\n'


def test_a_broken_policy_file_is_named_with_its_line_never_offered_a_rule(tmp_path: Path) -> None:
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(BROKEN, encoding="utf-8")
    done = subprocess.run([*GUARD, "check", "--", "cat /etc/hosts"], cwd=tmp_path,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
                          start_new_session=True)  # fmt: skip
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert f"{policy}:4: not valid TOML" in done.stderr
    assert "run `guard policy check` to see each problem" in done.stderr
    assert "add an allow rule" not in done.stderr and "surface =" not in done.stderr
    assert done.stderr.count("not valid TOML") == 1  # said once, not once per request


@pytest.mark.pty
def test_the_question_under_a_broken_policy_says_why_and_offers_only_once(tmp_path: Path) -> None:
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(BROKEN, encoding="utf-8")
    status, shown = in_a_terminal("check", "--", "cat /etc/hosts", cwd=tmp_path,
                                  GUARD_PROMPT_TIMEOUT="1")  # fmt: skip
    assert status == 1
    assert "policy problem:" in shown and ":4: not valid TOML" in shown
    assert "run `guard policy check`" in shown
    assert "[y] allow once" in shown and "[s]" not in shown and "[a]" not in shown
