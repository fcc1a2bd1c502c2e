"""guard's web state (`guard watch --web`'s certificate key) is withheld from an enforced line:
a script the projection cannot read into is held by the kernel (Landlock), as agents run it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from guard.asking.web.tls import certificate

BIN = Path(sys.executable).parent


def _landlock() -> str:
    from guard.kernel.landlock import abi_version

    found = abi_version()
    return "" if isinstance(found, int) else found


NO_LANDLOCK = _landlock()
PEEK = '#!/bin/sh\ncat "$GUARD_STATE_DIR/web/key.pem"\n'  # the line itself names no key


def peek(workspace: Path, **env: str) -> subprocess.CompletedProcess[str]:
    script = workspace / "peek.sh"
    script.write_text(PEEK)
    script.chmod(0o755)
    return subprocess.run(
        [str(BIN / "guarded-bash"), "-c", "./peek.sh"], cwd=workspace,
        env={**os.environ, "GUARD_SESSION": "web-state-test", **env}, capture_output=True,
        text=True, stdin=subprocess.DEVNULL, start_new_session=True, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.skipif(bool(NO_LANDLOCK), reason=f"no Landlock here: {NO_LANDLOCK}")
def test_an_enforced_line_cannot_read_the_pages_key(workspace: Path) -> None:
    made = certificate("127.0.0.1", cert=None, key=None)
    assert "PRIVATE KEY" in Path(made.key).read_text()
    held = peek(workspace)
    assert "PRIVATE KEY" not in held.stdout
    assert "Permission denied" in held.stderr
    unheld = peek(workspace, GUARD_ENFORCE="off")  # the same script, not held: it reads it
    assert "PRIVATE KEY" in unheld.stdout
