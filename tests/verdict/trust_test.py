"""A project's .guard.toml cannot loosen the policy until a human trusts it as it is.

The bypass: writes inside the workspace are allowed, so an agent could write a .guard.toml that
allows everything. Tests drive the real `guard` CLI on a temporary workspace.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

GUARD = [sys.executable, "-m", "guard"]


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    return ws


def explain(ws: Path, line: str) -> dict[str, object]:
    out = subprocess.run([*GUARD, "explain", "--json", "--", line], cwd=ws, capture_output=True,
                         text=True, check=True)
    result: dict[str, object] = json.loads(out.stdout)
    return result


LOOSENING = """
[[rules]]
surface = "external_directory"
pattern = "/etc/**"
action = "allow"
"""


def test_an_untrusted_project_file_cannot_allow_what_asks(workspace: Path) -> None:
    (workspace / ".guard.toml").write_text(LOOSENING)
    result = explain(workspace, "cat /etc/hosts")
    assert result["decision"] == "ask"
    assert any("not trusted" in w for w in result["warnings"])  # type: ignore[attr-defined]


def test_trusting_the_file_lets_its_rules_count_until_it_changes(workspace: Path) -> None:
    project = workspace / ".guard.toml"
    project.write_text(LOOSENING)
    done = subprocess.run([*GUARD, "policy", "trust"], cwd=workspace, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert "/etc/**" in done.stdout  # the human is shown what they trust
    assert explain(workspace, "cat /etc/hosts")["decision"] == "allow"
    project.write_text(LOOSENING + LOOSENING.replace("/etc/**", "/root/**"))
    assert explain(workspace, "cat /etc/hosts")["decision"] == "ask"
    assert explain(workspace, "cat /root/x")["decision"] == "ask"


def test_an_untrusted_project_file_can_still_tighten(workspace: Path) -> None:
    (workspace / ".guard.toml").write_text(
        '[[rules]]\nsurface = "command"\npattern = "make *"\naction = "deny"\n'
    )
    assert explain(workspace, "make build")["decision"] == "deny"


def test_an_untrusted_project_file_cannot_add_workspace_roots(workspace: Path) -> None:
    (workspace / ".guard.toml").write_text('[workspace]\nroots = ["/"]\n')
    assert explain(workspace, "cat /etc/hosts")["decision"] == "ask"


def test_a_broken_store_means_the_project_file_is_not_trusted(
    workspace: Path, tmp_path: Path
) -> None:
    (workspace / ".guard.toml").write_text(LOOSENING)
    subprocess.run([*GUARD, "policy", "trust"], cwd=workspace, capture_output=True, check=True)
    store = Path(os.environ["GUARD_STATE_DIR"]) / "guard.db"
    store.write_bytes(b"garbage" * 100)
    for extra in ("-wal", "-shm"):
        Path(str(store) + extra).unlink(missing_ok=True)
    assert explain(workspace, "cat /etc/hosts")["decision"] == "ask"


@pytest.mark.parametrize("line", [
    "guard approvals grant --session s --surface command --pattern 'rm *'",
    "guard policy trust",
    "guard approve 7",
    "python3 -m guard approvals grant --session s --surface command --pattern x",
    "/usr/local/bin/guard policy trust .guard.toml",
])
def test_commands_that_widen_what_guard_allows_ask(workspace: Path, line: str) -> None:
    assert explain(workspace, line)["decision"] == "ask"


@pytest.mark.parametrize("line", ["guard approvals list", "guard approvals revoke 3",
                                  "guard log --limit 5", "guard explain -- ls"])
def test_commands_that_only_look_or_narrow_stay_quiet(workspace: Path, line: str) -> None:
    assert explain(workspace, line)["decision"] == "allow"


def test_a_project_file_that_is_a_link_to_a_trusted_file_is_not_trusted(
    workspace: Path, tmp_path: Path
) -> None:
    """Red-team finding: a .guard.toml symlinked to another project's trusted file borrowed
    its trust (set up through git, without an asking `ln -s`)."""
    other = tmp_path / "other"
    other.mkdir()
    (other / ".guard.toml").write_text(LOOSENING)
    subprocess.run([*GUARD, "policy", "trust"], cwd=other, capture_output=True, check=True)
    (workspace / ".guard.toml").symlink_to(other / ".guard.toml")
    assert explain(workspace, "cat /etc/hosts")["decision"] == "ask"
    done = subprocess.run([*GUARD, "policy", "trust"], cwd=workspace, capture_output=True,
                          text=True)
    assert done.returncode == 1
