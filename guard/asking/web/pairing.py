"""Who may answer at the page: one-time pairing codes, the paired browsers, their CSRF tokens.

A pairing code is printed only on the human's terminal (`pair: URL`). It works once, for a few
minutes; wrong codes are counted, and after a few in a minute every code is refused for the
rest of that minute (the right one too), so no code can be guessed. Opening the URL gives that
browser a session (the cookie, HttpOnly and SameSite=Strict) and a CSRF token that every
answer must carry. Everything here lives in the approver's memory only: nothing on disk an
agent could read is enough to answer, and stopping `guard watch` unpairs every browser.

The clock is passed in; one lock guards the state (the page's thread and the terminal's both
use it).
"""

from __future__ import annotations

import hmac
import secrets
import threading
from dataclasses import dataclass

CODE_SECONDS = 300.0  # how long a pairing code works
FAILURES = 5  # wrong codes in WINDOW seconds before every code is refused for a while
WINDOW = 60.0
SESSION_SECONDS = 12 * 3600.0  # a paired browser answers this long, then pairs again


@dataclass(frozen=True, slots=True)
class Code:
    text: str
    expires: float  # the clock's time


@dataclass(frozen=True, slots=True)
class Session:
    token: str  # the cookie's value
    csrf: str  # what every answer carries
    expires: float
    peer: str  # the address it paired from, as the server saw it


@dataclass(frozen=True, slots=True)
class Paired:
    """The outcome of trying a pairing code: the new session, or why not."""

    session: Session | None
    problem: str = ""


class Pairing:
    """The codes and sessions of one approver."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._code: Code | None = None
        self._sessions: dict[str, Session] = {}
        self._failures: list[float] = []

    def new_code(self, now: float) -> Code:
        """A fresh code; the one before it stops working."""
        with self._lock:
            self._code = Code(secrets.token_urlsafe(18), now + CODE_SECONDS)
            return self._code

    def code_expired(self, now: float) -> bool:
        """Whether no pairing code works any more (it expired, or was tried too late)."""
        with self._lock:
            return self._code is None or self._code.expires <= now

    def paired(self) -> int:
        with self._lock:
            return len(self._sessions)

    def pair(self, given: str, now: float, peer: str) -> Paired:
        """Use a code: a session when it is the current one, in time, and not rate-limited."""
        with self._lock:
            self._failures = [t for t in self._failures if t > now - WINDOW]
            if len(self._failures) >= FAILURES:
                self._failures.append(now)
                return Paired(None, "guard: refused: too many wrong pairing codes; wait a minute")
            code = self._code
            if code is None or not hmac.compare_digest(code.text.encode(), _bytes(given)):
                self._failures.append(now)
                return Paired(None, "guard: refused: this pairing code is wrong or already used")
            self._code = None  # single use, right or late
            if code.expires <= now:
                return Paired(None, "guard: refused: this pairing code expired; use a new one")
            session = Session(
                secrets.token_urlsafe(32), secrets.token_urlsafe(32), now + SESSION_SECONDS, peer
            )
            self._sessions[session.token] = session
            return Paired(session)

    def session(self, token: str | None, now: float) -> Session | None:
        """The live session a cookie names, None for none, an unknown or an expired one."""
        if not token:
            return None
        with self._lock:
            for known, s in list(self._sessions.items()):
                if s.expires <= now:
                    del self._sessions[known]
            given = _bytes(token)
            return next(
                (s for k, s in self._sessions.items() if hmac.compare_digest(k.encode(), given)),
                None,
            )

    def may_answer(self, token: str | None, csrf: str | None, now: float) -> bool:
        """Whether an answer comes from a paired browser's own page: cookie and CSRF token."""
        s = self.session(token, now)
        if s is None or not csrf:
            return False
        return hmac.compare_digest(s.csrf.encode(), _bytes(csrf))


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")
