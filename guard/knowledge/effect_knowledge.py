"""What commands destroy, discard, publish, run elsewhere or escalate, as data.

One `Tool` per command name: which of its options take a value (so the reader in
`guard/projection/effects.py` can split its argv into options and operands, whatever the spelling),
and rows
of `Effect`s, each naming the subcommand words, options or named check that give it. The first
row that matches for a kind and target wins, so put the strongest reason first.

To teach guard a new tool, add a row here (see docs/effects.md); no code changes are needed
unless the effect depends on more than words and options (then add a named check in
guard/projection/effect_checks.py and name it in `check`).

Kinds:
- destroy   data gone without a copy (recursive deletes, cloud deletes, SQL drops, dd, mkfs)
- discard   uncommitted or unreferenced work lost (git checkout -- ., reset --hard, push -f)
- publish   something leaves the machine for others (npm publish, docker push, git push)
- remote    code that runs on another machine (ssh HOST CMD, kubectl exec, docker exec)
- privilege runs as another user or hands out powers (sudo, setcap, setuid chmod)
- system    machine-wide state (reserved: reboot, systemctl, kill)
"""

from __future__ import annotations

from guard.knowledge.commands.containers import CONTAINER
from guard.knowledge.commands.effect import E, Tool, spec_values
from guard.knowledge.commands.network import SPECS as NETWORK_SPECS
from guard.knowledge.commands.shells import SPECS as SHELL_SPECS
from guard.knowledge.commands.vcs import GIT_GLOBAL_VALUES, GIT_OTHER, GIT_SUBCOMMANDS


def _v(*names: str) -> frozenset[str]:
    return frozenset(names)


_GIT_VALUES = (
    GIT_GLOBAL_VALUES
    | spec_values(GIT_OTHER, *GIT_SUBCOMMANDS.values())
    | _v("-c", "-C", "--source", "-s", "--pathspec-from-file", "--conflict", "--orphan")
) - _v("-f", "-F", "-d", "-D", "-S", "-W", "-x", "-n", "-u", "-p")
_FORCE = ("-f", "--force")
_GIT_FORCE_PUSH = (
    "-f",
    "--force",
    "--mirror",
    "--prune",
)

GIT = Tool(
    global_first=True,
    values=_GIT_VALUES,
    abbreviations=True,
    effects=(
        E(
            "discard",
            "git-worktree",
            "checkout -f throws away uncommitted changes",
            sub=("checkout",),
            flags=_FORCE,
        ),
        E(
            "discard",
            "git-worktree",
            "checkout of paths overwrites their uncommitted changes",
            sub=("checkout",),
            check="git-checkout-paths",
        ),
        E(
            "discard",
            "git-worktree",
            "restore overwrites uncommitted changes in the worktree",
            sub=("restore",),
            check="git-restore-worktree",
        ),
        E(
            "discard",
            "git-worktree",
            "reset --hard throws away uncommitted changes",
            sub=("reset",),
            flags=("--hard",),
        ),
        E(
            "discard",
            "git-worktree",
            "reset --merge/--keep can throw away uncommitted changes",
            sub=("reset",),
            flags=("--merge", "--keep"),
        ),
        E(
            "discard",
            "git-worktree",
            "git clean deletes untracked files",
            sub=("clean",),
            flags=_FORCE,
            without=("-n", "--dry-run"),
        ),
        E(
            "discard",
            "git-worktree",
            "switch -f throws away uncommitted changes",
            sub=("switch",),
            flags=(*_FORCE, "--discard-changes"),
        ),
        E("discard", "git-stash", "drops stashed changes", sub=("stash", "drop|clear")),
        E(
            "discard",
            "git-worktree",
            "rm -f deletes files with their uncommitted changes",
            sub=("rm",),
            flags=_FORCE,
        ),
        E(
            "discard",
            "git-worktree",
            "removes a worktree with its uncommitted changes",
            sub=("worktree", "remove"),
            flags=_FORCE,
        ),
        E(
            "discard",
            "git-history",
            "expires the reflog: commits no branch holds can no longer be found",
            sub=("reflog", "expire|delete"),
        ),
        E(
            "discard",
            "git-history",
            "gc --prune=now deletes unreachable commits at once",
            sub=("gc",),
            check="git-prune-now",
        ),
        E(
            "discard",
            "git-history",
            "rewrites every commit of the history",
            sub=("filter-branch|filter-repo",),
        ),
        E(
            "discard",
            "git-branch",
            "deletes a branch even if it is not merged",
            sub=("branch",),
            flags=("-D", "--delete+--force", "-d+-f", "--delete+-f", "-d+--force"),
        ),
        E(
            "discard",
            "git-branch",
            "moves or overwrites a branch, losing where it pointed",
            sub=("branch",),
            flags=("-f", "--force", "-M", "-C"),
        ),
        E(
            "discard",
            "git-branch",
            "switch -C resets an existing branch",
            sub=("switch",),
            flags=("-C", "--force-create"),
        ),
        E(
            "discard",
            "git-branch",
            "checkout -B resets an existing branch",
            sub=("checkout",),
            flags=("-B",),
        ),
        E(
            "discard",
            "git-remote",
            "force-push rewrites shared history",
            sub=("push",),
            flags=_GIT_FORCE_PUSH,
            without=("-n", "--dry-run"),
        ),
        E(
            "discard",
            "git-remote",
            "a +refspec force-pushes and rewrites shared history",
            sub=("push",),
            check="git-push-plus",
            without=("-n", "--dry-run"),
        ),
        E(
            "discard",
            "git-remote",
            "force-with-lease rewrites shared history (only if the remote has not moved)",
            sub=("push",),
            flags=("--force-with-lease", "--force-if-includes"),
            without=("-n", "--dry-run"),
        ),
        E(
            "discard",
            "git-remote",
            "deletes a branch or tag on the remote",
            sub=("push",),
            flags=("-d", "--delete"),
            without=("-n", "--dry-run"),
        ),
        E(
            "discard",
            "git-remote",
            "a :ref deletes a branch or tag on the remote",
            sub=("push",),
            check="git-push-delete",
            without=("-n", "--dry-run"),
        ),
        E(
            "publish",
            "git-remote",
            "pushes commits to a remote",
            sub=("push",),
            without=("-n", "--dry-run"),
        ),
    ),
)

_DOCKER = Tool(
    global_first=True,
    values=spec_values(CONTAINER)
    | _v(
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
    values=_v(
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
        E("remote", "kubernetes", "attaches to a process in a pod", sub=("attach",)),
        E("remote", "kubernetes", "runs a debugging container in the cluster", sub=("debug",)),
    ),
)

_QUIET = ("--wtmp-only", "-w", "-k")  # shutdown -k only warns, reboot -w only writes wtmp
_SYSTEMCTL_CHANGES = (
    "start|stop|restart|reload|try-restart|reload-or-restart|kill|enable|disable|mask|unmask"
    "|set-default|set-property|daemon-reload|link|revert|preset|edit|isolate"
)

_SUDO_QUIET = (
    "-l",
    "--list",
    "-k",
    "-K",
    "-v",
    "--validate",
    "--reset-timestamp",
    "--remove-timestamp",
    "-V",
)

# `find … -exec CMD`: commands that delete the files find hands them
FIND_DELETERS = frozenset({"rm", "shred", "unlink", "rmdir", "srm"})
# find's tests that pick some files by name, time, size or owner (`-type` alone picks a kind)
FIND_NARROWING = frozenset(
    {
        "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
        "-lname", "-ilname", "-newer", "-anewer", "-cnewer", "-newermt", "-mtime", "-mmin",
        "-atime", "-amin", "-ctime", "-cmin", "-size", "-empty", "-user", "-group", "-uid",
        "-gid", "-nouser", "-nogroup", "-perm", "-links", "-inum", "-samefile", "-used",
    }
)  # fmt: skip


def find_deleter(words: list[str | None]) -> str | None:
    """The deleting command `find … -exec CMD` runs on what it matches, if any."""
    for i, word in enumerate(words[:-1]):
        if word in ("-exec", "-execdir", "-ok", "-okdir"):
            inner = (words[i + 1] or "").rsplit("/", 1)[-1]
            if inner in FIND_DELETERS:
                return inner
    return None


TOOLS: dict[str, Tool] = {
    "git": GIT,
    **dict.fromkeys(("docker", "podman", "nerdctl"), _DOCKER),
    "kubectl": _KUBECTL,
    "oc": _KUBECTL,
    # files
    "rm": Tool(
        effects=(E("destroy", "files", "recursive delete", flags=("-r", "-R", "--recursive")),),
        abbreviations=True,
    ),
    "find": Tool(
        effects=(E("destroy", "files", "find deletes the files it matches", check="find-delete"),)
    ),
    "rsync": Tool(
        values=_v(
            "-e",
            "--rsh",
            "--rsync-path",
            "--exclude",
            "--include",
            "--filter",
            "-f",
            "--files-from",
            "--exclude-from",
            "--include-from",
            "--chmod",
            "-T",
            "--temp-dir",
            "--backup-dir",
            "--suffix",
            "--port",
            "--bwlimit",
        ),
        abbreviations=True,
        effects=(
            E(
                "destroy",
                "files",
                "rsync --delete removes files from the destination",
                check="rsync-delete",
            ),
            E("publish", "ssh", "copies files to another machine", check="copy-to-remote"),
        ),
    ),
    "scp": Tool(
        values=_v("-P", "-i", "-F", "-o", "-S", "-l", "-c", "-J", "-D", "-X"),
        effects=(E("publish", "ssh", "copies files to another machine", check="copy-to-remote"),),
    ),
    "shred": Tool(effects=(E("destroy", "files", "shred destroys files beyond recovery"),)),
    "srm": Tool(
        effects=(E("destroy", "files", "srm destroys files beyond recovery", check="operands"),)
    ),
    "truncate": Tool(
        values=_v("-s", "--size", "-r", "--reference"),
        effects=(
            E(
                "destroy",
                "files",
                "truncate cuts files to a size, losing what was past it",
                check="operands",
            ),
        ),
    ),
    "dd": Tool(
        effects=(
            E("destroy", "device", "dd overwrites a device raw", check="dd-device"),
            E("destroy", "files", "dd overwrites its output raw", check="dd-of"),
        )
    ),
    "mkfs": Tool(effects=(E("destroy", "device", "mkfs erases a device", check="operands"),)),
    "blkdiscard": Tool(
        effects=(E("destroy", "device", "discards every block of a device", check="operands"),)
    ),
    **dict.fromkeys(
        ("fdisk", "sfdisk", "cfdisk", "gdisk"),
        Tool(
            effects=(
                E(
                    "destroy",
                    "device",
                    "rewrites a partition table",
                    check="operands",
                    without=("-l", "--list", "-d", "--dump", "-s", "--show-size", "-V"),
                ),
            )
        ),
    ),
    "sgdisk": Tool(
        effects=(
            E(
                "destroy",
                "device",
                "erases or rewrites a partition table",
                flags=("-Z", "--zap-all", "-z", "--zap", "-o", "--clear", "-d", "--delete"),
            ),
        )
    ),
    "parted": Tool(
        values=_v("-a", "--align"),
        effects=(
            E("destroy", "device", "rewrites a partition table", word="rm|mklabel|mktable|mkpart"),
        ),
    ),
    "docker-compose": Tool(
        values=_v("-f", "--file", "-p", "--project-name", "--profile", "--env-file"),
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
    "crontab": Tool(
        values=_v("-u"),
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
    **dict.fromkeys(
        ("mongosh", "mongo"),
        Tool(
            values=_v(
                "--eval", "--host", "--port", "-u", "--username", "-p", "--password", "--file"
            ),
            effects=(E("destroy", "database", "drops or empties data", check="mongo-eval"),),
        ),
    ),
    "wipefs": Tool(
        effects=(E("destroy", "device", "wipefs erases filesystem signatures", check="operands"),)
    ),
    # Recursive mode and owner changes: the old modes/owners of every file below are lost
    # without a record (nothing can undo them but a backup), like a recursive delete's reach.
    "chmod": Tool(
        effects=(
            E(
                "privilege",
                "setuid",
                "sets the setuid/setgid bit: the program runs as its owner",
                check="chmod-setuid",
            ),
            E("destroy", "file-modes", "recursive permission change", flags=("-R", "--recursive")),
        ),
        abbreviations=True,
    ),
    "chown": Tool(
        effects=(
            E("destroy", "file-owners", "recursive owner change", flags=("-R", "--recursive")),
        ),
        abbreviations=True,
    ),
    "chgrp": Tool(
        effects=(
            E("destroy", "file-owners", "recursive group change", flags=("-R", "--recursive")),
        ),
        abbreviations=True,
    ),
    # privilege
    "sudo": Tool(
        ends_at_operand=True,
        values=spec_values(SHELL_SPECS["sudo"]),
        effects=(
            E(
                "privilege",
                "root",
                "runs as another user (root by default)",
                without=_SUDO_QUIET,
                check="as-user",
            ),
        ),
    ),
    "doas": Tool(
        ends_at_operand=True,
        values=_v("-u", "-C"),
        effects=(
            E("privilege", "root", "runs as another user (root by default)", check="as-user"),
        ),
    ),
    "su": Tool(
        ends_at_operand=True,
        values=_v("-c", "--command", "-s", "--shell", "-g", "-G", "-w"),
        effects=(
            E("privilege", "root", "runs as another user (root by default)", check="as-user"),
        ),
    ),
    "pkexec": Tool(
        ends_at_operand=True,
        values=_v("--user"),
        effects=(
            E("privilege", "root", "runs as another user (root by default)", check="as-user"),
        ),
    ),
    "run0": Tool(
        ends_at_operand=True,
        effects=(E("privilege", "root", "runs as another user (root by default)"),),
    ),
    "setcap": Tool(
        effects=(
            E(
                "privilege",
                "capabilities",
                "gives a program capabilities beyond its user's",
                check="operands",
            ),
        )
    ),
    # publish
    **dict.fromkeys(
        ("npm", "pnpm"),
        Tool(
            values=_v(
                "--tag", "--access", "--otp", "--registry", "-w", "--workspace", "-C", "--prefix"
            ),
            effects=(
                E(
                    "publish",
                    "npm",
                    "publishes a package to the npm registry",
                    sub=("publish",),
                    without=("--dry-run",),
                ),
                E(
                    "destroy",
                    "npm",
                    "removes a published package from the registry",
                    sub=("unpublish",),
                ),
            ),
        ),
    ),
    "yarn": Tool(
        values=_v("--tag", "--access", "--otp", "--registry", "--new-version"),
        effects=(
            E("publish", "npm", "publishes a package to the npm registry", sub=("publish",)),
            E("publish", "npm", "publishes a package to the npm registry", sub=("npm", "publish")),
        ),
    ),
    "cargo": Tool(
        values=_v(
            "--registry", "--index", "--token", "-p", "--package", "--manifest-path", "--target-dir"
        ),
        effects=(
            E(
                "publish",
                "crates-io",
                "publishes a crate to crates.io",
                sub=("publish",),
                without=("--dry-run", "-n"),
            ),
            E("destroy", "crates-io", "yanks a published crate version", sub=("yank",)),
        ),
    ),
    "twine": Tool(
        values=_v("-r", "--repository", "--repository-url", "-u", "-p"),
        effects=(E("publish", "pypi", "uploads packages to PyPI", sub=("upload",)),),
    ),
    **dict.fromkeys(
        ("poetry", "flit", "hatch", "uv", "pdm"),
        Tool(
            values=_v("-r", "--repository", "--index", "--publish-url", "-u", "-p", "--token"),
            effects=(
                E(
                    "publish",
                    "pypi",
                    "publishes packages to PyPI",
                    sub=("publish",),
                    without=("--dry-run",),
                ),
            ),
        ),
    ),
    "gem": Tool(
        values=_v("--host", "-k", "--key", "--otp"),
        effects=(
            E("publish", "rubygems", "pushes a gem to rubygems.org", sub=("push",)),
            E("destroy", "rubygems", "yanks a published gem", sub=("yank",)),
        ),
    ),
    **dict.fromkeys(
        ("mvn", "mvnw", "./mvnw"),
        Tool(
            values=_v("-f", "--file", "-s", "--settings", "-P", "-pl", "--projects", "-D", "-T"),
            effects=(
                E(
                    "publish",
                    "maven",
                    "deploys artifacts to a Maven repository",
                    word="deploy|deploy:*|release:perform|release:*",
                ),
            ),
        ),
    ),
    **dict.fromkeys(
        ("gradle", "gradlew"),
        Tool(
            values=_v(
                "-p",
                "--project-dir",
                "-b",
                "--build-file",
                "-x",
                "--exclude-task",
                "-P",
                "-D",
                "-c",
                "-I",
                "--init-script",
            ),
            effects=(
                E(
                    "publish",
                    "maven",
                    "publishes artifacts to a repository",
                    word="publish|publishTo*Repository|publishToMavenCentral|publishToSonatype|"
                    "publishAllPublicationsTo*|publishPlugins|*:publish|uploadArchives",
                ),
            ),
        ),
    ),
    "gh": Tool(
        values=_v(
            "-X",
            "--method",
            "-R",
            "--repo",
            "-t",
            "--title",
            "-n",
            "--notes",
            "-F",
            "--notes-file",
            "--target",
            "-b",
            "--body",
            "--hostname",
        ),
        effects=(
            E(
                "publish",
                "github-release",
                "publishes a release on GitHub",
                sub=("release", "create|upload|edit"),
            ),
            E("destroy", "github", "deletes a GitHub repository", sub=("repo", "delete")),
            E(
                "destroy",
                "github",
                "sends a DELETE to the GitHub API",
                sub=("api",),
                check="http-delete",
            ),
            E("destroy", "github", "deletes on GitHub", sub=("*", "delete|delete-asset")),
            E("destroy", "github", "archives a GitHub repository", sub=("repo", "archive")),
        ),
    ),
    # cloud and cluster
    "aws": Tool(
        values=_v(
            "--region",
            "--profile",
            "--output",
            "--endpoint-url",
            "--query",
            "--exclude",
            "--include",
        ),
        effects=(
            E("destroy", "aws", "deletes objects from S3", sub=("s3", "rm|rb")),
            E(
                "destroy",
                "aws",
                "sync --delete removes objects from the destination",
                sub=("s3", "sync"),
                flags=("--delete",),
            ),
            E(
                "destroy",
                "aws",
                "deletes cloud resources",
                sub=("*", "delete-*|terminate-*|remove-*|deregister-*|purge-*"),
            ),
        ),
    ),
    "rclone": Tool(
        values=spec_values(NETWORK_SPECS["rclone"]),
        effects=(
            E(
                "destroy",
                "rclone",
                "deletes files from a remote",
                sub=("delete|deletefile|purge|rmdir|rmdirs|cleanup",),
                without=("--dry-run", "-n"),
            ),
            E(
                "destroy",
                "rclone",
                "sync deletes what the source does not have from the destination",
                sub=("sync|bisync",),
                without=("--dry-run", "-n"),
            ),
            E(
                "destroy",
                "rclone",
                "move deletes the files it copied from the source",
                sub=("move|moveto",),
                without=("--dry-run", "-n"),
            ),
        ),
    ),
    "gcloud": Tool(
        values=_v("--project", "--zone", "--region", "--format", "--account"),
        effects=(
            E(
                "destroy",
                "gcloud",
                "deletes cloud resources",
                word="delete|delete-*|remove|remove-*|purge|rm",
            ),
            E("remote", "gcloud", "runs commands on a cloud machine", word="ssh"),
        ),
    ),
    "gsutil": Tool(
        values=_v("-o", "-h", "-u"),
        effects=(
            E("destroy", "gcloud", "deletes objects from cloud storage", sub=("rm|rb",)),
            E(
                "destroy",
                "gcloud",
                "rsync -d removes objects from the destination",
                sub=("rsync",),
                flags=("-d",),
            ),
        ),
    ),
    "az": Tool(
        values=_v(
            "-g", "--resource-group", "-n", "--name", "--subscription", "-o", "--output", "--query"
        ),
        effects=(E("destroy", "azure", "deletes cloud resources", word="delete|purge|delete-*"),),
    ),
    "helm": Tool(
        values=_v("-n", "--namespace", "--kube-context", "--kubeconfig"),
        effects=(
            E(
                "destroy",
                "helm",
                "uninstalls a release and what it deployed",
                sub=("uninstall|delete|del|un",),
            ),
        ),
    ),
    **dict.fromkeys(
        ("terraform", "tofu", "terragrunt"),
        Tool(
            values=_v("-var", "-var-file", "-target", "-chdir", "-out", "-lock-timeout"),
            single_dash_long=True,
            effects=(
                E(
                    "destroy",
                    "terraform",
                    "terraform destroy removes the infrastructure it manages",
                    sub=("destroy",),
                ),
                E(
                    "destroy",
                    "terraform",
                    "apply -destroy removes the infrastructure it manages",
                    sub=("apply",),
                    flags=("-destroy", "--destroy"),
                ),
                E(
                    "destroy",
                    "terraform",
                    "apply -auto-approve changes infrastructure unreviewed",
                    sub=("apply",),
                    flags=("-auto-approve", "--auto-approve"),
                ),
                E("destroy", "terraform", "removes resources from the state", sub=("state", "rm")),
                E("destroy", "terraform", "deletes a workspace", sub=("workspace", "delete")),
            ),
        ),
    ),
    "vault": Tool(
        values=_v("-address", "-namespace", "-mount", "-versions", "-format"),
        single_dash_long=True,
        effects=(
            E("destroy", "vault", "deletes secrets", sub=("delete",)),
            E(
                "destroy",
                "vault",
                "deletes or destroys secrets",
                sub=("kv", "delete|destroy|metadata"),
            ),
            E(
                "destroy",
                "vault",
                "disables a secrets engine and its data",
                sub=("secrets", "disable"),
            ),
        ),
    ),
    "curl": Tool(
        values=spec_values(NETWORK_SPECS["curl"]),
        effects=(
            E("destroy", "http", "sends an HTTP DELETE", check="http-delete"),
            E("publish", "http", "sends data to another machine", check="http-upload"),
        ),
    ),
    "wget": Tool(
        values=spec_values(NETWORK_SPECS["wget"]) | _v("--method", "--body-data", "--body-file"),
        effects=(
            E("destroy", "http", "sends an HTTP DELETE", check="http-delete"),
            E("publish", "http", "sends data to another machine", check="http-upload"),
        ),
    ),
    **dict.fromkeys(
        ("nc", "ncat", "netcat"),
        Tool(
            values=_v("-p", "-s", "-w", "-i", "-q", "-x", "-X", "-e", "-c", "-W", "-I", "-O"),
            effects=(
                E("publish", "tcp", "sends its input to another machine", check="fed-to-host"),
            ),
        ),
    ),
    "sftp": Tool(
        values=_v("-b", "-B", "-c", "-D", "-F", "-i", "-J", "-l", "-o", "-P", "-R", "-S", "-s"),
        effects=(E("publish", "ssh", "may copy files to another machine", check="sftp-host"),),
    ),
    **dict.fromkeys(
        ("http", "https", "xh", "xhs"),  # HTTPie: METHOD URL
        Tool(
            values=_v("-a", "--auth", "-A", "--auth-type", "-o", "--output", "--session"),
            effects=(
                E("destroy", "http", "sends an HTTP DELETE", sub=("DELETE|delete",)),
                E("publish", "http", "sends data to another machine", check="http-upload"),
            ),
        ),
    ),
    # databases: SQL given on the command line or standard input
    "psql": Tool(
        values=_v(
            "-c",
            "--command",
            "-h",
            "--host",
            "-p",
            "--port",
            "-U",
            "--username",
            "-d",
            "--dbname",
            "-f",
            "--file",
            "-v",
            "--set",
            "-o",
            "--output",
        ),
        effects=(E("destroy", "database", "SQL that drops or empties data", check="sql"),),
    ),
    **dict.fromkeys(
        ("mysql", "mariadb"),
        Tool(
            values=_v(
                "-e",
                "--execute",
                "-h",
                "--host",
                "-P",
                "--port",
                "-u",
                "--user",
                "-D",
                "--database",
                "-S",
                "--socket",
            ),
            effects=(E("destroy", "database", "SQL that drops or empties data", check="sql"),),
        ),
    ),
    "sqlite3": Tool(
        values=_v("-cmd", "-separator", "-nullvalue", "-newline"),
        single_dash_long=True,
        effects=(E("destroy", "database", "SQL that drops or empties data", check="sql"),),
    ),
    # machine-wide state
    **dict.fromkeys(
        ("reboot", "shutdown", "poweroff", "halt"),
        Tool(effects=(E("system", "power", "stops or restarts the machine", without=_QUIET),)),
    ),
    "systemctl": Tool(
        values=_v(
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
                sub=("reboot|poweroff|halt|kexec|suspend|hibernate|rescue|emergency|isolate",),
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
    "service": Tool(
        effects=(
            E(
                "system",
                "services",
                "starts, stops or changes system services",
                sub=("*", "start|stop|restart|reload|force-reload|disable|enable"),
            ),
        )
    ),
    "launchctl": Tool(
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
    "sysctl": Tool(
        effects=(
            E(
                "system",
                "kernel",
                "changes kernel settings",
                flags=("-w", "--write", "-p", "--load", "--system"),
            ),
        )
    ),
    **dict.fromkeys(
        ("modprobe", "insmod", "rmmod"),
        Tool(
            effects=(
                E(
                    "system",
                    "kernel",
                    "loads or removes kernel modules",
                    check="operands",
                    without=("-n", "--dry-run", "--show-depends", "-c", "--showconfig"),
                ),
            ),
        ),
    ),
    **dict.fromkeys(
        ("mount", "umount", "swapoff", "swapon"),
        Tool(
            values=_v("-t", "--types", "-o", "--options", "-O", "-L", "-U"),
            effects=(
                E("system", "mounts", "changes what is mounted", check="operands"),
                E("system", "mounts", "changes what is mounted", flags=("-a", "--all")),
            ),
        ),
    ),
    **dict.fromkeys(
        ("pkill", "killall"),
        Tool(
            values=_v(
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
            ),
        ),
    ),
    "kill": Tool(
        values=_v("-s", "-n"),
        effects=(
            E("system", "processes", "kills every process it may (pid -1)", check="kill-all"),
            E(
                "system",
                "processes",
                "sends a signal that stops processes",
                check="signal-pids",
                without=("-l", "-L", "--list", "-0"),
            ),
        ),
    ),
    "xkill": Tool(effects=(E("system", "processes", "kills the program of a window"),)),
    "ip": Tool(
        values=_v("-n", "-netns", "-f", "-family", "-b", "-batch", "-rc", "-rcvbuf"),
        single_dash_long=True,
        effects=(
            E(
                "system",
                "network",
                "changes the network configuration",
                sub=(
                    "l|li|lin|link|a|ad|add|addr|addre|addres|address|r|ro|rou|rout|route|ru|rul"
                    "|rule|n|ne|nei|neigh|neighbor|neighbour|tunnel|tun|tuntap|netns|maddr"
                    "|mroute|vrf|xfrm|token|nexthop|mptcp|macsec|sr|l2tp|fou|tcp_metrics",
                    "add|a|del|delete|d|set|change|chg|replace|repl|flush|f|append|prepend"
                    "|save|restore|attach|detach|exec|identify|flush",
                ),
            ),
        ),
    ),
    "nmcli": Tool(
        values=_v("-f", "--fields", "-g", "--get-values", "-e", "--escape", "-w", "--wait"),
        effects=(
            E(
                "system",
                "network",
                "changes network connections",
                word="down|up|delete|del|modify|mod|disconnect|connect|off|on|add|reload|import"
                "|set|reapply|hostname",
            ),
        ),
    ),
    **dict.fromkeys(
        ("at", "batch"),
        Tool(
            values=_v("-q", "-f", "-t", "-M", "-m"),
            effects=(
                E(
                    "system",
                    "scheduled-jobs",
                    "keeps commands to run later",
                    without=("-l", "-c", "-r", "-d", "-V"),
                ),
            ),
        ),
    ),
    "atrm": Tool(effects=(E("system", "scheduled-jobs", "removes scheduled jobs"),)),
    **dict.fromkeys(
        ("hostnamectl", "timedatectl", "localectl"),
        Tool(
            effects=(
                E(
                    "system",
                    "settings",
                    "changes machine-wide settings",
                    sub=("set-*|enable|disable",),
                ),
            ),
        ),
    ),
    "redis-cli": Tool(
        values=_v("-h", "-p", "-a", "-n", "-u", "--user", "--pass"),
        effects=(
            E(
                "destroy",
                "database",
                "deletes every key",
                word="FLUSHALL|FLUSHDB|flushall|flushdb",
            ),
        ),
    ),
    **dict.fromkeys(
        ("iptables", "ip6tables"),
        Tool(
            values=_v("-t", "--table"),
            effects=(
                E(
                    "system",
                    "firewall",
                    "changes the firewall rules",
                    flags=(
                        "-F",
                        "--flush",
                        "-X",
                        "--delete-chain",
                        "-P",
                        "--policy",
                        "-D",
                        "--delete",
                        "-A",
                        "--append",
                        "-I",
                        "--insert",
                        "-R",
                        "--replace",
                    ),
                ),
            ),
        ),
    ),
    "nft": Tool(
        effects=(
            E(
                "system",
                "firewall",
                "changes the firewall rules",
                sub=("flush|add|delete|insert|replace|create|destroy",),
            ),
        )
    ),
    "ufw": Tool(
        effects=(
            E(
                "system",
                "firewall",
                "changes the firewall rules",
                sub=("enable|disable|reset|allow|deny|reject|limit|delete|insert",),
            ),
        )
    ),
    **dict.fromkeys(
        ("init", "telinit"),
        Tool(effects=(E("system", "power", "changes the machine's runlevel", sub=("0|1|6|s|S",)),)),
    ),
    **dict.fromkeys(
        ("useradd", "userdel", "usermod", "groupadd", "groupdel", "groupmod"),
        Tool(
            values=_v("-g", "-G", "-d", "-s", "-u", "-c", "-e", "-p", "-l"),
            effects=(
                E(
                    "privilege",
                    "groups",
                    "adds a user to a group that holds root's powers",
                    check="admin-group",
                ),
                E("system", "users", "changes the machine's users", check="operands"),
            ),
        ),
    ),
    **dict.fromkeys(
        ("passwd", "chpasswd", "chsh", "chfn"),
        Tool(
            values=_v("-r", "--repository", "-R", "--root", "-s", "--shell"),
            effects=(
                E(
                    "system",
                    "users",
                    "changes a user's password or login",
                    without=("-S", "--status", "-h", "--help"),
                ),
            ),
        ),
    ),
    "gpasswd": Tool(
        effects=(
            E(
                "privilege",
                "groups",
                "adds a user to a group that holds root's powers",
                check="admin-group",
            ),
        ),
    ),
    # remote
    **dict.fromkeys(
        ("ansible", "ansible-playbook", "pssh", "parallel-ssh", "pdsh"),
        Tool(
            values=_v(
                "-i",
                "--inventory",
                "-m",
                "--module-name",
                "-a",
                "--args",
                "-u",
                "-l",
                "--limit",
                "-e",
                "--extra-vars",
                "-h",
                "-H",
                "-w",
                "-l",
            ),
            effects=(
                E(
                    "remote",
                    "ansible",
                    "runs commands on the hosts of an inventory",
                    without=("--syntax-check", "--list-hosts", "--list-tasks", "-C", "--check"),
                ),
            ),
        ),
    ),
    "ssh": Tool(
        ends_at_operand=True,
        values=spec_values(NETWORK_SPECS["ssh"]),
        effects=(E("remote", "ssh", "runs code on another machine", check="ssh"),),
    ),
}

# Names with more than one spelling: `mkfs.ext4` is mkfs, `mke2fs` too.
ALIASES = {"mke2fs": "mkfs", "mkswap": "mkfs", "./gradlew": "gradlew", "./mvnw": "mvnw"}
