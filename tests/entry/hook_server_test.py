"""The resident checker: its wire format, and a real `guard serve` process on real pipes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guard.entry.shell_hooks.server import BLINDS, HOOK_GONE, NOT_IN_HISTORY
from guard.entry.shell_hooks.state import exported_variables, history_entry
from guard.verdict.store.store import Store


@pytest.mark.parametrize(
    ("printed", "entry"),
    [
        ("    7  ls -la\n", (7, "ls -la")),
        ("   12* edited later\n", (12, "edited later")),
        ("    3   leading space\n", (3, " leading space")),
        ("    4  for i in 1\ndo echo $i\ndone\n", (4, "for i in 1\ndo echo $i\ndone")),
        ("123456  wide number\n", (123456, "wide number")),
        ("", None),
        ("no number here\n", None),
    ],
)
def test_a_history_entry_is_read_as_bash_prints_it(
    printed: str, entry: tuple[int, str] | None
) -> None:
    assert history_entry(printed) == entry


def bash_export(values: Mapping[str, str], *flags: str) -> str:
    env = {"PATH": os.environ["PATH"], **values}
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", *flags, "-c", "export -p"],
        env=env,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode("utf-8", "surrogateescape")


TRICKY = {
    "PLAIN": "value",
    "EMPTY": "",
    "SPACES": "a b  c",
    "QUOTES": "it's \"quoted\" `tick` $dollar \\back",
    "NEWLINE": "one\ntwo\n",
    "CONTROL": "\x01\x1b[31m\t\r",
    "UNICODE": "héllo → wörld",
    "EQUALS": "a=b=c",
}


@pytest.mark.parametrize("flags", [(), ("--posix",)])
def test_exported_variables_come_back_exactly_from_bash_export_p(flags: tuple[str, ...]) -> None:
    parsed = exported_variables(bash_export(TRICKY, *flags))
    assert {name: parsed[name] for name in TRICKY} == TRICKY


def test_bytes_that_are_not_utf8_survive_in_the_c_locale() -> None:
    raw = {"RAW": b"caf\xe9".decode("utf-8", "surrogateescape")}
    parsed = exported_variables(bash_export({**raw, "LC_ALL": "C"}))
    assert parsed["RAW"] == raw["RAW"]


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="\0", codec="utf-8"), max_size=40))
def test_any_value_comes_back_exactly(value: str) -> None:
    assert exported_variables(bash_export({"V": value}))["V"] == value


class Server:
    """`guard serve` on pipes, spoken to as the hooks speak to it."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "guard", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.count = 0

    def send(self, fields: list[str]) -> None:
        assert self.process.stdin is not None
        data = b"".join(f.encode("utf-8", "surrogateescape") + b"\0" for f in fields)
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def reply(self) -> tuple[str, str, str, str]:
        assert self.process.stdout is not None
        record = bytearray()
        while (byte := self.process.stdout.read(1)) not in (b"\0", b""):
            record += byte
        rid, decision, relay, text = record.decode("utf-8", "surrogateescape").split(" ", 3)
        return rid, decision, relay, text

    def line(
        self,
        line: str,
        *,
        cwd: str,
        env: Mapping[str, str] | None = None,
        int_trap: str = "",
        gen: str = "",
    ) -> tuple[str, str, str]:
        self.count += 1
        rid = f"r{self.count}"
        pairs = [f"{k}={v}" for k, v in (env or os.environ).items()]
        header = ["1", rid, "zsh", "session-1", cwd, "", gen or str(self.count), int_trap]
        self.send([*header, "line", line, *pairs, ""])
        got, decision, relay, text = self.reply()
        assert got == rid
        return decision, relay, text

    def history(self, printed: str, last: int, *, cwd: str) -> tuple[str, str]:
        self.count += 1
        rid = f"h{self.count}"
        exported = "".join(f'declare -x {k}="{v}"\n' for k, v in os.environ.items() if '"' not in v)
        fields = ["1", rid, "bash", "session-1", cwd, str(last), str(self.count), "", "history"]
        self.send([*fields, printed, exported])
        got, decision, _, text = self.reply()
        assert got == rid
        return decision, text

    def typed(self, line: str, *, cwd: str) -> tuple[str, str]:
        """bash's request at Enter, for the line in the editor (no prompt count)."""
        self.count += 1
        rid = f"t{self.count}"
        exported = "".join(f'declare -x {k}="{v}"\n' for k, v in os.environ.items() if '"' not in v)
        self.send(["1", rid, "bash", "session-1", cwd, "", "", "", "typed", line, exported])
        got, decision, _, text = self.reply()
        assert got == rid
        return decision, text

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=20)


@pytest.fixture
def server(workspace: Path) -> Iterator[Server]:
    s = Server()
    yield s
    if s.process.poll() is None:
        s.process.kill()
        s.process.wait()


def deny_rule(path: Path, pattern: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    rule = f'[[rules]]\nsurface = "command"\npattern = "{pattern}"\naction = "deny"\n'
    path.write_text(rule)


@pytest.mark.parametrize(
    ("line", "decision"),
    [("ls -la", "allow"), ("echo hi > out.txt", "allow"), ("cat /etc/hosts", "ask")],
)
def test_it_answers_as_the_policy_says(
    server: Server, workspace: Path, line: str, decision: str
) -> None:
    got, _, text = server.line(line, cwd=str(workspace))
    assert got == decision
    if decision == "ask":
        assert text == line


def test_a_denied_line_comes_with_the_reason(server: Server, workspace: Path) -> None:
    deny_rule(Path(os.environ["GUARD_CONFIG"]), "touch denied*")
    decision, _, text = server.line("touch denied1", cwd=str(workspace))
    assert decision == "deny" and text.startswith("guard: denied: ")


def test_a_policy_file_that_changes_is_read_again(server: Server, workspace: Path) -> None:
    assert server.line("touch denied1", cwd=str(workspace))[0] == "allow"
    deny_rule(Path(os.environ["GUARD_CONFIG"]), "touch denied*")
    assert server.line("touch denied1", cwd=str(workspace))[0] == "deny"
    Path(os.environ["GUARD_CONFIG"]).write_text("")
    assert server.line("touch denied1", cwd=str(workspace))[0] == "allow"


def test_the_shells_environment_decides_which_policy_file_counts(
    server: Server, workspace: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.toml"
    deny_rule(other, "touch *")
    env = {**os.environ, "GUARD_CONFIG": str(other)}
    assert server.line("touch x", cwd=str(workspace), env=env)[0] == "deny"
    assert server.line("touch x", cwd=str(workspace))[0] == "allow"


@pytest.mark.parametrize(
    ("printed", "last", "decision"),
    [
        ("    8  ls\n", 7, "allow"),
        ("    7  touch denied\n", 7, "deny"),
        ("    6  ls\n", 7, "deny"),
        ("nonsense", 7, "deny"),
    ],
)
def test_a_bash_line_counts_only_when_it_is_newer_than_the_prompt(
    server: Server, workspace: Path, printed: str, last: int, decision: str
) -> None:
    got, text = server.history(printed, last, cwd=str(workspace))
    assert got == decision
    if decision == "deny":
        assert text == NOT_IN_HISTORY


def test_set_plus_o_history_is_refused_in_bash(server: Server, workspace: Path) -> None:
    assert server.history("    9  set +o history\n", 8, cwd=str(workspace)) == ("deny", BLINDS)


def test_an_int_trap_in_the_shell_asks_for_the_relay(server: Server, workspace: Path) -> None:
    assert server.line("ls", cwd=str(workspace))[1] == "-"
    assert server.line("ls", cwd=str(workspace), int_trap="trap -- 'x' SIGINT")[1] == "t"


def test_two_lines_without_a_prompt_between_them_warn(server: Server, workspace: Path) -> None:
    assert server.line("ls", cwd=str(workspace), gen="5")[2] == ""
    assert server.line("ls", cwd=str(workspace), gen="5")[2] == HOOK_GONE["zsh"]


def test_allowed_and_denied_lines_reach_the_audit_log(server: Server, workspace: Path) -> None:
    deny_rule(Path(os.environ["GUARD_CONFIG"]), "touch denied*")
    server.line("ls", cwd=str(workspace))
    server.line("touch denied1", cwd=str(workspace))
    server.line("cat /etc/hosts", cwd=str(workspace))
    assert server.close() == 0
    with Store.open() as store:
        rows = [(r.command, r.decision, r.detail) for r in reversed(store.log("session-1"))]
    origin = '{"origin": "hook"}'
    assert rows == [("ls", "allow", origin), ("touch denied1", "deny", origin)]


@pytest.mark.parametrize(
    ("line", "decision"),
    [
        ("ls -la", "allow"),
        ("touch denied1", "pass"),  # denied: PS0 checks it again and says why
        ("cat /etc/hosts", "pass"),  # asks: PS0 asks
        ("for i in 1", "pass"),  # bash reads on: PS0 checks the whole
        ("set +o history", "pass"),
    ],
)
def test_a_line_typed_at_enter_is_allowed_or_passed_on_to_ps0(
    server: Server, workspace: Path, line: str, decision: str
) -> None:
    deny_rule(Path(os.environ["GUARD_CONFIG"]), "touch denied*")
    assert server.typed(line, cwd=str(workspace)) == (decision, "")


def test_only_an_allowed_typed_line_reaches_the_audit_log(server: Server, workspace: Path) -> None:
    deny_rule(Path(os.environ["GUARD_CONFIG"]), "touch denied*")
    server.typed("ls", cwd=str(workspace))
    server.typed("touch denied1", cwd=str(workspace))
    server.typed("cat /etc/hosts", cwd=str(workspace))
    assert server.close() == 0
    with Store.open() as store:
        rows = [(r.command, r.decision) for r in reversed(store.log("session-1"))]
    assert rows == [("ls", "allow")]


def test_a_request_of_another_version_gets_fallback_and_the_checker_exits(
    server: Server,
) -> None:
    server.send(["2", "x1", "bash"])
    assert server.reply()[1] == "fallback"
    assert server.process.wait(timeout=20) == 1


def test_it_ends_when_the_shell_closes_the_pipe(server: Server) -> None:
    assert server.close() == 0


def test_an_interrupt_at_the_prompt_does_not_stop_it(server: Server, workspace: Path) -> None:
    assert server.line("ls", cwd=str(workspace))[0] == "allow"
    server.process.send_signal(signal.SIGINT)
    assert server.line("ls", cwd=str(workspace))[0] == "allow"


def test_it_never_loads_the_prompt(workspace: Path) -> None:
    code = (
        "import sys, os\n"
        "from guard.entry.shell_hooks.server import HookChecker, HookRequest\n"
        f"r = HookRequest('1', 'zsh', 's', {str(workspace)!r}, '', '1', '', 'line', "
        "'cat /etc/hosts', dict(os.environ))\n"
        "print(HookChecker().answer(r)[0].decision, 'prompt_toolkit' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["ask", "False"]
