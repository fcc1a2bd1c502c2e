"""What asking came to: allowed or not, how it was decided (a human at the terminal, the
approver, a timeout, no terminal …), the line to print when denied and the key picked.

Made by guard/asking/confirmation.py (the terminal) and guard/asking/approver_client.py (the
approver).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Outcome:
    allowed: bool
    how: str  # "human", "timeout", "interrupt", "no-terminal", …
    message: str  # one line for stderr when denied without a human
    choice: str  # the key picked, or ""
    logged: bool = False  # the approver wrote the audit row for it: the requester writes none
