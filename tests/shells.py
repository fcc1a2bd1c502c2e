"""Real interactive bash and zsh in a pseudo-terminal, with guard's hook loaded, for the tests.

A shell starts in a workspace directory of the test's own, with the environment the conftest
fixture set up (HOME, XDG dirs, GUARD_STATE_DIR, GUARD_CONFIG) plus GUARD_WORKSPACE, and reads
only the rc file written here. Its prompt ends in `@@ ` after the last status, so `run` can wait
for it and tell what a line printed and how it ended.

bash runs on an xterm (TERM=xterm), where the hook binds Enter to check the line before readline
accepts it (`bind -x`, which redraws the line after clearing it). bash's prompt therefore counts
itself (`<STATUS>COUNT@@ `): a redrawn prompt repeats its count, the next one has a larger one.
zsh's prompt counts the same way: its hook asks at Enter, below the line, which zsh then draws
again (`zle -I`).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pexpect

PROMPT = "@@ "
PROMPT_RE = re.compile(r"<(\d+)>(\d*)@@ ")
# a line bind -x cleared and drew again (the echo before it stays), escape sequences, CRs
REDRAWN = re.compile(r"\r\x1b\[K\r[^\r\n]*")
NOISE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


def clean(text: str) -> str:
    return NOISE.sub("", REDRAWN.sub("", text))


ROOT = Path(__file__).resolve().parents[1]


def guard_program(tmp: Path) -> str:
    """The guard program of this checkout: the venv's script, or a wrapper around python -m."""
    script = Path(sys.executable).parent / "guard"
    if script.exists():
        return str(script)
    wrapper = tmp / "guard-bin" / "guard"
    wrapper.parent.mkdir(exist_ok=True)
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m guard "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


def hook(shell: str, program: str) -> str:
    from guard.entry.shell_hooks.init import render

    return render(shell, program)


def have(shell: str) -> bool:
    return shutil.which(shell) is not None


class Shell:
    """One interactive shell. `before` and `after` are rc text around the hook."""

    def __init__(
        self,
        shell: str,
        workspace: Path,
        *,
        before: str = "",
        after: str = "",
        load: bool = True,
        env: dict[str, str] | None = None,
        timeout: float = 15,
    ) -> None:
        self.shell = shell
        self.workspace = workspace
        home = Path(os.environ["HOME"])
        self.program = guard_program(workspace.parent)
        rc = home / f"rc.{shell}"
        hook_file = home / f"hook.{shell}"
        hook_file.write_text(hook(shell, self.program))
        prompt = (
            "__test_prompts=0 PS1='<$?>$((++__test_prompts))@@ '"
            if shell == "bash"
            else "setopt prompt_subst\n__test_prompts=0 PS1='<%?>${__test_prompts}@@ '"
            "\nprecmd() { (( ++__test_prompts )) }"
            "\nunsetopt prompt_sp\nzle_bracketed_paste=()"
        )
        loading = f'. "{hook_file}"\n' if load else ""
        rc.write_text(f"{prompt}\nPS2='> '\nunset PROMPT_COMMAND\n{before}\n{loading}{after}\n")
        self.hook_file = hook_file
        full = dict(os.environ)
        full.update(
            {
                "GUARD_WORKSPACE": str(workspace),
                "GUARD_PROMPT_TIMEOUT": "2",
                "TERM": "xterm" if shell == "bash" else "dumb",
                "HISTFILE": str(home / f".{shell}_history"),
                "PATH": f"{Path(self.program).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            }
        )
        full.update(env or {})
        if shell == "bash":
            argv = ["--noprofile", "--rcfile", str(rc), "-i"]
        else:
            full["ZDOTDIR"] = str(home / "zdot")
            (home / "zdot").mkdir(exist_ok=True)
            (home / "zdot" / ".zshrc").write_text(rc.read_text())
            argv = ["-i", "-o", "NO_GLOBAL_RCS"]
        self.child = pexpect.spawn(
            shell,
            argv,
            cwd=str(workspace),
            env=full,
            encoding="utf-8",
            timeout=timeout,
            dimensions=(40, 200),
        )
        self.child.delaybeforesend = None
        self.count = 0
        self._next_prompt()

    def _next_prompt(self) -> None:
        """Wait for a new prompt; skip a prompt drawn again (the same count): bash's bind -x
        redraws the line it cleared; zsh draws the line again after a question asked at Enter,
        and what was printed before that counts as the line's output."""
        said = ""
        while True:
            self.child.expect(PROMPT_RE)
            count = self.child.match.group(2)
            if not count or int(count) > self.count:
                self.count = int(count or 0)
                self.child.before = said + self.child.before
                return
            if self.shell == "zsh":
                said += self.child.before

    def send(self, line: str) -> None:
        self.child.send(line + "\r")

    def run(self, line: str) -> tuple[str, int]:
        """Type `line`, wait for the next prompt; what was printed (without the echo) and $?."""
        self.send(line)
        self._next_prompt()
        out = clean(self.child.before)
        echoed = line.replace("\n", "\n> ")
        if out.startswith(echoed):
            out = out[len(echoed) :]
        return out.strip("\n"), int(self.child.match.group(1))

    def run_allowing(self, line: str) -> tuple[str, int]:
        """Like `run`, answering "allow once" if the line asks (as `fc` and `r` lines do: what
        they run is not known from the line; the hook checks it when it is)."""
        self.send(line)
        while True:
            if self.child.expect(["denies in", PROMPT_RE]) == 0:
                answer(self.child, "y")
                self._next_prompt()
                break
            count = self.child.match.group(2)
            if not count or int(count) > self.count:
                self.count = int(count or 0)
                break
        out = clean(self.child.before)
        return out.strip("\n"), int(self.child.match.group(1))

    def expect(self, pattern: str, timeout: float | None = None) -> str:
        self.child.expect(pattern, timeout=timeout if timeout is not None else -1)
        return self.child.before

    def prompt(self) -> tuple[str, int]:
        self._next_prompt()
        return clean(self.child.before), int(self.child.match.group(1))

    def close(self) -> None:
        if self.child.isalive():
            self.child.sendeof()
            self.child.close(force=True)


def allow_sourcing(path: Path) -> None:
    """Let the user policy allow running `path` (sourcing the hook a second time)."""
    policy = Path(os.environ["GUARD_CONFIG"])
    rule = f'surface = "external_directory"\npattern = "{path}"\naction = "allow"\n'
    policy.write_text(policy.read_text() + "\n[[rules]]\n" + rule)


DENY_TOUCH = """[[rules]]
surface = "command"
pattern = "touch denied*"
action = "deny"
"""

# A stand-in for bash-preexec (https://github.com/rcaloras/bash-preexec), which no package
# registry reachable from CI carries. It does what matters here the way bash-preexec 0.6 does:
# it installs itself at the first prompt, puts its precmd first and its "interactive mode" marker
# last in PROMPT_COMMAND (and keeps them there), and its DEBUG trap calls the preexec functions
# with `history 1` for the first command after a prompt, unless standard output is not a
# terminal or the command is one of PROMPT_COMMAND's. Set BASH_PREEXEC to the real file to test
# against that instead.
BASH_PREEXEC_STANDIN = r"""
__bp_imported=defined
__bp_mode=
__bp_precmd() {
    local s=$?
    __bp_place
    local f; for f in "${precmd_functions[@]}"; do "$f"; done
    return $s
}
__bp_interactive() { __bp_mode=on; }
__bp_place() {
    local pc=${PROMPT_COMMAND//__bp_install/}
    pc=${pc//__bp_precmd/}; pc=${pc//__bp_interactive/}
    PROMPT_COMMAND=__bp_precmd$'\n'$pc$'\n'__bp_interactive
}
__bp_preexec() {
    [[ -t 1 && -n $__bp_mode && -z ${COMP_LINE-} ]] || return 0
    if [[ $'\n'${PROMPT_COMMAND[*]}$'\n' == *$'\n'"$BASH_COMMAND"$'\n'* ]]; then
        __bp_mode=
        return 0
    fi
    __bp_mode=
    local line; line=$(HISTTIMEFORMAT= builtin history 1)
    line=${line#*[0-9][* ] }
    local f; for f in "${preexec_functions[@]}"; do "$f" "$line"; done
}
__bp_install() {
    trap '__bp_preexec' DEBUG
    __bp_place
    __bp_interactive
}
PROMPT_COMMAND=${PROMPT_COMMAND:+$PROMPT_COMMAND$'\n'}__bp_install
"""


def bash_preexec(home: Path) -> str:
    """rc text that loads bash-preexec (the real one if BASH_PREEXEC names it) and records each
    preexec call in ~/preexec.log."""
    real = os.environ.get("BASH_PREEXEC", "")
    source = Path(real).read_text() if real else BASH_PREEXEC_STANDIN
    path = home / "bash-preexec.sh"
    path.write_text(source)
    log = home / "preexec.log"
    record = f'__rec() {{ printf "%s\\n" "$1" >> "{log}"; }}\npreexec_functions+=(__rec)\n'
    return f'. "{path}"\n{record}'


def wait_for_audit_row(command: str) -> None:
    """The checker writes a line's audit row just after answering; wait until it has."""
    import time

    from guard.verdict.store.store import Store

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with Store.open() as store:
            if any(row.command == command for row in store.log(limit=20)):
                return
        time.sleep(0.02)
    raise AssertionError(f"no audit row for {command!r}")


DENIED_SHAPE = "touch denied1; f() { :; }; for i in 1; do touch marker2; done"


def deny_touch_workspace(tmp_path: Path) -> Path:
    """A workspace whose user policy denies `touch denied*` lines (DENY_TOUCH)."""
    ws = tmp_path / "ws"
    ws.mkdir()
    policy = Path(os.environ["GUARD_CONFIG"])
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(DENY_TOUCH)
    return ws


# Each key a human may press at the question: does the command run, and what guard says. A `|`
# waits for the line that asks to confirm a permanent answer (see `press`).
ANSWERS = [
    ("y", True, "guard: allowed once"),
    ("s", True, "guard: allowed for this session"),
    ("a|\r", True, "guard: allowed always"),
    ("a", False, "no answer within 2 s"),  # one stray key never writes a lasting rule
    ("a\r", False, "no answer within 2 s"),  # nor does an Enter in flight with it
    ("n", False, "guard: denied"),
    ("\x03", False, "guard: denied"),
    ("", False, "no answer within 2 s"),
]


class SleepyChecker:
    """A guard program whose checker (`guard serve`) sleeps instead of answering while the file
    `asleep` exists; every other command is the real guard. Each sleeper's pid goes to `pids`."""

    def __init__(self, tmp: Path) -> None:
        real = guard_program(tmp)
        self.asleep = tmp / "checker-asleep"
        self.pids = tmp / "checker-pids"
        self.program = tmp / "sleepy-guard"
        self.asleep.touch()
        self.program.write_text(
            "#!/bin/sh\n"
            f'if [ "$1" = serve ] && [ -e "{self.asleep}" ]; then\n'
            f'    echo $$ >>"{self.pids}"\n'
            "    exec sleep 600\n"
            "fi\n"
            f'exec "{real}" "$@"\n'
        )
        self.program.chmod(0o755)

    def sleepers(self) -> list[int]:
        return [int(p) for p in self.pids.read_text().split()] if self.pids.exists() else []


def gone(pid: int, within: float = 5.0) -> bool:
    """Whether process `pid` ends (or is a zombie) within `within` seconds."""
    import time

    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def serving(pid: int) -> bool:
    """Whether `pid` is a real checker (`guard serve`), not a sleeper."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except FileNotFoundError:
        return False
    return b"serve" in argv and not any(a.endswith(b"sleep") for a in argv)


def past_grace() -> None:
    """Wait, as a human reading a question just drawn would, until it takes keys: keys sooner
    than `ANSWER_GRACE` after it appears answer nothing."""
    import time

    from guard.asking.prompt import ANSWER_GRACE

    time.sleep(ANSWER_GRACE + 0.15)


def answer(child: pexpect.spawn, keys: str) -> None:
    """Type ``keys`` at a question that has just appeared on ``child``'s screen."""
    past_grace()
    child.send(keys)


def press(shell: Shell, keys: str, *, grace: bool = True) -> None:
    """Type ``keys`` at the question (once it takes keys). A ``|`` waits, as a human would, for
    the line asking to confirm a permanent answer and a moment more (`CONFIRM_GAP`), then types
    the rest."""
    import time

    from guard.asking.prompt import CONFIRM_GAP

    if grace:
        past_grace()
    first, bar, rest = keys.partition("|")
    if first:
        shell.child.send(first)
    if bar:
        shell.expect("press Enter to confirm")
        time.sleep(CONFIRM_GAP + 0.1)
        press(shell, rest, grace=False)
