"""Containers, clusters and sandboxes: docker and podman, kubectl, bwrap, unshare, nsenter,
chroot."""

from __future__ import annotations

import re

from guard.knowledge.commands.command import (
    EXACT,
    Command,
    Copy,
    HomeFile,
    arity,
    home_files,
)
from guard.knowledge.commands.effect import E, Tool, spec_values
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
        "-o": "container-output",  # docker save/export -o FILE, buildx build -o DIR
        "--output": "container-output",
        "--input": "read",  # docker load --input FILE
        "--secret": "container-secret",  # docker build --secret id=x,src=FILE
    },
)


# Options that give a container the host's powers: what it runs there is not checked.
CONTAINER_HOST_POWERS = re.compile(
    r"^--(privileged|cap-add|device|security-opt)\b|^--(pid|userns)=host$"
)


_KUBECTL_SPEC = Spec(
    operands="data",  # names of resources; `exec … -- CMD` runs in the cluster
    options={
        "-f": "read",
        "--filename": "read",
        "--kubeconfig": "read",
        "-k": "read",
        "--kustomize": "read",
    },
)
# `docker cp`, `docker container cp`, `docker compose cp`
_CONTAINER_COPIES = (Copy(("cp",)), Copy(("container", "cp")), Copy(("compose", "cp")))


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


_FORCE = ("-f", "--force")

_DOCKER = Tool(
    global_first=True,
    values=spec_values(CONTAINER)
    | opts(
        "-H",
        "--host",
        "--context",
        "--log-level",
        "--config",
        "--filter",
        "-u",
        "--user",
        "-w",
        "--workdir",
        "-e",
        "--env",
        "--format",
        "--time",
        "--signal",
        "-s",
        "--until",
        "--platform",
        "--detach-keys",
    ),
    effects=(
        E(
            "destroy",
            "containers",
            "removes running containers by force",
            sub=("rm",),
            flags=_FORCE,
        ),
        E(
            "destroy",
            "containers",
            "removes running containers by force",
            sub=("container", "rm"),
            flags=_FORCE,
        ),
        E("destroy", "images", "removes images by force", sub=("rmi",), flags=_FORCE),
        E("destroy", "images", "removes images by force", sub=("image", "rm"), flags=_FORCE),
        E("destroy", "volumes", "removes volumes and the data in them", sub=("volume", "rm")),
        E(
            "destroy",
            "volumes",
            "compose down -v removes the project's volumes",
            sub=("compose", "down"),
            flags=("-v", "--volumes"),
        ),
        E(
            "destroy",
            "volumes",
            "prune removes volumes and the data in them",
            sub=("volume|system", "prune"),
        ),
        E(
            "destroy",
            "containers",
            "prune removes stopped containers, images or caches",
            sub=("container|image|network|builder|buildx", "prune"),
        ),
        E("publish", "container-registry", "pushes an image to a registry", sub=("push",)),
        E(
            "publish",
            "container-registry",
            "builds and pushes an image to a registry",
            sub=("build|buildx",),
            flags=("--push",),
        ),
        E("publish", "container-registry", "pushes an image to a registry", sub=("image", "push")),
        E(
            "remote",
            "container",
            "runs a command inside a running container",
            sub=("exec",),
            check="container-exec",
        ),
        E(
            "remote",
            "container",
            "runs a command inside a running container",
            sub=("container", "exec"),
            check="container-exec",
        ),
    ),
)

_KUBECTL = Tool(
    values=opts(
        "-n",
        "--namespace",
        "--context",
        "--cluster",
        "-l",
        "--selector",
        "-o",
        "--output",
        "-c",
        "--container",
        "--kubeconfig",
        "-f",
        "--filename",
        "--user",
        "-s",
        "--server",
        "--grace-period",
        "--timeout",
    ),
    effects=(
        E("destroy", "kubernetes", "deletes cluster resources", sub=("delete",)),
        E("destroy", "kubernetes", "drains a node, evicting what runs on it", sub=("drain",)),
        E(
            "destroy",
            "kubernetes",
            "replace --force deletes and recreates resources",
            sub=("replace",),
            flags=("--force",),
        ),
        E(
            "destroy",
            "kubernetes",
            "apply --prune deletes resources the manifests leave out",
            sub=("apply",),
            flags=("--prune",),
        ),
        E("remote", "kubernetes", "runs a command inside a pod", sub=("exec",), check="pod-exec"),
        E(
            "remote",
            "kubernetes",
            "runs a command in a new pod",
            sub=("run",),
            check="pod-command",
        ),
        E(
            "privilege",
            "kubernetes",
            "runs a privileged container, with the powers of the node it lands on",
            sub=("run",),
            flags=("--privileged",),
        ),
        E("remote", "kubernetes", "attaches to a process in a pod", sub=("attach",)),
        # `get secret NAME` lists names and types; an output format prints the data (base64)
        E(
            "disclose",
            "kubernetes",
            "prints the values of secrets (base64 hides nothing)",
            sub=("get", "*secret*"),
            flags=("-o", "--output"),
        ),
        E("remote", "kubernetes", "runs a debugging container in the cluster", sub=("debug",)),
    ),
)

_DOCKER_QUIET = (  # with -f (running containers, images in use) their rows ask
    (("rm",), "without -f only stopped containers go (their rows ask for -f)"),
    (("container", "rm"), "without -f only stopped containers go"),
    (("rmi",), "without -f only images no container uses go; they can be pulled again"),
    (("image", "rm"), "without -f only images no container uses go"),
)

COMMANDS: dict[str, Command] = {
    "docker": Command(
        container=True,
        copies=_CONTAINER_COPIES,
        home=(HomeFile(".docker", "write", ("login",)),),
        home_elsewhere=frozenset({"--config"}),
        spec=CONTAINER,
        effects=_DOCKER,
        subcommands=True,
        quiet=_DOCKER_QUIET,
        arity=arity(
            2,
            ("compose", 3),
            ("container", 3),
            ("image", 3),
            ("network", 3),
            ("volume", 3),
            ("run", EXACT),
            ("exec", EXACT),
        ),
    ),
    "podman": Command(
        container=True,
        spec=CONTAINER,
        effects=_DOCKER,
        copies=_CONTAINER_COPIES,
        subcommands=True,
        quiet=_DOCKER_QUIET,
        arity=arity(2, ("compose", 3), ("exec", EXACT), ("run", EXACT)),
    ),
    "nerdctl": Command(
        container=True,
        spec=CONTAINER,
        effects=_DOCKER,
        subcommands=True,
        quiet=_DOCKER_QUIET,
        copies=_CONTAINER_COPIES,
    ),
    "kubectl": Command(
        home=(
            *home_files(
                ".kube",
                "write",
                *(
                    ("config", verb)
                    for verb in (
                        *("set-context", "use-context", "set-credentials", "set-cluster", "set"),
                        *("unset", "delete-context", "delete-cluster", "rename-context"),
                    )
                ),
            ),
            # the kubeconfig with its keys and tokens, not redacted
            *home_files(
                ".kube", "read", ("config", "view", "--raw"), ("config", "view", "--flatten")
            ),
        ),
        home_elsewhere=frozenset({"--kubeconfig"}),
        dry_run=opts("--dry-run"),
        spec=_KUBECTL_SPEC,
        effects=_KUBECTL,
        subcommands=True,
        copies=(Copy(("cp",)),),
        arity=arity(2, ("config", 3), ("rollout", 3), ("run", EXACT), ("exec", EXACT)),
    ),
    "bwrap": Command(spec=Spec(kind="bwrap", operands="command")),
    "chroot": Command(spec=Spec(kind="wrapper", operands="command", skip=1), arity=arity(EXACT)),
    "unshare": Command(
        spec=Spec(
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
        arity=arity(EXACT),
    ),
    "nsenter": Command(
        spec=Spec(
            kind="wrapper",
            operands="command",
            values=opts("-t", "--target", "-S", "--setuid", "-G", "--setgid", "-W", "--wdns"),
        ),
        arity=arity(EXACT),
    ),
    "firejail": Command(spec=WRAPPER),
    "buildah": Command(subcommands=True),
    "crane": Command(subcommands=True),
    "crictl": Command(subcommands=True),
    "ctr": Command(subcommands=True),
    "docker-compose": Command(
        effects=Tool(
            values=opts("-f", "--file", "-p", "--project-name", "--profile", "--env-file"),
            effects=(
                E(
                    "destroy",
                    "volumes",
                    "compose down -v removes the project's volumes",
                    sub=("down",),
                    flags=("-v", "--volumes"),
                ),
            ),
        ),
        subcommands=True,
    ),
    "incus": Command(subcommands=True),
    "lxc": Command(subcommands=True),
    "multipass": Command(subcommands=True),
    "oc": Command(  # OpenShift's kubectl
        spec=_KUBECTL_SPEC, effects=_KUBECTL, subcommands=True, copies=(Copy(("cp",)),)
    ),
    "skopeo": Command(subcommands=True),
    "vagrant": Command(
        effects=Tool(
            effects=(E("remote", "vagrant", "runs commands inside the machine", sub=("ssh",)),)
        ),
        subcommands=True,
    ),
    "virsh": Command(subcommands=True),
}
