"""A line that talks to `guard watch --web`'s port asks; guard's web state is a protected path.

The port is what `guard watch --web` writes beside the request socket; the web state (the
self-signed certificate's key) lives in guard's state directory. Judged as an agent's lines.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from guard.verdict.judgement import judge
from guard.verdict.web_port import listen_file

PORT = 41873


@pytest.fixture
def served(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GUARD_APPROVER_SOCKET", str(tmp_path / "approver.sock"))
    Path(listen_file(os.environ)).write_text(f"{PORT}\n")
    return workspace


def verdict(line: str, cwd: Path) -> tuple[str, tuple[str, ...]]:
    judged = judge(line, cwd=str(cwd), session="web-port-test", agent=True, use_store=False)
    return judged.verdict.decision, judged.verdict.reasons


@pytest.mark.parametrize(
    "line",
    [
        f"curl -s -d '{{\"id\":1,\"key\":\"y\"}}' http://127.0.0.1:{PORT}/answer",
        f"curl http://localhost:{PORT}/",
        f"wget -qO- 'http://[::1]:{PORT}/events'",
        f"nc 127.0.0.1 {PORT} < answer.txt",
        f"python3 -c 'import urllib.request as u; u.urlopen(\"http://127.0.0.1:{PORT}/\")'",
        f"exec 3<>/dev/tcp/127.0.0.1/{PORT}",
    ],
)
def test_a_line_that_names_the_pages_port_asks(served: Path, line: str) -> None:
    decision, reasons = verdict(line, served)
    assert decision == "ask"
    assert any("talks to the approver's web page" in r for r in reasons), reasons


@pytest.mark.parametrize(
    "line",
    [
        "curl http://127.0.0.1:8080/",  # another port
        f"echo {PORT}1",  # a longer number is not the port
        "ls",
    ],
)
def test_other_lines_do_not_ask_about_the_page(served: Path, line: str) -> None:
    _decision, reasons = verdict(line, served)
    assert not any("approver's web page" in r for r in reasons), reasons


def test_without_a_page_the_port_is_just_a_number(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUARD_APPROVER_SOCKET", str(tmp_path / "approver.sock"))
    assert verdict(f"curl http://127.0.0.1:{PORT}/", workspace)[0] == "allow"


@pytest.mark.parametrize("name", ["key.pem", "cert.pem", ""])
def test_guards_web_state_is_a_protected_path(workspace: Path, name: str) -> None:
    web = Path(os.environ["GUARD_STATE_DIR"]) / "web" / name
    decision, reasons = verdict(f"cat {web}", workspace)
    assert decision == "ask"
    assert any("protected" in r or "guard's own files" in r for r in reasons), reasons


def test_a_page_started_between_lines_counts_on_the_next(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long-lived process (a LineCache) keeps the port with a line's surroundings and looks at
    its file again with them: no page, then one started between two lines."""
    from guard.verdict.cache.line_cache import LineCache

    monkeypatch.delenv("GUARD_APPROVER_SOCKET", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    line = f"curl http://127.0.0.1:{PORT}/"
    cache = LineCache()
    try:
        def asks() -> bool:
            judged = judge(line, cwd=str(workspace), session="web-port-test", agent=True,
                           use_store=False, cache=cache)  # fmt: skip
            return any("approver's web page" in r for r in judged.verdict.reasons)

        assert not asks()
        page = Path(listen_file(os.environ))
        assert page.parent == tmp_path / "run" / "guard"
        page.parent.mkdir(parents=True)
        page.write_text(f"{PORT}\n")
        assert asks()
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "elsewhere"))
        assert not asks()  # the page is where the runtime directory is now
    finally:
        cache.close()


def test_a_kept_port_follows_the_file_when_the_page_moves(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The port is kept with a line's surroundings once its file has settled (older than a
    second); a page started again on another port (the file written anew in place) counts on
    the next line, and one that stopped (the file gone) no longer asks."""
    import time

    from guard.verdict.cache.line_cache import LineCache

    monkeypatch.setenv("GUARD_APPROVER_SOCKET", str(tmp_path / "approver.sock"))
    page = Path(listen_file(os.environ))
    page.write_text(f"{PORT}\n")
    time.sleep(1.2)  # settled: what was read from it is kept
    cache = LineCache()
    try:
        def asks(port: int) -> bool:
            line = f"curl http://127.0.0.1:{port}/"
            judged = judge(line, cwd=str(workspace), session="web-port-test", agent=True,
                           use_store=False, cache=cache)  # fmt: skip
            return any("approver's web page" in r for r in judged.verdict.reasons)

        assert asks(PORT)
        assert asks(PORT)  # from the kept surroundings
        other = PORT + 7
        with open(page, "r+") as f:  # the same file, another port
            f.write(f"{other}\n")
        assert asks(other)
        assert not asks(PORT)
        page.unlink()
        assert not asks(other)
    finally:
        cache.close()
