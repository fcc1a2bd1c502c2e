"""The machine's services and schedulers: systemctl, journalctl, systemd-run, at and crontab,
mkfs."""

from __future__ import annotations

from guard.knowledge.commands.command import EXACT, Command, arity, home_files
from guard.knowledge.commands.effect import E, Tool
from guard.knowledge.commands.spec import Spec, opts

# Commands that schedule other commands to run later, where guard does not see them.
SCHEDULERS = frozenset({"at", "batch", "crontab"})


SCHEDULER_READ_ONLY = frozenset({"-l", "-c", "-V", "--list"})  # crontab -l, at -l, at -c N


_POWER_QUIET = ("--wtmp-only", "-w", "-k")  # shutdown -k only warns, reboot -w only writes wtmp

_SYSTEMCTL_CHANGES = (
    "start|stop|restart|reload|try-restart|reload-or-restart|kill|enable|disable|mask|unmask"
    "|set-default|set-property|daemon-reload|daemon-reexec|link|revert|preset|preset-all|edit"
    "|isolate|reenable|try-reload-or-restart|clean|freeze|thaw|bind|mount-image|set-environment"
    "|unset-environment|import-environment|reset-failed"
)

_BATCH = Spec(kind="scheduler", operands="data")

_AT_TOOL = Tool(
    values=opts("-q", "-f", "-t", "-M", "-m"),
    effects=(
        E(
            "system",
            "scheduled-jobs",
            "keeps commands to run later",
            without=("-l", "-c", "-r", "-d", "-V"),
        ),
    ),
)

_FDISK_TOOL = Tool(
    effects=(
        E(
            "destroy",
            "device",
            "rewrites a partition table",
            check="operands",
            without=("-l", "--list", "-d", "--dump", "-s", "--show-size", "-V"),
        ),
    )
)

_MOUNT_TOOL = Tool(
    values=opts("-t", "--types", "-o", "--options", "-O", "-L", "-U"),
    effects=(
        E("system", "mounts", "changes what is mounted", check="operands"),
        E("system", "mounts", "changes what is mounted", flags=("-a", "--all")),
    ),
)

_REBOOT_TOOL = Tool(
    effects=(E("system", "power", "stops or restarts the machine", without=_POWER_QUIET),)
)

_INIT_TOOL = Tool(
    effects=(E("system", "power", "changes the machine's runlevel", sub=("0|1|6|s|S",)),)
)

_MODPROBE_TOOL = Tool(
    effects=(
        E(
            "system",
            "kernel",
            "loads or removes kernel modules",
            check="operands",
            without=("-n", "--dry-run", "--show-depends", "-c", "--showconfig"),
        ),
    ),
)

_HOSTNAMECTL_TOOL = Tool(
    effects=(
        E(
            "system",
            "settings",
            "changes machine-wide settings",
            sub=("set-*|enable|disable|hostname|chassis|deployment|location|icon-name",),
        ),
    ),
)

_PKILL_TOOL = Tool(
    values=opts(
        "-s",
        "--signal",
        "-u",
        "--euid",
        "-U",
        "--uid",
        "-g",
        "-G",
        "-P",
        "-t",
        "-F",
        "--pidfile",
        "-n",
        "-o",
    ),
    effects=(
        E(
            "system",
            "processes",
            "kills processes by name, whoever started them",
            check="operands",
            without=("-l", "--list"),
        ),
        E(
            "system",
            "processes",
            "kills every process of a user, group, session or terminal",
            flags=("-u", "--euid", "-U", "--uid", "-G", "--group", "-g", "--pgroup", "-s"),
            without=("-l", "--list"),
        ),
        E(
            "system",
            "processes",
            "kills every process of a parent, session or terminal",
            flags=("--session", "-P", "--parent", "-t", "--terminal"),
            without=("-l", "--list"),
        ),
    ),
)

_PASSWD_TOOL = Tool(
    values=opts("-r", "--repository", "-R", "--root", "-s", "--shell"),
    effects=(
        E(
            "system",
            "users",
            "changes a user's password or login",
            without=("-S", "--status", "-h", "--help"),
        ),
    ),
)

_USERADD_TOOL = Tool(
    values=opts("-g", "-G", "-d", "-s", "-u", "-c", "-e", "-p", "-l"),
    effects=(
        E(
            "privilege",
            "groups",
            "adds a user to a group that holds root's powers",
            check="admin-group",
        ),
        E("system", "users", "changes the machine's users", check="operands"),
    ),
)

COMMANDS: dict[str, Command] = {
    "openssl": Command(
        spec=Spec(
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
        subcommands=True,
    ),
    "batch": Command(spec=_BATCH, effects=_AT_TOOL, arity=arity(EXACT)),
    "crontab": Command(
        spec=_BATCH,
        effects=Tool(
            values=opts("-u"),
            effects=(
                E("destroy", "crontab", "crontab -r removes every scheduled job", flags=("-r",)),
                E(
                    "system",
                    "scheduled-jobs",
                    "replaces the scheduled jobs",
                    check="operands",
                    without=("-l", "-r"),
                ),
                E("system", "scheduled-jobs", "edits the scheduled jobs", flags=("-e",)),
            ),
        ),
        arity=arity(EXACT),
    ),
    "at": Command(spec=_BATCH, effects=_AT_TOOL, arity=arity(EXACT)),
    "systemctl": Command(
        spec=Spec(operands="path"),
        effects=Tool(
            values=opts(
                "-H",
                "--host",
                "-M",
                "--machine",
                "-t",
                "--type",
                "-p",
                "--property",
                "-s",
                "--signal",
                "--root",
            ),
            effects=(
                E(
                    "system",
                    "power",
                    "stops or restarts the machine",
                    sub=(
                        "reboot|poweroff|halt|kexec|suspend|hibernate|hybrid-sleep"
                        "|suspend-then-hibernate|soft-reboot|rescue|emergency|isolate|default",
                    ),
                ),
                E(
                    "system",
                    "services",
                    "starts, stops or changes system services",
                    sub=(_SYSTEMCTL_CHANGES,),
                    without=("--user",),
                ),
                E(
                    "system",
                    "user-services",
                    "starts, stops or changes your user services",
                    sub=(_SYSTEMCTL_CHANGES,),
                    flags=("--user",),
                ),
            ),
        ),
        own_rows="its rows name every change to services",
        arity=arity(2),
    ),
    "journalctl": Command(
        spec=Spec(operands="path"),
        effects=Tool(
            effects=(
                E(
                    "destroy",
                    "logs",
                    "deletes the system's journal files",
                    flags=("--vacuum-time", "--vacuum-size", "--vacuum-files"),
                ),
            )
        ),
    ),
    "mkfs": Command(
        spec=Spec(operands="write"),
        effects=Tool(effects=(E("destroy", "device", "mkfs erases a device", check="operands"),)),
        arity=arity(EXACT),
    ),
    # a desktop's settings, kept under home: what changes them writes there
    "defaults": Command(  # macOS
        home=home_files(
            "Library/Preferences", "write", ("write",), ("delete",), ("import",), ("rename",)
        )
    ),
    "gsettings": Command(
        home=home_files(".config/dconf", "write", ("set",), ("reset",), ("reset-recursively",))
    ),
    "dconf": Command(
        spec=Spec(operands="data"),  # its keys' paths (/org/gnome/…), not files
        home=home_files(".config/dconf", "write", ("write",), ("reset",), ("load",)),
    ),
    "xdg-settings": Command(home=home_files(".config/mimeapps.list", "write", ("set",))),
    "xdg-mime": Command(home=home_files(".config/mimeapps.list", "write", ("default",))),
    # machinectl shell/login: a shell as root (unless USER@ says otherwise) on this machine or in
    # a container it manages; what runs there is not checked
    "machinectl": Command(
        effects=Tool(
            values=opts("-M", "--machine", "-H", "--host", "--uid", "-E", "--setenv", "-p"),
            effects=(
                E(
                    "privilege",
                    "root",
                    "opens a shell as root (by default) on this machine or in a container",
                    sub=("shell|login",),
                ),
            ),
        ),
        subcommands=True,
    ),
    "systemd-run": Command(
        spec=Spec(
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
        )
    ),
    # the machine's security modules: switched off or loosened for every program
    **dict.fromkeys(
        ("setenforce", "aa-disable", "aa-complain", "aa-teardown"),
        Command(
            effects=Tool(effects=(E("system", "security", "changes what the system lets run"),))
        ),
    ),
    # package managers that take their removal as an option
    "rpm": Command(
        effects=Tool(
            effects=(
                E("destroy", "packages", "removes packages from the machine", flags=("-e",)),
                E("destroy", "packages", "removes packages", flags=("--erase",)),
            )
        )
    ),
    "emerge": Command(
        effects=Tool(
            effects=(
                E(
                    "destroy",
                    "packages",
                    "removes packages from the machine",
                    flags=("-C", "--unmerge", "-c", "--depclean", "--prune", "-P"),
                ),
            )
        )
    ),
    "nix-env": Command(
        effects=Tool(
            effects=(
                E("destroy", "packages", "removes packages from the profile", flags=("-e",)),
                E("destroy", "packages", "removes packages", flags=("--uninstall",)),
                E(
                    "destroy",
                    "packages",
                    "deletes the profile's old generations (no rollback to them)",
                    flags=("--delete-generations",),
                ),
            )
        )
    ),
    "nix-collect-garbage": Command(
        effects=Tool(
            effects=(
                E(
                    "destroy",
                    "packages",
                    "deletes old generations: no rollback to them",
                    flags=("-d", "--delete-old", "--delete-older-than"),
                ),
            )
        )
    ),
    "dnf": Command(arity=arity(2)),
    "yum": Command(arity=arity(2)),
    # pacman and its AUR helpers take their verbs as options: -R removes packages
    **dict.fromkeys(
        ("pacman", "yay", "paru"),
        Command(
            effects=Tool(
                values=opts("-b", "--dbpath", "-r", "--root", "--config", "--cachedir"),
                effects=(
                    E(
                        "destroy",
                        "packages",
                        "removes packages from the machine",
                        flags=("-R", "--remove"),
                    ),
                ),
            ),
            arity=arity(2),
        ),
    ),
    "snap": Command(subcommands=True),
    "flatpak": Command(subcommands=True),
    "atrm": Command(
        effects=Tool(effects=(E("system", "scheduled-jobs", "removes scheduled jobs"),))
    ),
    "blkdiscard": Command(
        effects=Tool(
            effects=(E("destroy", "device", "discards every block of a device", check="operands"),)
        )
    ),
    "cfdisk": Command(effects=_FDISK_TOOL),
    "fdisk": Command(effects=_FDISK_TOOL),
    "gdisk": Command(effects=_FDISK_TOOL),
    "sfdisk": Command(effects=_FDISK_TOOL),
    "sgdisk": Command(
        effects=Tool(
            effects=(
                E(
                    "destroy",
                    "device",
                    "erases or rewrites a partition table",
                    flags=("-Z", "--zap-all", "-z", "--zap", "-o", "--clear", "-d", "--delete"),
                ),
            )
        )
    ),
    "parted": Command(
        effects=Tool(
            values=opts("-a", "--align"),
            effects=(
                E(
                    "destroy",
                    "device",
                    "rewrites a partition table",
                    word="rm|mklabel|mktable|mkpart",
                ),
            ),
        )
    ),
    "wipefs": Command(
        effects=Tool(
            effects=(
                E("destroy", "device", "wipefs erases filesystem signatures", check="operands"),
            )
        )
    ),
    **dict.fromkeys(  # LVM: a logical volume, a volume group or a physical volume, and its data
        ("lvremove", "vgremove", "pvremove"),
        Command(
            effects=Tool(
                values=opts("--config", "--select", "-S"),
                effects=(E("destroy", "device", "removes an LVM volume and its data"),),
            )
        ),
    ),
    "mount": Command(effects=_MOUNT_TOOL),
    "umount": Command(effects=_MOUNT_TOOL),
    "swapon": Command(effects=_MOUNT_TOOL),
    "swapoff": Command(effects=_MOUNT_TOOL),
    "halt": Command(effects=_REBOOT_TOOL),
    "poweroff": Command(effects=_REBOOT_TOOL),
    "reboot": Command(effects=_REBOOT_TOOL),
    "shutdown": Command(effects=_REBOOT_TOOL),
    "init": Command(
        effects=_INIT_TOOL, own_rows="its rows name the runlevels that stop the machine"
    ),
    "telinit": Command(
        effects=_INIT_TOOL, own_rows="its rows name the runlevels that stop the machine"
    ),
    "insmod": Command(effects=_MODPROBE_TOOL),
    "modprobe": Command(effects=_MODPROBE_TOOL),
    "rmmod": Command(effects=_MODPROBE_TOOL),
    "sysctl": Command(
        effects=Tool(
            effects=(
                E(
                    "system",
                    "kernel",
                    "changes kernel settings",
                    flags=("-w", "--write", "-p", "--load", "--system"),
                ),
            )
        )
    ),
    "hostnamectl": Command(effects=_HOSTNAMECTL_TOOL, own_rows="its rows name every change"),
    "timedatectl": Command(effects=_HOSTNAMECTL_TOOL, own_rows="its rows name every change"),
    "localectl": Command(effects=_HOSTNAMECTL_TOOL, own_rows="its rows name every change"),
    "launchctl": Command(
        effects=Tool(
            effects=(
                E(
                    "system",
                    "services",
                    "loads, unloads or stops system services",
                    sub=(
                        "load|unload|bootstrap|bootout|kill|stop|start|remove|disable|enable|kickstart",
                    ),
                ),
            )
        ),
        own_rows="its rows name every change to services",
        arity=arity(2),
    ),
    "service": Command(
        effects=Tool(
            effects=(
                E(
                    "system",
                    "services",
                    "starts, stops or changes system services",
                    sub=("*", "start|stop|restart|reload|force-reload|disable|enable"),
                ),
            )
        ),
        own_rows="its rows name every change to services",
    ),
    "rc-service": Command(  # OpenRC: rc-service NAME start|stop …
        effects=Tool(
            effects=(
                E(
                    "system",
                    "services",
                    "starts, stops or changes system services",
                    sub=("*", "start|stop|restart|reload|pause|zap"),
                ),
            )
        ),
        own_rows="its rows name every change to services",
    ),
    "rc-update": Command(
        effects=Tool(
            effects=(
                E("system", "services", "changes what starts at boot", sub=("add|del|delete",)),
            )
        ),
        own_rows="its rows name every change to services",
    ),
    "sv": Command(  # runit: sv up|down|restart … NAME
        effects=Tool(
            effects=(
                E(
                    "system",
                    "services",
                    "starts, stops or changes system services",
                    sub=(
                        "up|down|once|pause|cont|hup|alarm|interrupt|quit|term|kill|exit|restart"
                        "|force-stop|force-reload|force-restart|force-shutdown|start|stop|reload",
                    ),
                ),
            )
        ),
        own_rows="its rows name every change to services",
    ),
    "loginctl": Command(
        effects=Tool(
            effects=(
                E(
                    "system",
                    "processes",
                    "ends users' sessions and what runs in them",
                    sub=("terminate-session|terminate-user|kill-session|kill-user|lock-sessions",),
                ),
                E("system", "settings", "changes machine-wide settings", sub=("enable-linger",)),
            )
        ),
        subcommands=True,
    ),
    "killall": Command(effects=_PKILL_TOOL, arity=arity(EXACT)),
    "pkill": Command(effects=_PKILL_TOOL, arity=arity(EXACT)),
    "xkill": Command(
        effects=Tool(effects=(E("system", "processes", "kills the program of a window"),))
    ),
    "chfn": Command(effects=_PASSWD_TOOL),
    "chsh": Command(effects=_PASSWD_TOOL),
    "chpasswd": Command(effects=_PASSWD_TOOL),
    "gpasswd": Command(
        effects=Tool(
            effects=(
                E(
                    "privilege",
                    "groups",
                    "adds a user to a group that holds root's powers",
                    check="admin-group",
                ),
            ),
        )
    ),
    "passwd": Command(effects=_PASSWD_TOOL),
    "groupadd": Command(effects=_USERADD_TOOL),
    "groupdel": Command(effects=_USERADD_TOOL),
    "groupmod": Command(effects=_USERADD_TOOL),
    "useradd": Command(effects=_USERADD_TOOL),
    "userdel": Command(effects=_USERADD_TOOL),
    "adduser": Command(effects=_USERADD_TOOL),  # Debian's front ends to the same changes
    "deluser": Command(effects=_USERADD_TOOL),
    "addgroup": Command(effects=_USERADD_TOOL),
    "delgroup": Command(effects=_USERADD_TOOL),
    "usermod": Command(effects=_USERADD_TOOL),
    "setcap": Command(
        effects=Tool(
            effects=(
                E(
                    "privilege",
                    "capabilities",
                    "gives a program capabilities beyond its user's",
                    check="operands",
                ),
            )
        )
    ),
    "guard": Command(
        own_rows="what widens guard asks by its own trust rules (approvals/trust.py);"
        " revoke narrows"
    ),
}
