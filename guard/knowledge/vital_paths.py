"""Paths whose loss is the loss of the machine or of a person's files, as data.

A recursive delete, a recursive mode or owner change, a raw overwrite or a `--delete` sync that
reaches one of these is not a mistake a human can be asked to wave through: the shipped policy
denies it (`destroy:system`, `destroy:home`, `destroy:disk`). guard/projection/vital_targets.py
reads these tables; the projection's own accesses (variables, quoting, `cd`, globs, wrappers and
`-c` strings resolved) say which path a command reaches.
"""

from __future__ import annotations

import re

# `/` and the directories the system is made of, by exact path (what is below them is not
# listed: `rm -rf /etc/nginx/sites-enabled/old` is ordinary administration, and asks).
SYSTEM_DIRS = frozenset(
    {
        "/",
        "/bin",
        "/boot",
        "/dev",
        "/etc",
        "/home",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/media",
        "/mnt",
        "/nix",
        "/nix/store",
        "/opt",
        "/proc",
        "/root",
        "/run",
        "/sbin",
        "/snap",
        "/srv",
        "/sys",
        "/tmp",
        "/usr",
        "/usr/bin",
        "/usr/include",
        "/usr/lib",
        "/usr/lib32",
        "/usr/lib64",
        "/usr/libexec",
        "/usr/local",
        "/usr/sbin",
        "/usr/share",
        "/var",
        "/var/lib",
        # macOS
        "/Applications",
        "/Library",
        "/System",
        "/Users",
        "/Volumes",
        "/private",
        "/private/etc",
        "/private/var",
    }
)

# A directory right below one of these is somebody's home directory.
HOME_PARENTS = frozenset({"/home", "/Users"})

# Whole disks and their partitions: writing one raw, or making a file system on it, erases
# what it held (`/dev/sda`, `/dev/sda1`, `/dev/nvme0n1p2`, `/dev/mmcblk0`, macOS `/dev/disk2`,
# `/dev/rdisk2s1`, device-mapper and software RAID volumes).
DISK = re.compile(
    r"/dev/(?:(?:sd|hd|vd|xvd)[a-z]+\d*|nvme\d+n\d+(?:p\d+)?|mmcblk\d+(?:p\d+)?"
    r"|r?disk\d+(?:s\d+)*|md\d+(?:p\d+)?|dm-\d+|mapper/[^/]+)"
)

# A glob's last component that matches every name in its directory (`~/*`, `/*`, `/etc/.*`):
# the directory's whole content, which is the directory itself for what it destroys.
EVERY_NAME = re.compile(r"\.?\*+")
