"""`[approver] notify = "URL"`: a short notice to a webhook when a request arrives.

For a phone that should buzz when an agent waits (a self-hosted ntfy server, a chat webhook):
one POST of plain text per request, with the command, why it asks and the page's address when
`guard watch --web` serves one. Never a secret: no pairing code, cookie or token is sent, and
the page's address alone answers nothing. Posted from a thread of its own, so a slow server
cannot hold the approver; what failed is said once at the terminal.
"""

from __future__ import annotations

import queue
import threading
import urllib.request

from guard.asking.approver import Ask
from guard.asking.terminal_device import visible

SECONDS = 5.0
LIMIT = 600  # characters of the command in a notice


class Notifier:
    """Posts a notice per arriving request to ``url``; `problems` for the terminal."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.page = ""  # the page's address, when there is one
        self._problems: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._failed = False

    def arrived(self, request_id: int, ask: Ask) -> None:
        text = notice(request_id, ask, self.page)
        threading.Thread(target=self._post, args=(text,), daemon=True).start()

    def problems(self) -> list[str]:
        found: list[str] = []
        while True:
            try:
                found.append(self._problems.get_nowait())
            except queue.Empty:
                return found

    def _post(self, text: str) -> None:
        request = urllib.request.Request(
            self.url,
            data=text.encode("utf-8"),
            headers={"Content-Type": "text/plain; charset=utf-8", "Title": "guard: an agent asks"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=SECONDS) as response:
                response.read(1024)
        except (OSError, ValueError) as exc:
            if not self._failed:  # said once: a server that is down would fill the screen
                self._failed = True
                self._problems.put(f"guard: could not post the notice to {self.url} ({exc})")


def notice(request_id: int, ask: Ask, page: str) -> str:
    """The notice's text: the command, why it asks, where to answer."""
    command = visible(ask.command)
    if len(command) > LIMIT:
        command = command[:LIMIT] + "…"
    lines = [f"guard: request #{request_id} waits for you: {command}"]
    lines += [f"  {visible(line)}" for line in ask.question.lines[:5]]
    lines.append(f"answer at {page}" if page else "answer at guard watch")
    return "\n".join(lines) + "\n"
