"""sshd's transfer servers work through a guarded login shell, and only for sshd."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from guard.ssh_transfer import is_transfer_command


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


def test_a_transfer_started_by_sshd_runs_without_asking(tmp_path: Path) -> None:
    sshd = tmp_path / "sshd"
    sshd.symlink_to(sys.executable)  # the parent's name, as the kernel reports it, is sshd
    env = dict(os.environ, GUARD_REAL_SHELL=str(_fake_bash(tmp_path)),
               GUARD_WORKSPACE=str(tmp_path))
    code = ("import subprocess, sys; r = subprocess.run([sys.argv[1], '-c', 'scp -t /srv/data'],"
            " stdin=subprocess.DEVNULL); sys.exit(r.returncode)")
    done = subprocess.run(["setsid", "-w", str(sshd), "-c", code, _shim()], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "ran: -c scp -t /srv/data" in done.stdout


def test_the_same_line_from_anyone_else_is_judged(tmp_path: Path) -> None:
    env = dict(os.environ, GUARD_REAL_SHELL=str(_fake_bash(tmp_path)),
               GUARD_WORKSPACE=str(tmp_path))
    done = subprocess.run(["setsid", "-w", _shim(), "-c", "scp -t /srv/data"], env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 126
    assert "ran:" not in done.stdout
    assert done.stderr.startswith("guard:")
