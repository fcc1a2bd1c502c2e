"""Archives: tar, zip, unzip, cpio — what they read, and where extraction writes."""

from __future__ import annotations

from guard.knowledge.commands.command import Command, RecursiveRead, arity
from guard.knowledge.commands.option_table import OptionTable
from guard.knowledge.commands.spec import Spec, opts

# `cpio -i` writes the names the archive holds, absolute ones too, unless told not to.
CPIO_EXTRACTS = frozenset({"-i", "--extract"})


# the variables that carry a tool's options, and how each is read (its record's `env`)
_TAR_OPTIONS = OptionTable(
    "tar",
    code=(
        *("--to-command", "--use-compress-program", "-I", "--checkpoint-action", "--rsh-command"),
        *("--info-script", "--new-volume-script", "-F", "-C", "--directory", "-f", "--file"),
    ),
)
COMPRESSOR_OPTIONS = OptionTable("compressor", code=("-S", "--suffix", "-f", "--file"))


COMMANDS: dict[str, Command] = {
    "cpio": Command(
        corners=frozenset({"absolute-extracts"}),  # -i writes the paths the archive holds
        stdin_file_list=opts("-o", "-p", "--create", "--pass-through"),
    ),
    "tar": Command(
        # what packs a whole tree takes its secrets along (an archive hides them from a later
        # `cat .env`); only what it packs (-c, -r, -u): extracting or listing reads the archive
        recursive_read=RecursiveRead(
            opts("-c", "--create", "-r", "--append", "-u", "--update"),
            True,
            follows=opts("-h", "--dereference"),
            here=False,
            old_style=True,
        ),
        env=(("TAR_OPTIONS", _TAR_OPTIONS),),
        spec=Spec(
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
        arity=arity(1),
    ),
    "unzip": Command(
        env=(("UNZIP", COMPRESSOR_OPTIONS),),
        spec=Spec(operands="read", values=opts("-x", "-P"), options={"-d": "write"}),
        arity=arity(1),
    ),
    "zip": Command(
        stdin_file_list=opts("-@"),
        recursive_read=RecursiveRead(opts("-r", "-R", "--recurse-paths"), True),
        env=(("ZIPOPT", COMPRESSOR_OPTIONS),),
        spec=Spec(
            operands="read",
            first="write",
            values=opts("-x", "-i", "-P", "-b"),
            options={"-TT": "code", "--unzip-command": "code"},
        ),
        arity=arity(1),
    ),
}
