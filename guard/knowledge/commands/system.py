"""The machine's services and schedulers: systemctl, journalctl, systemd-run, at and crontab,
mkfs."""

from __future__ import annotations

from guard.knowledge.commands.spec import Spec, opts

# Commands that schedule other commands to run later, where guard does not see them.
SCHEDULERS = frozenset({"at", "batch", "crontab"})


SCHEDULER_READ_ONLY = frozenset({"-l", "-c", "-V", "--list"})  # crontab -l, at -l, at -c N


SPECS: dict[str, Spec] = {
    # openssl SUBCOMMAND: `openssl passwd` hashes a password it is given, nothing changes;
    # the files are the values of -in, -out, -key …
    "openssl": Spec(
        operands="path",
        subcommands=True,
        values=opts(
            *("-passin", "-passout", "-pass", "-subj", "-days", "-newkey", "-algorithm"),
            *("-pkeyopt", "-digest", "-cipher", "-name", "-servername", "-connect", "-salt"),
            *("-md", "-set_serial", "-addext", "-nameopt", "-certopt", "-inform", "-outform"),
            *("-keyform", "-CAform", "-CAkeyform", "-engine", "-provider", "-propquery"),
        ),
        text=opts("-subj", "-connect", "-servername", "-name", "-salt", "-addext", "-passin"),
        options={
            **dict.fromkeys(("-out", "-keyout", "-CAserial", "-sess_out", "-msgfile"), "write"),
            **dict.fromkeys(
                (
                    *("-in", "-key", "-inkey", "-signkey", "-CAfile", "-CA", "-CAkey", "-cert"),
                    *("-certfile", "-config", "-extfile", "-CApath", "-sigfile", "-verify"),
                    *("-prverify", "-peerkey", "-rand", "-writerand", "-sess_in", "-untrusted"),
                    *("-chainCAfile", "-verifyCAfile", "-paramfile", "-dhparam", "-kdfopt"),
                ),
                "read",
            ),
            "-provider-path": "execute",
        },
    ),
    **dict.fromkeys(SCHEDULERS, Spec(kind="scheduler", operands="data")),
    "systemctl": Spec(operands="path"),
    "journalctl": Spec(operands="path"),
    "mkfs": Spec(operands="write"),
    "systemd-run": Spec(
        kind="wrapper",
        operands="command",
        values=opts(
            "-u",
            "--unit",
            "-p",
            "--property",
            "--description",
            "--slice",
            "-E",
            "--setenv",
            "--uid",
            "--gid",
            "--nice",
            "-M",
            "--machine",
            "-H",
            "--host",
            "--on-active",
            "--on-boot",
            "--on-startup",
            "--on-unit-active",
            "--on-unit-inactive",
            "--on-calendar",
            "--on-timezone-change",
            "--timer-property",
            "--path-property",
            "--socket-property",
            "--service-type",
        ),
        options={"--working-directory": "chdir"},
    ),
}
