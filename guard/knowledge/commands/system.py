"""The machine's services and schedulers: systemctl, journalctl, systemd-run, at and crontab,
mkfs."""

from __future__ import annotations

from guard.knowledge.commands.spec import Spec, opts

# Commands that schedule other commands to run later, where guard does not see them.
SCHEDULERS = frozenset({"at", "batch", "crontab"})


SCHEDULER_READ_ONLY = frozenset({"-l", "-c", "-V", "--list"})  # crontab -l, at -l, at -c N


SPECS: dict[str, Spec] = {
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
