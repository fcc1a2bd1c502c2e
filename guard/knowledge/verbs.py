"""The verb model: what the subcommand words of a CLI say it does to something of that tool's.

One model for every CLI with subcommands, known or not: a word of its subcommand path that
removes, empties, revokes or undoes (`delete`, `rm`, `prune`, `revoke`, `uninstall`, `undo`,
`rollback`, `unpublish` …, or a word made of one: `delete-bucket`, `batch-delete-image`,
`db:drop`) is `destroy:TOOL`, anywhere in the path (`npm owner rm`, `docker buildx rm`,
`kubectl rollout undo`, `gcloud compute instances delete`); scaling to zero (`kubectl scale
--replicas=0`, `docker service scale web=0`) is too. The path is the leading operands (up to
four), and it ends at a word that only reads or that runs a command of its own (`get`, `list`,
`logs`, `run`, `exec` …), so `kubectl get pod rm-worker` and `docker run img rm x` name no verb.

Rows are exceptions, each with why: `OWN_ROWS` tools say everything in their effect rows
(guard/knowledge/commands/ (its record)), `QUIET` subcommands remove only what can be had again.
The reader is guard/projection/effects.py.
"""

from __future__ import annotations

DESTRUCTIVE_VERBS = frozenset(
    {
        *("delete", "del", "destroy", "drop", "purge", "remove", "rm", "rmi", "rb", "terminate"),
        *("wipe", "truncate", "prune", "reset", "erase", "nuke", "obliterate", "deregister"),
        *("decommission", "teardown", "force-delete", "revoke", "uninstall", "flush", "yank"),
        *("deprecate", "leave", "undo", "rollback", "unpublish", "unregister", "evict"),
        *("drain", "expire", "discard", "downgrade", "shred", "unsubscribe"),
    }
)

# Subcommand words that only read, or that run a command whose words follow: the path ends there.
PATH_ENDS = frozenset(
    {
        *("get", "list", "ls", "describe", "show", "view", "status", "logs", "log", "inspect"),
        *("history", "help", "explain", "top", "diff", "search", "info", "cat", "version"),
        *("print", "check", "lint", "validate", "plan", "whoami", "tree", "outdated", "audit"),
        *("why", "query", "watch", "tail", "events", "output", "fmt", "test", "run", "exec"),
        *("x", "dlx", "ssh", "shell", "debug", "attach", "port-forward", "proxy", "echo"),
        *("completion", "docs", "doc", "man", "browse", "open", "explain", "can-i", "whatis"),
    }
)

SCALE_VERBS = frozenset({"scale", "ps:scale", "resize"})  # with a count of 0: nothing runs

PATH_LENGTH = 4  # leading operands that may be subcommand words
COMPOUND_LENGTH = 3  # of those, where a word made of a verb (delete-bucket) counts

# Known tools whose subcommands are words, not yet in a family's records (a record says it with
# `subcommands=True`): the model applies to them as to tools guard does not know (which are
# taken to have subcommands). Tools with a `sub` row in their effects and specs with
# `subcommands` are CLIs with subcommands too.
SUBCOMMAND_CLIS = frozenset(
    {
        *("docker", "podman", "nerdctl", "kubectl", "oc", "gh", "npm", "pnpm"),
        *("yarn", "bun", "cargo", "go", "pip", "pip3", "uv", "poetry"),
        *("pdm", "hatch", "gem", "bundle", "brew", "conda", "mamba", "rustup"),
        *("snap", "flatpak", "rclone", "docker-compose", "deno", "glab", "lxc", "incus"),
        *("multipass", "vagrant", "virsh", "ctr", "crictl", "buildah", "skopeo", "crane"),
        *("composer", "dotnet", "apt", "apt-get"),
    }
)

# Tools whose effect rows (or other rules) say all they destroy: the verb model does not apply.
OWN_ROWS: dict[str, str] = {
    "git": "git's rows name what loses work (git rm and git reset keep what is committed)",
    "systemctl": "its rows name every change to services",
    "service": "its rows name every change to services",
    "launchctl": "its rows name every change to services",
    "ip": "its rows name every change to the network",
    "nft": "its rows name every change to the firewall",
    "ufw": "its rows name every change to the firewall",
    "init": "its rows name the runlevels that stop the machine",
    "telinit": "its rows name the runlevels that stop the machine",
    "hostnamectl": "its rows name every change",
    "timedatectl": "its rows name every change",
    "localectl": "its rows name every change",
    "http": "its DELETE row is the method, not a subcommand",
    "https": "its DELETE row is the method, not a subcommand",
    "xh": "its DELETE row is the method, not a subcommand",
    "xhs": "its DELETE row is the method, not a subcommand",
    "guard": "what widens guard asks by its own trust rules (approvals/trust.py); revoke narrows",
}

_DEPENDENCY = "removes a dependency of this project; installing brings it back from the registry"
_LOCAL_PACKAGE = "removes a package from this machine; installing brings it back"

# Subcommand paths (word patterns as in effect rows: `a|b`, `*`) that remove only what can be
# had again, per tool.
QUIET: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    **dict.fromkeys(
        ("npm", "pnpm", "yarn", "bun"),
        (
            (("uninstall|remove|rm|r|un|unlink",), _DEPENDENCY),
            (("prune",), "removes packages package.json does not list from node_modules"),
            (("cache", "clean|rm|remove|delete|prune"), "empties a download cache"),
            (("store", "prune"), "empties a download cache"),
        ),
    ),
    **dict.fromkeys(
        ("pip", "pip3"),
        (
            (("uninstall",), _LOCAL_PACKAGE),
            (("cache", "remove|purge"), "empties a download cache"),
        ),
    ),
    "uv": (
        (("remove",), _DEPENDENCY),
        (("pip", "uninstall"), _LOCAL_PACKAGE),
        (("cache", "clean|prune"), "empties a download cache"),
        (("tool|python", "uninstall"), _LOCAL_PACKAGE),
    ),
    **dict.fromkeys(("poetry", "pdm", "hatch"), ((("remove",), _DEPENDENCY),)),
    "cargo": ((("remove|rm|uninstall",), _DEPENDENCY),),
    "go": ((("clean",), "empties build caches"),),
    "gem": ((("uninstall",), _LOCAL_PACKAGE),),
    "bundle": ((("remove",), _DEPENDENCY),),
    "brew": (
        (("uninstall|remove|rm|unlink",), _LOCAL_PACKAGE),
        (("cleanup|autoremove",), "removes old versions of installed packages"),
    ),
    **dict.fromkeys(("conda", "mamba"), ((("remove|uninstall",), _LOCAL_PACKAGE),)),
    "rustup": ((("toolchain|component|target", "uninstall|remove"), _LOCAL_PACKAGE),),
    "deno": ((("remove|uninstall",), _DEPENDENCY),),
    "composer": ((("remove",), _DEPENDENCY),),
    "dotnet": ((("remove",), _DEPENDENCY),),
    **dict.fromkeys(
        ("docker", "podman", "nerdctl"),
        (  # with -f (running containers, images in use) their rows ask
            (("rm",), "without -f only stopped containers go (their rows ask for -f)"),
            (("container", "rm"), "without -f only stopped containers go"),
            (("rmi",), "without -f only images no container uses go; they can be pulled again"),
            (("image", "rm"), "without -f only images no container uses go"),
        ),
    ),
}
