"""The habits of a well-kept command line, through the real `guard` program: did-you-mean,
-V, completion scripts, help on every option, `explain -`, careful grants and clears."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from shells import answer

from guard.cli import build_parser

GUARD = [sys.executable, "-m", "guard"]


def guard(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GUARD, *args], cwd=cwd, capture_output=True, text=True, input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL, timeout=60,
                          start_new_session=True)  # fmt: skip


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [("chek", "`guard check`"), ("explian", "`guard explain`"), ("logs", "`guard log`"),
     ("aprovals", "`guard approvals` or `guard approve`"), ("wach", "`guard watch`")],
)  # fmt: skip
def test_a_mistyped_subcommand_gets_a_suggestion(
    tmp_path: Path, typed: str, suggested: str
) -> None:
    done = guard(typed, "--", "ls", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (f"guard: there is no command {typed!r}; did you mean {suggested}? "
                           "(`guard --help` lists them)\n")  # fmt: skip


def test_an_unknown_subcommand_with_nothing_near_says_where_the_list_is(tmp_path: Path) -> None:
    done = guard("zzzzqx", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (
        2, "guard: there is no command 'zzzzqx' (`guard --help` lists them)\n")


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_the_version_flag(tmp_path: Path, flag: str) -> None:
    from guard import __version__

    assert guard(flag, cwd=tmp_path).stdout == f"guard {__version__}\n"


def actions(parser: argparse.ArgumentParser, path: str) -> list[tuple[str, argparse.Action]]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                out += actions(child, f"{path} {name}")
        elif action.dest != "help":
            out.append((path, action))
    return out


def test_every_option_and_argument_has_help_text(tmp_path: Path) -> None:
    found = actions(build_parser(), "guard")
    assert len(found) > 40
    assert [(p, a.option_strings or a.dest) for p, a in found if not (a.help or "").strip()] == []
    shown = " ".join(guard("approvals", "grant", "--help", cwd=tmp_path).stdout.split())
    assert "for every session, until revoked" in shown and "an absolute path pattern" in shown


def bash_complete(script: str, *words: str) -> list[str]:
    line = " ".join(f"'{w}'" for w in words)
    program = (f"{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _guard_complete; "
               'printf "%s\\n" "${COMPREPLY[@]}"')  # fmt: skip
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True,
                          text=True, timeout=30, check=True)  # fmt: skip
    return done.stdout.split()


def test_bash_completion_knows_subcommands_verbs_and_options(tmp_path: Path) -> None:
    script = guard("completion", "bash", cwd=tmp_path).stdout
    assert "complete -o default -F _guard_complete guard" in script
    assert bash_complete(script, "guard", "ex") == ["explain"]
    assert bash_complete(script, "guard", "approvals", "") == ["clear", "grant", "list", "revoke"]
    assert bash_complete(script, "guard", "approvals", "grant", "--al") == ["--always"]
    assert bash_complete(script, "guard", "explain", "--json", "--c") == ["--cwd"]
    assert "completion" in bash_complete(script, "guard", "")


@pytest.mark.skipif(subprocess.run(["sh", "-c", "command -v zsh"], capture_output=True).returncode,
                    reason="zsh is not installed (CI installs it)")  # fmt: skip
def test_zsh_completion_loads_and_registers_itself(tmp_path: Path) -> None:
    script = tmp_path / "guard.zsh"
    script.write_text(guard("completion", "zsh", cwd=tmp_path).stdout)
    program = (f"autoload -Uz compinit && compinit -D -d {tmp_path}/zcd && . {script} && "
               "print -r -- $_comps[guard]")  # fmt: skip
    done = subprocess.run(["zsh", "-f", "-c", program], capture_output=True, text=True,
                          timeout=30, check=False, env={**os.environ, "ZDOTDIR": str(tmp_path)})
    assert (done.returncode, done.stdout, done.stderr) == (0, "_guard\n", "")


def test_explain_dash_reads_the_line_from_stdin(tmp_path: Path) -> None:
    line = "cat /etc/hosts > out\n"
    from_stdin = guard("explain", "--json", "-", cwd=tmp_path, stdin=line)
    from_args = guard("explain", "--json", "--", line.rstrip("\n"), cwd=tmp_path)
    assert from_stdin.returncode == 0
    assert json.loads(from_stdin.stdout) == json.loads(from_args.stdout)
    assert json.loads(from_stdin.stdout)["command"] == "cat /etc/hosts > out"


def test_grant_always_needs_no_session_and_grant_needs_one_of_them(tmp_path: Path) -> None:
    done = guard("approvals", "grant", "--always", "--surface", "command", "--pattern",
                 "make *", cwd=tmp_path)  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, "granted #1\n", "")
    rows = json.loads(guard("approvals", "list", "--json", cwd=tmp_path).stdout)
    assert [(r["scope"], r["session"]) for r in rows] == [("always", None)]
    neither = guard("approvals", "grant", "--surface", "command", "--pattern", "x *",
                    cwd=tmp_path)  # fmt: skip
    assert neither.returncode == 2
    assert "needs --session ID (for one session) or --always" in neither.stderr


@pytest.mark.parametrize(
    ("pattern", "suggested"),
    [("data/**", "{cwd}/data/**"), ("./notes.txt", "{cwd}/notes.txt"), ("../x/*", "{up}/x/*")],
)
def test_a_relative_path_pattern_is_refused_with_the_absolute_one(
    tmp_path: Path, pattern: str, suggested: str
) -> None:
    cwd = tmp_path / "here"
    cwd.mkdir()
    done = guard("approvals", "grant", "--session", "s", "--surface", "external_directory",
                 "--pattern", pattern, cwd=cwd)  # fmt: skip
    assert done.returncode == 2
    want = suggested.format(cwd=cwd, up=tmp_path)
    assert done.stderr.endswith(f"write the absolute path: --pattern {want!r}\n")
    assert json.loads(guard("approvals", "list", "--json", cwd=cwd).stdout) == []


def spawn_guard(*args: str, cwd: Path) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "guard", *args], cwd=str(cwd),
                          env=dict(os.environ), encoding="utf-8", timeout=20)  # fmt: skip
    return child


def granted(cwd: Path) -> int:
    return len(json.loads(guard("approvals", "list", "--json", cwd=cwd).stdout))


@pytest.mark.pty
@pytest.mark.parametrize(("typed", "kept"), [("y\r", 0), ("\r", 1), ("n\r", 1), ("yes\r", 0)])
def test_approvals_clear_asks_on_a_terminal(tmp_path: Path, typed: str, kept: int) -> None:
    guard("approvals", "grant", "--always", "--surface", "command", "--pattern", "make *",
          cwd=tmp_path)  # fmt: skip
    child = spawn_guard("approvals", "clear", cwd=tmp_path)
    child.expect_exact("guard: revoke all approvals? [y/N] ")
    answer(child, typed)
    child.expect(pexpect.EOF)
    child.close()
    assert (child.exitstatus == 0) is (kept == 0)
    assert granted(tmp_path) == kept


def test_approvals_clear_without_a_terminal_needs_yes(tmp_path: Path) -> None:
    guard("approvals", "grant", "--always", "--surface", "command", "--pattern", "make *",
          cwd=tmp_path)  # fmt: skip
    done = guard("approvals", "clear", cwd=tmp_path)
    assert done.returncode == 2
    assert "add --yes" in done.stderr and granted(tmp_path) == 1
    assert guard("approvals", "clear", "--yes", cwd=tmp_path).returncode == 0
    assert granted(tmp_path) == 0


@pytest.mark.pty
@pytest.mark.parametrize("term", ["dumb", "xterm"])
def test_the_question_shows_paths_as_typed_and_wraps_between_words(
    tmp_path: Path, term: str
) -> None:
    """`guard check` in a narrow terminal: each path as the line wrote it with what it
    resolves to beside it, and rows that break between words, never inside one."""
    work = tmp_path / "work"
    work.mkdir()
    line = "cat ../secret-notes.txt > $HOME/copied-notes.txt"
    child = pexpect.spawn(sys.executable, ["-m", "guard", "check", "--", line], cwd=str(work),
                          env={**os.environ, "TERM": term, "GUARD_WORKSPACE": str(work)},
                          encoding="utf-8", timeout=20, dimensions=(40, 50))  # fmt: skip
    child.logfile_read = seen = io.StringIO()
    child.expect("denies in")
    answer(child, "n")
    child.expect(pexpect.EOF)
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.getvalue()).replace("\r", "")
    rows = [row.rstrip() for row in screen.split("\n")]
    flat = "".join(screen.split())
    read = f"read ../secret-notes.txt = {tmp_path}/secret-notes.txt (cat)"
    write = "write $HOME/copied-notes.txt = ~/copied-notes.txt (redirect)"
    for reason in (read, write):
        assert "".join(reason.split()) in flat  # as shown, wherever the rows broke
    words = set(f"- {read} {write}".split())
    at = next(i for i, row in enumerate(rows) if row.startswith("  - read"))
    for row in rows[at : at + 4]:
        assert len(row) <= 50
        cut = [w for w in row.split() if w not in words]
        assert all(any(w in long and len(long) > 40 for long in words) for w in cut), row


def test_revoke_takes_the_id_as_list_prints_it(tmp_path: Path) -> None:
    for pattern in ("make *", "git push *"):
        guard("approvals", "grant", "--always", "--surface", "command", "--pattern", pattern,
              cwd=tmp_path)  # fmt: skip
    listed = guard("approvals", "list", cwd=tmp_path).stdout
    assert listed.startswith("#1 ") and "\n#2 " in listed
    assert guard("approvals", "revoke", "#2", cwd=tmp_path).stdout == "revoked #2\n"
    assert guard("approvals", "revoke", "1", cwd=tmp_path).stdout == "revoked #1\n"
    wrong = guard("approvals", "revoke", "#x", cwd=tmp_path)
    assert wrong.returncode == 2
    assert "'#x' is not an id: give one `guard approvals list` shows, as #12" in wrong.stderr
    assert guard("approvals", "list", "--ids", cwd=tmp_path).stdout == ""


@pytest.mark.parametrize("line", [["ls", "-la"], ["git", "log", "-n", "3"], ["df", "-h"],
                                  ["bash", "-c", "rm -rf ~"]])  # fmt: skip
def test_explain_takes_the_line_without_a_double_dash(tmp_path: Path, line: list[str]) -> None:
    plain = guard("explain", "--json", *line, cwd=tmp_path)
    dashed = guard("explain", "--json", "--", *line, cwd=tmp_path)
    assert (plain.returncode, plain.stderr) == (0, "")
    assert json.loads(plain.stdout) == json.loads(dashed.stdout)
    assert json.loads(plain.stdout)["command"] == " ".join(line)


@pytest.mark.parametrize(
    ("typed", "said"),
    [(["ls", "--json"], "guard: is --json part of the line or an option of explain? Options go "
      "before the line: guard explain --json -- ls; a line with it goes after --: "
      "guard explain -- ls --json\n"),
     (["--all", "x"], "guard: explain has no option --all; to explain a line that starts with "
      "it, put the line after --: guard explain -- --all x\n"),
     (["--js", "ls"], "guard: --js could be --json or --jsonl; write it whole\n")],
)  # fmt: skip
def test_explain_says_what_to_type_when_a_word_could_be_its_own(
    tmp_path: Path, typed: list[str], said: str
) -> None:
    done = guard("explain", *typed, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", said)


def test_bash_completion_completes_values(tmp_path: Path) -> None:
    from guard.entry.agents.config import AGENTS
    from guard.entry.shell_hooks.init import SHELLS

    for pattern in ("make *", "git push *"):
        guard("approvals", "grant", "--always", "--surface", "command", "--pattern", pattern,
              cwd=tmp_path)  # fmt: skip
    script = guard("completion", "bash", cwd=tmp_path).stdout
    script = script.replace('"${COMP_WORDS[0]}"', shlex.join(GUARD))  # this guard, no PATH
    assert bash_complete(script, "guard", "setup", "") == list(AGENTS)
    assert bash_complete(script, "guard", "setup", "--project", "co") == ["codex", "copilot"]
    assert bash_complete(script, "guard", "init", "") == sorted(SHELLS)
    assert bash_complete(script, "guard", "approvals", "revoke", "") == ["1", "2"]
    assert bash_complete(script, "guard", "approvals", "revoke", "1", "") == ["-h", "--help"]
    assert bash_complete(script, "guard", "approvals", "grant", "--access", "") == [
        "read", "write", "execute", "chdir"]
    assert "external_directory" in bash_complete(script, "guard", "approvals", "grant",
                                                 "--surface", "")  # fmt: skip


@pytest.mark.pty
@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (CI installs it)")
def test_zsh_completion_completes_values_and_options(tmp_path: Path) -> None:
    guard("approvals", "grant", "--always", "--surface", "command", "--pattern", "make *",
          cwd=tmp_path)  # fmt: skip
    script = tmp_path / "guard.zsh"
    script.write_text(guard("completion", "zsh", cwd=tmp_path).stdout)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "guard").write_text(f"#!/bin/sh\nexec {shlex.join(GUARD)} \"$@\"\n")
    (bindir / "guard").chmod(0o755)
    env = {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}", "ZDOTDIR": str(tmp_path),
           "TERM": "dumb"}  # fmt: skip
    z = pexpect.spawn("zsh", ["-f", "-i"], env=env, cwd=str(tmp_path), encoding="utf-8",
                      timeout=20, dimensions=(24, 200))  # fmt: skip
    z.sendline(f"PS1='%% '; autoload -Uz compinit && compinit -D -d {tmp_path}/zcd && "
               f". {script}; echo READY")  # fmt: skip
    z.expect("READY")
    z.expect("% ")
    for typed, shown in [("guard setup co", "codex"), ("guard init ", "bash  fish  zsh"),
                         ("guard approvals revoke ", "guard approvals revoke 1 "),
                         ("guard setup codex --dr", "guard setup codex --dry-run ")]:  # fmt: skip
        z.send(typed + "\t")
        z.expect_exact(shown)
        z.send("\x03")
        z.expect("% ")
    z.sendline("exit")
    z.expect(pexpect.EOF)


def test_version_and_help_import_no_subcommand_and_no_argparse(tmp_path: Path) -> None:
    probe = ("import sys; from guard.cli import main; status = main(sys.argv[1:]); "
             "print(status, sorted(m for m in sys.modules if m.startswith('guard.cli.') "
             "or m == 'argparse'), file=sys.stderr)")  # fmt: skip
    for flag in ("--version", "-V", "--help", "-h"):
        done = subprocess.run([sys.executable, "-c", probe, flag], capture_output=True, text=True,
                              cwd=tmp_path, timeout=60)  # fmt: skip
        assert done.stderr == "0 []\n", flag
    alone = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           cwd=tmp_path, timeout=60)  # fmt: skip
    assert alone.stderr.endswith("2 []\n") and alone.stderr.startswith("usage: guard")


def test_the_help_lists_every_command_with_the_line_its_parser_has(tmp_path: Path) -> None:
    shown = guard("--help", cwd=tmp_path).stdout
    listed: dict[str, str] = {}
    for line in shown.split("commands:\n")[1].split("\n\n")[0].splitlines():
        if not line.startswith("   "):
            name, _, text = line.strip().partition(" ")
            listed[name] = text
        else:
            listed[name] += " " + line
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert list(listed) == list(sub.choices)
    for choice in sub._choices_actions:
        assert listed[choice.dest].split() == (choice.help or "").split(), choice.dest
