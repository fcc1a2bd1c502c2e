"""What cannot be lost: a destroying command that reaches `/`, a top-level system directory, a
home directory or a disk is `destroy:system|home|disk`, and the shipped policy denies it.

The target is read from what the projection resolves (variables, quoting, `~`, `cd`, globs,
links, wrappers, `-c` strings), never from the text. Pure: a fixed context, home /h/u.
"""

from __future__ import annotations

import pytest

from guard.policy.files import load_policy
from guard.policy.rules import Policy
from guard.projection.line_projection import project
from guard.projection.shell_state import Context
from guard.verdict.decision import decide

W = "/w/proj"
H = "/h/u"
LINKS = {"/w/proj/everything": "/", "/w/proj/me": H}


def _resolve(path: str) -> str:
    for link, target in LINKS.items():
        if path == link or path.startswith(link + "/"):
            return (target.rstrip("/") + path[len(link) :]) or "/"
    return path


CTX = Context(
    cwd=W,
    env={"HOME": H, "PATH": "/usr/bin:/bin", "DISK": "/dev/sda"},
    workspace=(W,),
    home=H,
    resolve=_resolve,
)


def vital(line: str) -> set[str]:
    return {
        r.target
        for r in project(line, CTX).requests
        if r.surface == "effect" and r.kind == "destroy" and r.target in ("system", "home", "disk")
    }


@pytest.fixture(scope="module")
def shipped() -> Policy:
    return load_policy(None, home=H, user_file="/nonexistent/policy.toml")


VITAL = [
    ("rm -rf /", "system"),
    ("rm -rf ~", "home"),
    ('rm -rf "$HOME"/', "home"),
    ("rm -rf -- ${HOME}", "home"),
    ("rm -r ~/", "home"),
    ("rm -rf ~/.", "home"),
    ("rm -rf ~/*", "home"),
    ("rm -rf ~/..", "home"),  # the directory that holds it
    ("rm -rf /home/bob", "home"),
    ("rm -rf /Users/bob/", "home"),
    ("rm -fr /etc", "system"),
    ("rm -rf /usr/", "system"),
    ("rm -rf /boot /var", "system"),
    ("rm -rf /*", "system"),
    ("cd / && rm -rf *", "system"),
    ("cd /etc; rm -rf .", "system"),
    ("cd ~ && rm -rf ./*", "home"),
    ("d=/; rm -rf $d", "system"),
    ("x=~; rm -rf \"$x\"", "home"),
    ("rm -rf /e\"t\"c", "system"),
    ("rm -rf $'\\x2f'", "system"),
    ("sudo rm -rf /", "system"),
    ("sudo -u root /bin/rm -rf --no-preserve-root /", "system"),
    ("env -i rm -rf /usr/lib", "system"),
    ("timeout 5 nice rm -rf ~", "home"),
    ("xargs rm -rf /", "system"),
    ("bash -c 'rm -rf /'", "system"),
    ("sh -c \"cd / && rm -rf *\"", "system"),
    ("eval 'rm -rf ~'", "home"),
    ("busybox rm -rf /", "system"),
    ("rm -rf everything", "system"),  # a link to /
    ("rm -rf me/", "home"),  # a link to the home directory
    ("chmod -R 777 /", "system"),
    ("chmod -R u+rwx ~", "home"),
    ("chown -R nobody /etc", "system"),
    ("chown -R me:me ~", "home"),
    ("chgrp -R staff /usr", "system"),
    ("find / -delete", "system"),
    ("find ~ -type f -delete", "home"),
    ("find / -exec rm -rf {} +", "system"),
    ("rsync -a --delete empty/ ~/", "home"),
    ("rsync -a --delete-after empty/ /", "system"),
    ("dd if=/dev/zero of=/dev/sda", "disk"),
    ("dd if=img.iso of=/dev/disk2 bs=4m", "disk"),
    ("dd if=/dev/urandom of=$DISK", "disk"),
    ("mkfs /dev/sdb", "disk"),
    ("mkfs.ext4 /dev/nvme0n1p2", "disk"),
    ("wipefs -a /dev/sda", "disk"),
    ("shred /dev/nvme0n1", "disk"),
    ("blkdiscard /dev/mmcblk0", "disk"),
    ("cat image > /dev/sda", "disk"),
    ("echo x | sudo tee /dev/vda", "disk"),
]


@pytest.mark.parametrize(("line", "target"), VITAL)
def test_a_destroying_command_that_reaches_a_vital_path_says_which(line: str, target: str) -> None:
    assert vital(line) == {target}


@pytest.mark.parametrize(("line", "target"), VITAL)
def test_the_shipped_policy_denies_it_with_a_reason(
    shipped: Policy, line: str, target: str
) -> None:
    result = decide(shipped, project(line, CTX), (), home=H)
    assert result.decision == "deny"
    denied = [d for d in result.decided if d.decision == "deny"]
    assert [d.request.target for d in denied] == [target]
    assert denied[0].by.startswith("rule")
    assert any("would be gone" in r or "would not work" in r for r in result.reasons)


ORDINARY = [
    "rm -rf build",
    "rm -rf ~/proj/build",
    "rm -rf /tmp/scratch",
    "rm -rf /etc/nginx/sites-enabled/old",
    "rm -f /",  # no -r: rm refuses a directory
    "rm ~/notes.txt",
    "touch ~/x",
    "cp x ~/",
    "cp a /etc/",
    "chmod 755 ~",
    "chmod -R 755 ~/proj",
    "find ~ -name .DS_Store -delete",  # some files, by name
    "find / -name '*.pyc' -exec rm {} +",
    "find / -name x",
    "rsync -a src/ ~/",
    "dd if=/dev/sda of=disk.img",  # reads the disk
    "fdisk -l /dev/sda",
    "ls /dev/sda",
    "echo rm -rf /",
    "git commit -m 'rm -rf ~'",
    "ssh host 'rm -rf /'",  # another machine's /: remote, asks
]


@pytest.mark.parametrize("line", ORDINARY)
def test_what_reaches_less_than_that_is_not_vital(line: str) -> None:
    assert vital(line) == set()


def test_the_workspace_does_not_hide_a_system_directory() -> None:
    """A repository at /etc (etckeeper): `rm -rf /etc` inside it is still the system's."""
    inside = CTX._replace(cwd="/etc", workspace=("/etc",))
    kinds = {r.target for r in project("rm -rf /etc", inside).requests if r.surface == "effect"}
    assert "system" in kinds
