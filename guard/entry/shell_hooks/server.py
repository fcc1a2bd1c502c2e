"""The resident checker behind the shell hooks: one per shell, started by the hook on its pipes.

It judges every command line the hook sends and answers allow, deny or ask. It keeps policies,
trust, an open store and the approvals in memory (`guard/verdict/cache/line_cache.py`: each read
again as soon as what it came from changes, so an approval granted in another terminal counts at
once), and writes the audit row after it has answered — before, for a session's first row, after
a row was lost, and where the managed policy keeps an audit log
(guard/verdict/store/trouble.py). It never asks a human and never imports prompt_toolkit: on ask
the hook runs `guard check`, which does.

Wire format, version 1. A request is NUL-terminated fields:

    1  ID  SHELL  SESSION  CWD  LAST  GEN  INTTRAP  MODE  TEXT  ENV…

SHELL is bash or zsh; GEN counts the shell's prompts (the same GEN twice means the prompt hook
did not run between two lines); INTTRAP is bash's `trap -p INT`. MODE `history`: TEXT is bash's
`history 1` and LAST the number of the newest history entry when the prompt was drawn — the line
must have a larger one, or it never reached the history list and TEXT is an older line. MODE
`line`: TEXT is the line itself. MODE `typed` (bash, at Enter, before bash reads the line):
TEXT is the line in the editor; the answer is allow when the policy allows it with nothing to
say, else pass (PS0 checks the line as bash read it, and only that check writes an audit row).
ENV: bash sends one field, its `export -p`; zsh sends a NAME=VALUE field per exported parameter
and an empty field after the last.

The answer is one NUL-terminated record: `ID DECISION TRAP TEXT`, where DECISION is allow, deny,
ask, pass (typed only) or fallback (run `guard check` instead), TRAP is `t` when the shell has an
INT trap, else `-`, and TEXT is the warnings (allow), the message (deny), the line (ask) or the
reason (fallback).
"""

from __future__ import annotations

import os
import queue
import re
import select
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from guard.entry.check import LineRequest, decide_line, may_write_late, told
from guard.entry.shell_hooks.state import exported, history_entry
from guard.errors import GuardError
from guard.verdict import Judgement, LineCache, is_agent

VERSION = "1"
HEADER = 10  # fields before ENV
NOT_IN_HISTORY = (
    "guard: this line did not reach bash's history list, so guard cannot see what it would "
    "run; it was not run. Run it again; if this repeats, run `guard doctor`"
)
HOOK_GONE = {
    "bash": "guard: PROMPT_COMMAND no longer runs guard's hook; run `guard doctor`",
    "zsh": "guard: precmd_functions no longer runs guard's hook; run `guard doctor`",
}
HISTORY_OFF = re.compile(r"\bset\b[^;&|\n]*\+o\s*history\b")
BLINDS = (
    "guard: `set +o history` would hide every later line from guard, so none could run; to keep "
    "lines out of the history use HISTCONTROL=ignorespace and a leading space, or HISTFILE="
)
WAKE_SECONDS = 5.0  # how often a waiting checker looks whether its shell is still there


class HookProtocolError(Exception):
    """A request that does not follow the wire format; the checker answers and exits."""


@dataclass(frozen=True, slots=True)
class HookRequest:
    id: str
    shell: str
    session: str
    cwd: str
    last: str
    gen: str
    int_trap: str
    mode: str
    text: str
    env: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class Reply:
    id: str
    decision: str  # allow, deny, ask, pass, fallback
    relay: bool  # the shell has an INT trap: stop the line through the USR2 relay
    text: str

    def encode(self) -> bytes:
        record = f"{self.id} {self.decision} {'t' if self.relay else '-'} {self.text}"
        return record.encode("utf-8", "surrogateescape").replace(b"\0", b"") + b"\0"


def fields(fd: int, alive: Callable[[], bool]) -> Iterator[str]:
    """NUL-terminated fields read from `fd` until end of file or until `alive()` says no."""
    buffer = b""
    while True:
        end = buffer.find(b"\0")
        if end >= 0:
            yield buffer[:end].decode("utf-8", "surrogateescape")
            buffer = buffer[end + 1 :]
            continue
        ready, _, _ = select.select([fd], [], [], WAKE_SECONDS)
        if not ready:
            if not alive():
                return
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return
        buffer += chunk


def read_request(source: Iterator[str]) -> HookRequest:
    """The next request; StopIteration at the end, HookProtocolError (with the id) when
    malformed."""
    head = [next(source)]
    head.append(_more(source, head))
    if head[0] != VERSION:
        raise HookProtocolError(head[1])
    for _ in range(HEADER - 2):
        head.append(_more(source, head))
    _, rid, shell, session, cwd, last, gen, int_trap, mode, text = head
    if shell not in ("bash", "zsh") or mode not in ("history", "line", "typed"):
        raise HookProtocolError(rid)
    env: Mapping[str, str]
    if shell == "bash":
        env = exported(_more(source, head))
    else:
        env = {}
        while item := _more(source, head):
            name, eq, value = item.partition("=")
            if eq and name:
                env[name] = value
    return HookRequest(rid, shell, session, cwd, last, gen, int_trap, mode, text, env)


def _more(source: Iterator[str], head: list[str]) -> str:
    try:
        return next(source)
    except StopIteration:
        raise HookProtocolError(head[1] if len(head) > 1 else "") from None


class HookChecker:
    """Turns requests into replies; remembers what one shell's previous line looked like."""

    def __init__(self) -> None:
        self.cache = LineCache()  # policies, trust, the store and approvals between lines
        self._gen = ""
        self._env: dict[str, str] = {}

    def answer(self, request: HookRequest) -> tuple[Reply, Judgement | None]:
        relay = bool(request.int_trap.strip())
        typed = request.mode == "typed"  # at Enter: allow, or pass to PS0's check of the line
        line = request.text
        if request.mode == "history":
            entry = history_entry(request.text)
            if entry is None or not request.last.isdigit() or entry[0] <= int(request.last):
                return Reply(request.id, "deny", relay, NOT_IN_HISTORY), None
            line = entry[1]
        warnings: list[str] = []
        if not typed:
            if request.gen and request.gen == self._gen:
                warnings.append(HOOK_GONE[request.shell])
            self._gen = request.gen
        self._adopt(request.env)
        if request.shell == "bash" and HISTORY_OFF.search(line):
            if typed:
                return Reply(request.id, "pass", relay, ""), None
            return Reply(request.id, "deny", relay, BLINDS), None
        result = self._judged(request, line)
        decision = result.verdict.decision
        if typed:
            # allowed (recorded) when the policy allows it with nothing to say; anything else
            # passes to PS0's check of the line bash read, which records it
            if decision != "allow" or result.warnings:
                return Reply(request.id, "pass", relay, ""), None
            return Reply(request.id, "allow", relay, ""), result
        if decision == "ask":
            return Reply(request.id, "ask", relay, line), None
        from guard.printable import escaped

        said = [*map(escaped, warnings), *told(result)]  # each one line, safe for the terminal
        return Reply(request.id, decision, relay, "\n".join(said)), result

    def _judged(self, request: HookRequest, line: str) -> Judgement:
        """`line` judged as a fresh `guard check` in the shell would judge it."""
        asked = LineRequest(
            line,
            cwd=request.cwd or None,
            env=request.env,
            session=request.session,
            cache=self.cache,
            agent=is_agent(request.env, terminal=True),  # a person's shell, unless GUARD_AGENT=1
        )
        return decide_line(asked)

    def _adopt(self, env: Mapping[str, str]) -> None:
        """Make this process's environment the shell's, as a fresh `guard check` would see it:
        GUARD_CONFIG, GUARD_STATE_DIR and the XDG directories decide which files count."""
        if env and env != self._env:
            self._env = dict(env)
            os.environ.clear()
            os.environ.update(self._env)


class AuditWriter:
    """Writes audit rows on a thread of its own, after the answer has gone to the shell."""

    def __init__(self) -> None:
        self._rows: queue.Queue[tuple[Judgement, str, str] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="guard-audit", daemon=True)
        self._thread.start()

    def add(self, result: Judgement, session: str, decision: str) -> None:
        self._rows.put((result, session, decision))

    def close(self, timeout: float = 10.0) -> None:
        self._rows.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        kept = LineCache()  # this thread's own open store (a connection stays in its thread)
        try:
            while (row := self._rows.get()) is not None:
                for attempt in range(3):  # a store being created by another process can be busy
                    try:
                        _record(*row, kept)
                        break
                    except GuardError as exc:
                        kept.close()
                        if attempt == 2:  # the session's next line writes its row first
                            from guard.entry.check import failed_late

                            failed_late(row[1], exc)
                        time.sleep(0.1 * (attempt + 1))
                    except Exception:  # a lost audit row must not stop the checker
                        kept.close()
                        break
        finally:
            kept.close()


def _record(result: Judgement, session: str, decision: str, kept: LineCache) -> None:
    """One audit row, as `guard check` writes it, with origin "hook"."""
    from guard.entry.check import how_decided
    from guard.verdict import idle_seconds, without_store

    if without_store(os.environ):
        return
    now = time.time()
    store = kept.store()
    store.record(
        time=now,
        session=session,
        cwd=result.context.cwd,
        command=result.projection.command,
        decision=decision,
        reasons=result.verdict.reasons,
        how=how_decided(result),
        detail={"origin": "hook"},
    )
    store.touch_session(session, now, result.context.cwd, idle_seconds=idle_seconds(os.environ))


def serve(fd_in: int = 0, fd_out: int = 1) -> int:
    """Answer requests until the shell closes the pipe or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C at the prompt is not for the checker
    parent = os.getppid()
    source = fields(fd_in, lambda: os.getppid() == parent)
    checker = HookChecker()
    audit = AuditWriter()
    try:
        while True:
            try:
                request = read_request(source)
            except StopIteration:
                return 0
            except HookProtocolError as exc:
                reason = "guard: the shell hook and the checker do not speak the same version"
                os.write(fd_out, Reply(str(exc), "fallback", True, reason).encode())
                return 1
            reply, result = _answer(checker, request)
            late = result is not None and may_write_late(result, request.session)
            if result is not None and not late:
                reply = _recorded_first(checker, request, reply, result)
            _write_all(fd_out, reply.encode())
            if result is not None and late:
                audit.add(result, request.session, reply.decision)
    except (BrokenPipeError, ConnectionResetError):
        return 1
    finally:
        audit.close()


def _recorded_first(
    checker: HookChecker, request: HookRequest, reply: Reply, result: Judgement
) -> Reply:
    """The reply once the line's row is written (a session's first row, a store that failed,
    a managed audit log): with the warning when it could not be (once per session), a refusal
    where the managed policy requires the row of an allowed line, or `pass` for a typed line
    (PS0's check then says it)."""
    from guard.entry.check import unwritten

    try:
        _record(result, request.session, reply.decision, checker.cache)
    except GuardError as exc:
        checker.cache.close()
        problem = exc
    except Exception as exc:  # a row that fails oddly is a row not written, said as such
        checker.cache.close()
        problem = GuardError(f"guard: the audit row failed ({type(exc).__name__}: {exc})")
    else:
        from guard.verdict import trouble as store_trouble

        store_trouble.worked(request.session, store_trouble.store_path_text())
        return reply
    if request.mode == "typed":
        return Reply(reply.id, "pass", reply.relay, "")
    from guard.printable import escaped
    from guard.verdict import required_by

    message = escaped(unwritten(result, request.session, reply.decision, problem))
    if reply.decision == "allow" and required_by(result.policy):
        return Reply(reply.id, "deny", reply.relay, message)
    text = "\n".join(t for t in (reply.text, message) if t)
    return Reply(reply.id, reply.decision, reply.relay, text)


def _answer(checker: HookChecker, request: HookRequest) -> tuple[Reply, Judgement | None]:
    try:
        return checker.answer(request)
    except GuardError as exc:
        return Reply(request.id, "deny", bool(request.int_trap.strip()), str(exc)), None
    except Exception as exc:  # fail closed: a bug in guard must not let a line through
        message = f"guard: the checker failed on this line ({type(exc).__name__}: {exc}); "
        message += "it was not run; `guard check -- 'LINE'` shows the error"
        return Reply(request.id, "deny", bool(request.int_trap.strip()), _one_line(message)), None


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data) :]
