"""Every test here runs twice: with each question asked again on every line, and with the
kernel telling of changes from a cache's first line (disk_changes.py), so that what one way
sees the other sees too."""

from __future__ import annotations

import pytest

from guard.verdict.cache import line_cache


@pytest.fixture(autouse=True, params=["asked", "watched"])
def disk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "watched":
        monkeypatch.setattr(line_cache, "WATCH_AFTER", 1)
    return str(request.param)
