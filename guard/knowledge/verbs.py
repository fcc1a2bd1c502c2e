"""The verb model: what the subcommand words of a CLI say it does to something of that tool's.

One model for every CLI with subcommands, known or not: a word of its subcommand path that
removes, empties, revokes or undoes (`delete`, `rm`, `prune`, `revoke`, `uninstall`, `undo`,
`rollback`, `unpublish` …, or a word made of one: `delete-bucket`, `batch-delete-image`,
`db:drop`) is `destroy:TOOL`, anywhere in the path (`npm owner rm`, `docker buildx rm`,
`kubectl rollout undo`, `gcloud compute instances delete`); scaling to zero (`kubectl scale
--replicas=0`, `docker service scale web=0`) is too. The path is the leading operands (up to
four), and it ends at a word that only reads or that runs a command of its own (`get`, `list`,
`logs`, `run`, `exec` …), so `kubectl get pod rm-worker` and `docker run img rm x` name no verb.

A command's record (guard/knowledge/commands/, its family's `COMMANDS`) says where the model
applies: `subcommands=True` for a CLI whose subcommands are words, `own_rows=` (why) for a
tool whose effect rows say everything, `quiet=` for subcommands that remove only what can be
had again. The reader is guard/projection/effects.py.
"""

from __future__ import annotations

DESTRUCTIVE_VERBS = frozenset(
    {
        *("delete", "del", "destroy", "drop", "purge", "remove", "rm", "rmi", "rb", "terminate"),
        *("wipe", "truncate", "prune", "reset", "erase", "nuke", "obliterate", "deregister"),
        *("decommission", "teardown", "force-delete", "revoke", "uninstall", "flush", "yank"),
        *("deprecate", "leave", "undo", "rollback", "unpublish", "unregister", "evict"),
        *("drain", "expire", "discard", "downgrade", "shred", "unsubscribe", "undefine"),
        "autoremove",
        "untap",  # brew untap: a tap's formulae gone
        "forget",  # restic forget: snapshots gone
        "deletion",  # aws kms schedule-key-deletion
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

# A long option that is a verb removes as the verb does (`cargo owner --remove bob`, `gem owner
# --remove`, `az … --delete`). Not `--rm` (docker run's container removed when it exits), nor
# `--prune`, `--reset` or `--flush`, which mostly tidy what the tool keeps.
DESTRUCTIVE_OPTIONS = frozenset(
    f"--{verb}"
    for verb in (
        *("delete", "remove", "purge", "destroy", "drop", "wipe", "revoke", "uninstall"),
        *("erase", "yank", "unpublish", "force-delete", "terminate", "deregister"),
        *("unregister", "obliterate", "nuke", "shred", "force-reset"),  # prisma db push
    )
)

# Options that say how many of something run: set to 0, nothing does (`aws ecs update-service
# --desired-count 0`, `az aks scale --node-count 0`, `docker compose up --scale web=0`). Not
# `--min-*` (scaling to zero when idle is the point), nor Cloud Run's `--max-instances` (0: no
# limit).
ZERO_COUNTS = frozenset(
    {
        *("--replicas", "--desired-count", "--desired-capacity", "--max-size", "--num-nodes"),
        *("--node-count", "--instance-count", "--max-replicas", "--scale"),
    }
)

SCALE_VERBS = frozenset({"scale", "ps:scale", "resize"})  # with a count of 0: nothing runs

PATH_LENGTH = 4  # leading operands that may be subcommand words
COMPOUND_LENGTH = 3  # of those, where a word made of a verb (delete-bucket) counts
