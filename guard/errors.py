"""The one error type guard raises on purpose."""

from __future__ import annotations


class GuardError(Exception):
    """A failure a user can act on. The message starts with ``guard:`` and says what to do next."""

    def __init__(self, message: str) -> None:
        if not message.startswith("guard:"):
            message = f"guard: {message}"
        super().__init__(message)
