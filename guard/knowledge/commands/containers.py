"""Containers, clusters and sandboxes: docker and podman, kubectl, bwrap, unshare, nsenter,
chroot."""

from __future__ import annotations

import re

from guard.knowledge.commands.shells import WRAPPER
from guard.knowledge.commands.spec import Role, Spec, opts

# Containers: host directories bound in (-v /host:/ctr, --mount type=bind,source=…) are reached
# by whatever the container runs, which guard does not see.
CONTAINER = Spec(
    operands="data",
    options={
        "-f": "read",
        "--file": "read",
        "--env-file": "read",
        "--config": "read",  # docker --config DIR: its config.json, credential helpers
        "--tlscacert": "read",
        "--tlscert": "read",
        "--tlskey": "read",
        "-v": "container-volume",
        "--volume": "container-volume",
        "--mount": "container-mount",
    },
)


# Options that give a container the host's powers: what it runs there is not checked.
CONTAINER_HOST_POWERS = re.compile(
    r"^--(privileged|cap-add|device|security-opt)\b|^--(pid|userns)=host$"
)


CONTAINER_COMMANDS = frozenset({"docker", "podman", "nerdctl"})


# bwrap's options and the roles of the words each takes (some take two or three).
BWRAP_OPTIONS: dict[str, tuple[Role, ...]] = {
    **dict.fromkeys(("--bind", "--bind-try", "--dev-bind", "--dev-bind-try"), ("write", "data")),
    **dict.fromkeys(("--ro-bind", "--ro-bind-try"), ("read", "data")),
    **dict.fromkeys(
        ("--symlink", "--setenv", "--file", "--bind-data", "--ro-bind-data", "--chmod"),
        ("data", "data"),
    ),
    "--overlay": ("write", "write", "data"),
    "--ro-overlay": ("data",),
    "--overlay-src": ("read",),
    "--lock-file": ("data",),
    "--seccomp": ("data",),
    **dict.fromkeys(
        (
            "--args",
            "--argv0",
            "--userns",
            "--userns2",
            "--pidns",
            "--uid",
            "--gid",
            "--hostname",
            "--chdir",
            "--unsetenv",
            "--info-fd",
            "--json-status-fd",
            "--sync-fd",
            "--block-fd",
            "--userns-block-fd",
            "--exec-label",
            "--file-label",
            "--remount-ro",
            "--tmpfs",
            "--proc",
            "--dev",
            "--dir",
            "--mqueue",
            "--tmp-overlay",
            "--perms",
            "--size",
            "--cap-add",
            "--cap-drop",
        ),
        ("data",),
    ),
}


SPECS: dict[str, Spec] = {
    **dict.fromkeys(("docker", "podman", "nerdctl"), CONTAINER),
    "kubectl": Spec(
        operands="data",  # names of resources; `exec … -- CMD` runs in the cluster
        options={
            "-f": "read",
            "--filename": "read",
            "--kubeconfig": "read",
            "-k": "read",
            "--kustomize": "read",
        },
    ),
    "bwrap": Spec(kind="bwrap", operands="command"),
    "chroot": Spec(kind="wrapper", operands="command", skip=1),
    "unshare": Spec(
        kind="wrapper",
        operands="command",
        values=opts(
            "-S",
            "--setuid",
            "-G",
            "--setgid",
            "--propagation",
            "--map-user",
            "--map-group",
            "--map-users",
            "--map-groups",
            "--monotonic",
            "--boottime",
        ),
        options={"-R": "chdir", "--root": "chdir", "-w": "chdir", "--wd": "chdir"},
    ),
    "nsenter": Spec(
        kind="wrapper",
        operands="command",
        values=opts("-t", "--target", "-S", "--setuid", "-G", "--setgid", "-W", "--wdns"),
    ),
    "firejail": WRAPPER,
}
