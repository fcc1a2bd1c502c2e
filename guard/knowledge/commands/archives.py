"""Archives: tar, zip, unzip, cpio — what they read, and where extraction writes."""

from __future__ import annotations

from guard.knowledge.commands.spec import Spec, opts

# `cpio -i` writes the names the archive holds, absolute ones too, unless told not to.
CPIO_EXTRACTS = frozenset({"-i", "--extract"})


SPECS: dict[str, Spec] = {
    "tar": Spec(
        kind="tar",
        operands="read",
        values=opts(
            "--exclude",
            "-b",
            "--owner",
            "--group",
            "--mode",
            "--transform",
            "--strip-components",
            "--xform",
        ),
        options={
            "-T": "file-list",
            "--files-from": "file-list",
            "-X": "read",
            "--exclude-from": "read",
            "-f": "write",
            "--file": "write",
            "-C": "write",
            "--directory": "write",
            # options whose value is a program tar runs
            "-I": "code",
            "--use-compress-program": "code",
            "--to-command": "code",
            "--rsh-command": "code",
            "--info-script": "code",
            "--new-volume-script": "code",
            "-F": "code",
            "--checkpoint-action": "code",
        },
    ),
    "unzip": Spec(operands="read", values=opts("-x", "-P"), options={"-d": "write"}),
    "zip": Spec(
        operands="read",
        first="write",
        values=opts("-x", "-i", "-P", "-b"),
        options={"-TT": "code", "--unzip-command": "code"},
    ),
}
