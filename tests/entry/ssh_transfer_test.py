"""sshd's transfer servers work through a guarded login shell, and only for sshd."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from guard.entry.shim.ssh_transfer import is_transfer_command


@pytest.mark.parametrize(("command", "expected"), [
    ("scp -t /srv/data", True),
    ("scp -f /etc/hosts", True),
    ("scp -r -t -- '/srv/a b'", True),
    ("rsync --server --sender -vlogDtpre.iLsfxC . /var/www/", True),
    ("git-upload-pack '/srv/git/repo.git'", True),
    ("git-receive-pack 'repo.git'", True),
    ("/usr/lib/openssh/sftp-server", True),
    ("internal-sftp", True),
    ("scp /etc/hosts host:", False),  # not server mode
    ("rsync -a src/ /srv/", False),
    ("scp -t /srv; rm -rf ~", False),
    ("scp -t $(cat x)", False),
    ("scp -t /srv && touch y", False),
    ("git-upload-pack repo | sh", False),
    ("rm -rf /", False),
    ("", False),
    ("scp -t 'unterminated", False),
])
def test_only_one_plain_transfer_command_counts(command: str, expected: bool) -> None:
    assert is_transfer_command(command) is expected


def _fake_bash(tmp_path: Path) -> Path:
    fake = tmp_path / "fake-bash"
    fake.write_text("#!/bin/sh\necho \"ran: $*\"\n")
    fake.chmod(0o755)
    return fake


def _shim() -> str:
    return os.path.join(os.path.dirname(sys.executable), "guarded-bash")


def test_a_parent_running_sshd_from_a_system_directory_counts(tmp_path: Path) -> None:
    from guard.entry.shim.ssh_transfer import parent_is_sshd

    for exe, expected in (("/usr/sbin/sshd", True), ("/usr/lib/openssh/sshd-session", True),
                          ("/usr/bin/python3.11", False), (str(tmp_path / "sshd"), False)):
        proc = tmp_path / f"proc-{abs(hash(exe))}"
        (proc / "42").mkdir(parents=True)
        (proc / "42" / "exe").symlink_to(exe)
        assert parent_is_sshd(str(proc), 42) is expected, exe


def test_a_program_merely_named_sshd_is_not_sshd(tmp_path: Path) -> None:
    """Red-team finding: a link named sshd to python passed the check of the parent's name."""
    sshd = tmp_path / "sshd"
    sshd.symlink_to(sys.executable)
    env = dict(os.environ, GUARD_REAL_SHELL=str(_fake_bash(tmp_path)),
               GUARD_WORKSPACE=str(tmp_path))
    code = ("import subprocess, sys; r = subprocess.run([sys.argv[1], '-c', 'scp -t /srv/data'],"
            " stdin=subprocess.DEVNULL); sys.exit(r.returncode)")
    done = subprocess.run(["setsid", "-w", str(sshd), "-c", code, _shim()], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 126
    assert "ran:" not in done.stdout


def test_the_same_line_from_anyone_else_is_judged(tmp_path: Path) -> None:
    env = dict(os.environ, GUARD_REAL_SHELL=str(_fake_bash(tmp_path)),
               GUARD_WORKSPACE=str(tmp_path))
    done = subprocess.run(["setsid", "-w", _shim(), "-c", "scp -t /srv/data"], env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 126
    assert "ran:" not in done.stdout
    assert done.stderr.startswith("guard:")
