"""The page's stack (aiohttp, segno, cryptography, guard.asking.web) stays off every path but
`guard watch --web`: not on a line guarded-bash checks, not on a request an agent sends to the
approver, not in `guard watch` without --web."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
WEB = ("aiohttp", "segno", "cryptography", "guard.asking.web")


def imported(done: subprocess.CompletedProcess[str]) -> set[str]:
    return {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}


def web_modules(names: set[str]) -> set[str]:
    return {n for n in names if any(n == w or n.startswith(w + ".") for w in WEB)}


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        argv, cwd=cwd, env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"},
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
        start_new_session=True,
    )  # fmt: skip


def test_a_line_guarded_bash_checks_imports_no_web_module(workspace: Path) -> None:
    done = run([str(BIN / "guarded-bash"), "-c", "true"], workspace)
    names = imported(done)
    assert "guard.entry.check" in names  # the profile is there: the line was judged
    assert not web_modules(names)


def test_a_request_to_the_approver_imports_no_web_module(workspace: Path, tmp_path: Path) -> None:
    """No approver listens: the request is sent, refused for want of one, and denied."""
    done = run([sys.executable, "-m", "guard", "check", "--", f"touch {tmp_path}/x"], workspace)
    names = imported(done)
    assert done.returncode != 0
    assert "guard.asking.approver_client" in names  # it did ask the approver
    assert not web_modules(names)


def test_guard_watch_without_web_imports_no_web_module(workspace: Path) -> None:
    code = (
        "import sys, guard.cli.watch, guard.asking.approver_server, guard.asking.approver_notify;"
        f"print(sorted(m for m in sys.modules if m.startswith({WEB!r})))"
    )
    done = run([sys.executable, "-c", code], workspace)
    assert done.stdout.strip() == "[]", done.stderr[-2000:]
