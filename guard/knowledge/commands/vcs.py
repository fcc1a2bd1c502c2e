"""Version control: git (its subcommands and config keys that run programs), hg, svn."""

from __future__ import annotations

import re

from guard.knowledge.commands.command import EXACT, Command, HomeFile, arity, home_files
from guard.knowledge.commands.effect import E, Tool, spec_values
from guard.knowledge.commands.spec import Spec, opts

# git: its own options, then a subcommand read with its spec in GIT_SUBCOMMANDS (or GIT_OTHER).
GIT = Spec(
    kind="git",
    operands="path",
    subcommands=True,
    values=opts("--namespace", "--super-prefix", "--list-cmds"),
    options={
        "-C": "chdir",
        "--git-dir": "read",
        "--work-tree": "chdir",
        "-c": "git-config",
        "--config-env": "git-config-env",
        "--exec-path": "execute",  # git runs its subcommands from there
    },
)


GIT_GLOBAL_VALUES = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"}
)


GIT_OTHER = Spec(
    operands="path",
    values=opts(
        "-m",
        "--message",
        "-b",
        "-B",
        "--author",
        "--date",
        "--format",
        "--pretty",
        "-n",
        "--depth",
        "--branch",
        "-S",
        "--since",
        "--until",
        "--grep",
        "-U",
        "--unified",
        "--abbrev",
    ),
    # `-o` means many things (push options, output files): a path is taken as written
    options={"-F": "read", "--file": "read", "-o": "write", "--output": "write"},
)


_REMOTE_REFS = GIT_OTHER._replace(operands="data", first="path")

GIT_SUBCOMMANDS: dict[str, Spec] = {
    "filter-branch": Spec(
        operands="data",
        values=opts("--subdirectory-filter", "--prune-empty", "-d", "--original", "--state-branch"),
        options={
            f"--{kind}-filter": "code"
            for kind in ("tree", "index", "msg", "env", "commit", "parent", "tag-name")
        },
    ),
    "grep": Spec(
        operands="data",
        options={"-O": "code", "--open-files-in-pager": "code"},
        values=opts("-e", "-f", "-A", "-B", "-C", "-m", "--max-depth", "--threads"),
    ),
    "archive": Spec(
        operands="data",
        values=opts("--prefix", "--format", "--add-virtual-file"),
        options={
            "-o": "write",
            "--output": "write",
            "--add-file": "read",
            "--exec": "code",  # the program git-upload-archive is run as, on --remote
            "--remote": "path",  # a local path is a repository read
        },
    ),
    "format-patch": Spec(
        operands="data",
        values=opts(
            "-v",
            "--reroll-count",
            "--subject-prefix",
            "--in-reply-to",
            "--to",
            "--cc",
            "--from",
            "--base",
            "--range-diff",
            "--interdiff",
            "--add-header",
            "--suffix",
            "--start-number",
            "--filename-max-length",
            "--creation-factor",
        ),
        options={
            "-o": "write",
            "--output-directory": "write",
            "--output": "write",
            "--signature-file": "read",
            "--description-file": "read",
        },
    ),
    "clone": Spec(
        operands="write",
        first="path",
        last="write",
        values=opts(
            "-b",
            "--branch",
            "-o",
            "--origin",
            "--depth",
            "--filter",
            "--shallow-since",
            "--shallow-exclude",
            "-j",
            "--jobs",
            "--bundle-uri",
            "--server-option",
            "--ref-format",
            "--revision",
        ),
        options={
            "--template": "execute",  # hooks copied from there run later
            "--reference": "read",
            "--reference-if-able": "read",
            "--separate-git-dir": "write",
            "-c": "git-config",
            "--config": "git-config",
            "-u": "code",
            "--upload-pack": "code",
        },
    ),
    "init": Spec(
        operands="write",
        values=opts("-b", "--initial-branch", "--object-format", "--ref-format"),
        options={"--template": "execute", "--separate-git-dir": "write"},
    ),
    "worktree": Spec(
        operands="write",
        first="data",
        values=opts("-b", "-B", "--reason"),
    ),
    "bundle": Spec(operands="data", values=opts("--version")),
    "rebase": GIT_OTHER._replace(
        options={**GIT_OTHER.options, "-x": "code", "--exec": "code"},
        values=GIT_OTHER.values | {"--onto", "-s", "--strategy", "-X", "--strategy-option"},
    ),
    "difftool": GIT_OTHER._replace(
        options={**GIT_OTHER.options, "-x": "code", "--extcmd": "code"},
        values=GIT_OTHER.values | {"-t", "--tool"},
    ),
    "apply": Spec(
        operands="read",
        values=opts("-p", "-C", "--directory", "--exclude", "--include", "--whitespace"),
        text=opts("--exclude", "--include", "--whitespace"),
        flags={"--unsafe-paths": "file-list"},  # the patch may name files outside the tree
    ),
    "submodule": Spec(
        operands="path",  # submodule add URL PATH: a local URL is a repository read
        values=opts("-b", "--branch", "--name", "--reference"),
        text=opts("-b", "--branch", "--name"),
    ),
    "bisect": Spec(operands="data"),
    # the repository may be a path (`git fetch ../other`); what follows it are refspecs
    # (`+refs/heads/*:refs/remotes/origin/*`), patterns of refs, not of files
    "fetch": _REMOTE_REFS._replace(options={**GIT_OTHER.options, "--upload-pack": "code"}),
    "pull": _REMOTE_REFS._replace(options={**GIT_OTHER.options, "--upload-pack": "code"}),
    "ls-remote": _REMOTE_REFS._replace(options={**GIT_OTHER.options, "--upload-pack": "code"}),
    "push": _REMOTE_REFS._replace(
        options={
            **GIT_OTHER.options,
            "--receive-pack": "code",
            "--exec": "code",
            "-o": "data",
            "--push-option": "data",
        }
    ),
    "config": Spec(operands="data", values=opts("--type", "--default", "--comment")),
}


# `git config` options that change the file written, and ones that only read.
GIT_CONFIG_READS = frozenset(
    {
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--get-color",
        "--get-colorbool",
        "-l",
        "--list",
        "--name-only",
        "--show-origin",
        "--show-scope",
        "get",
        "list",
    }
)


# `git -c KEY=VALUE`: keys whose values are commands git runs (an alias starting with `!` too).
GIT_CODE_KEYS = re.compile(
    r"^(core\.(sshcommand|pager|editor|fsmonitor|hookspath|askpass)|sequence\.editor|"
    r"diff\..*\.(command|textconv)|diff\.external|merge\..*\.driver|filter\..*\.(clean|smudge|"
    r"process)|credential\.helper|gpg\.program|gpg\..*\.program|pager\..*|alias\..*|"
    r"uploadpack\.packobjectshook|remote\..*\.(uploadpack|receivepack|proxy)|"
    r"protocol\..*|url\..*|include\.path|includeif\..*|(diff|merge)tool\..*\.cmd|"
    r"credential\..*\.helper|imap\.tunnel|interactive\.difffilter|submodule\..*\.update|"
    r"core\.alternaterefscommand|sendemail\..*|web\.browser|browser\..*\.(cmd|path))$",
    re.IGNORECASE,
)


# git settings known to name no file and run nothing; every other key (`commit.template`,
# `core.worktree`, `remote.x.url`, `tar.x.command`, `man.x.cmd` …) can, so it asks.
GIT_HARMLESS_KEYS = re.compile(
    r"^(user\.(name|email|useconfigonly)|author\.(name|email)|committer\.(name|email)|"
    r"color\..*|column\..*|advice\..*|init\.defaultbranch|"
    r"core\.(autocrlf|eol|filemode|ignorecase|quotepath|safecrlf|whitespace|abbrev|symlinks|"
    r"precomposeunicode|longpaths|compression|bigfilethreshold|checkstat|trustctime|"
    r"untrackedcache|preloadindex|commentchar|commentstring|logallrefupdates)|"
    r"pull\.(rebase|ff|twohead|octopus)|push\.(default|autosetupremote|followtags|"
    r"usebitmaps|recursesubmodules)|fetch\.(prune|prunetags|parallel|writecommitgraph|"
    r"recursesubmodules)|rebase\.(autosquash|autostash|updaterefs|stat|abbreviatecommands)|"
    r"merge\.(ff|conflictstyle|log|stat|autostash|renames|renamelimit)|"
    r"diff\.(algorithm|renames|renamelimit|colormoved|colormovedws|mnemonicprefix|noprefix|"
    r"context|interhunkcontext|indentheuristic|submodule|statgraphwidth|relative)|"
    r"log\.(date|decorate|abbrevcommit|follow|showroot|showsignature|mailmap)|"
    r"format\.(pretty|numbered|signoff|coverletter|thread)|branch\.(autosetupmerge|"
    r"autosetuprebase|sort)|branch\.[^.]+\.(remote|merge|rebase|description)|tag\.sort|"
    r"status\.(short|branch|showuntrackedfiles|submodulesummary|showstash|relativepaths)|"
    r"commit\.(verbose|status|cleanup)|help\.(autocorrect|format)|"
    r"rerere\.(enabled|autoupdate)|gc\.(auto|autodetach|autopacklimit|pruneexpire|reflogexpire)|"
    r"http\.(postbuffer|lowspeedlimit|lowspeedtime|version)|protocol\.version|"
    r"pack\.(threads|windowmemory)|index\.(version|threads)|feature\.(manyfiles|experimental)|"
    r"blame\.(date|coloring|showemail|blankboundary)|grep\.(linenumber|patterntype|"
    r"extendedregexp|column|fullname)|am\.(threeway|keepcr)|apply\.whitespace|"
    r"worktree\.guessremote|clone\.defaultremotename|submodule\.recurse|"
    r"checkout\.(defaultremote|workers)|i18n\.(commitencoding|logoutputencoding)|"
    r"versionsort\.suffix|safe\.bareRepository)$",
    re.IGNORECASE,
)


_GIT_VALUES = (
    GIT_GLOBAL_VALUES
    | spec_values(GIT_OTHER, *GIT_SUBCOMMANDS.values())
    | opts("-c", "-C", "--source", "-s", "--pathspec-from-file", "--conflict", "--orphan")
) - opts("-f", "-F", "-d", "-D", "-S", "-W", "-x", "-n", "-u", "-p")

_FORCE = ("-f", "--force")

_GIT_FORCE_PUSH = (
    "-f",
    "--force",
    "--mirror",
    "--prune",
)

_GIT_TOOL = Tool(
    global_first=True,
    values=_GIT_VALUES,
    abbreviations=True,
    effects=(
        E("publish", "email", "sends commits as email to the addresses given", sub=("send-email",)),
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
            "checkout-index -f overwrites files with their uncommitted changes",
            sub=("checkout-index",),
            flags=_FORCE,
        ),
        E(
            "discard",
            "git-worktree",
            "read-tree -u --reset overwrites the worktree's uncommitted changes",
            sub=("read-tree",),
            flags=("-u+--reset",),
        ),
        E(
            "discard",
            "git-worktree",
            "submodule deinit -f removes submodules with their uncommitted changes",
            sub=("submodule", "deinit"),
            flags=_FORCE,
        ),
        E(
            "discard",
            "git-history",
            "prune deletes every unreachable commit at once",
            sub=("prune",),
            without=("-n", "--dry-run"),
        ),
        E(
            "discard",
            "git-tag",
            "deletes or moves a tag, losing what it named (tags keep no reflog)",
            sub=("tag",),
            flags=("-d", "--delete", "-f", "--force"),
        ),
        E(
            "discard",
            "git-branch",
            "deletes a ref, and where it pointed",
            sub=("update-ref|symbolic-ref",),
            flags=("-d", "--delete"),
        ),
        E(
            "discard",
            "git-worktree",
            "rm -f deletes files with their uncommitted changes",
            sub=("rm",),
            flags=_FORCE,
            without=("-n", "--dry-run"),
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
            "fetch into a local branch by force moves it, losing where it pointed",
            sub=("fetch",),
            check="git-fetch-force",
            without=("-n", "--dry-run"),
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

COMMANDS: dict[str, Command] = {
    "git": Command(
        corners=frozenset({"git-transports"}),
        stdin_file_list=frozenset({"--stdin-paths"}),
        # what git's credential helpers hand out (`git credential fill`): the stored passwords
        # and tokens (the store's file; a helper of the system's keychain answers the same);
        # git's rows are read a word at a time (wordwise_tools._git): the subcommand alone
        home=home_files(
            ".git-credentials",
            "read",
            *(("credential",), ("credential-store",), ("credential-cache",)),
        ),
        spec=GIT,
        effects=_GIT_TOOL,
        own_rows="git's rows name what loses work (git rm and git reset keep what is committed)",
        arity=arity(
            2,
            ("remote", 3),
            ("stash", 3),
            ("submodule", 3),
            ("worktree", 3),
            ("filter-branch", EXACT),
        ),
    ),
    "hg": Command(spec=Spec(operands="path", options={"--config": "tool-setting", "-R": "chdir"})),
    "svn": Command(spec=Spec(operands="path", options={"--config-option": "tool-setting"})),
    "gh": Command(
        home=(
            *home_files(
                ".config/gh", "write", ("auth", "login"), ("auth", "refresh"), ("config", "set")
            ),
            HomeFile(".gitconfig", "write", ("auth", "setup-git")),
            HomeFile(".config/gh/hosts.yml", "read", ("auth", "token")),
        ),
        effects=Tool(
            values=opts(
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
                "--visibility",
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
                E(
                    "destroy",
                    "github",
                    "sends a GraphQL mutation that deletes or removes",
                    sub=("api", "graphql"),
                    check="graphql-destroys",
                ),
                E(
                    "publish",
                    "github",
                    "makes a repository public",
                    sub=("repo", "edit|create"),
                    check="made-public",
                ),
                E(
                    "remote",
                    "github",
                    "runs a workflow on GitHub's machines (a deploy, a release …)",
                    sub=("workflow|run", "run|rerun"),
                ),
            ),
        ),
        subcommands=True,
        arity=arity(3),
    ),
    "glab": Command(subcommands=True),
}
