"""Files and coreutils: commands that create, copy, move, link, change or remove files."""

from __future__ import annotations

from guard.knowledge.commands.command import EXACT, Command, HomeFile, arity, home_files
from guard.knowledge.commands.effect import E, Tool
from guard.knowledge.commands.spec import WRITE, Spec, opts

COPY = Spec(
    operands="read",
    last="write",
    values=opts("-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "-Z"),
    options={"-t": "write", "--target-directory": "write"},
)


# Executables in these directories are the system's own: running them by path is not an access.
SYSTEM_BIN_DIRS = (
    "/bin",
    "/sbin",
    "/usr/bin",
    "/usr/sbin",
    "/usr/local/bin",
    "/usr/local/sbin",
    "/usr/libexec",
    "/usr/lib/git-core",
    "/opt/homebrew/bin",
    "/usr/lib/openssh",
    "/usr/libexec/openssh",
    "/usr/lib/ssh",
)


# `test -f PATH`, `[[ -d PATH ]]`: operators whose operand is a path.
FILE_TEST_OPERATORS = frozenset(
    {
        "-e",
        "-f",
        "-d",
        "-r",
        "-w",
        "-x",
        "-s",
        "-L",
        "-h",
        "-p",
        "-S",
        "-b",
        "-c",
        "-g",
        "-u",
        "-k",
        "-O",
        "-G",
        "-N",
    }
)


# gpg's verbs are options: these change the keyring in ~/.gnupg, these print a secret key
_GPG_WRITES = (
    *("--import", "--recv-keys", "--receive-keys", "--fetch-keys", "--refresh-keys"),
    *("--gen-key", "--generate-key", "--full-generate-key", "--full-gen-key"),
    *("--quick-generate-key", "--quick-gen-key", "--edit-key", "--sign-key", "--lsign-key"),
    *("--delete-key", "--delete-keys", "--delete-secret-key", "--delete-secret-keys"),
    *("--import-ownertrust", "--update-trustdb"),
)
_GPG = Command(
    home=(
        *home_files(".gnupg", "write", *((option,) for option in _GPG_WRITES)),
        *home_files(".gnupg", "read", ("--export-secret-keys",), ("--export-secret-subkeys",)),
        # decrypting prints what the secret keys kept there open
        *home_files(".gnupg", "read", ("-d",), ("--decrypt",)),
    ),
    home_elsewhere=frozenset({"--homedir"}),
)
_PASS = Command(home=home_files(".password-store", "read", ("show",), ("otp",)))

COMMANDS: dict[str, Command] = {
    "setfacl": Command(metadata_only=True),
    "chattr": Command(metadata_only=True),
    "gpg": _GPG,
    "gpg2": _GPG,
    # password stores and keyrings: what prints a secret reads the store it is kept in
    "pass": _PASS,
    "gopass": _PASS,
    "security": Command(
        home=home_files(
            "Library/Keychains",
            "read",
            ("find-generic-password",),
            ("find-internet-password",),
            ("dump-keychain",),
        )
    ),
    # sops prints the secrets it decrypts with the keys kept there (age's, or gpg's)
    "sops": Command(
        home=home_files(
            ".config/sops", "read", ("-d",), ("--decrypt",), ("decrypt",), ("exec-env",)
        )
    ),
    "secret-tool": Command(home=(HomeFile(".local/share/keyrings", "read", ("lookup",)),)),
    "op": Command(home=home_files(".config/op", "read", ("read",), ("item", "get"))),
    "bw": Command(  # Bitwarden: items printed with their passwords
        home=home_files(".config/Bitwarden CLI", "read", ("get",), ("list",), ("export",))
    ),
    "keyring": Command(home=home_files(".local/share/keyrings", "read", ("get",))),
    "lpass": Command(home=home_files(".lpass", "read", ("show",), ("export",))),  # LastPass
    # ansible-vault prints (view) or writes out (decrypt) what its vault files keep
    "ansible-vault": Command(
        effects=Tool(
            values=opts("--vault-id", "--vault-password-file", "--output"),
            effects=(
                E(
                    "disclose",
                    "ansible-vault",
                    "decrypts the secrets of a vault file",
                    sub=("view|decrypt",),
                ),
            ),
        ),
        subcommands=True,
    ),
    # secret managers' CLIs: what prints the secrets reads the token they keep
    "doppler": Command(
        home=home_files(
            ".doppler", "read", ("secrets", ""), ("secrets", "get"), ("secrets", "download")
        )
    ),
    "infisical": Command(
        home=home_files(".infisical", "read", ("export",), ("secrets", ""), ("secrets", "get"))
    ),
    "xargs": Command(
        spec=Spec(
            kind="xargs",
            operands="command",
            values=opts(
                "-n",
                "-L",
                "-P",
                "-I",
                "-d",
                "-E",
                "-s",
                "--max-args",
                "--max-procs",
                "--delimiter",
            ),  # -i, -e, -l, --replace, --eof, --max-lines take a value only when attached
            options={"-a": "read", "--arg-file": "read"},
        ),
        arity=arity(EXACT),
    ),
    "tee": Command(spec=Spec(operands="write")),
    "touch": Command(
        metadata_only=True,
        spec=Spec(
            operands="write",
            values=opts("-d", "--date", "-t"),
            options={"-r": "read", "--reference": "read"},
        ),
        arity=arity(1),
    ),
    "mkdir": Command(
        spec=Spec(operands="write", values=opts("-m", "--mode", "-Z", "--context")), arity=arity(1)
    ),
    "rm": Command(
        spec=WRITE,
        effects=Tool(
            effects=(E("destroy", "files", "recursive delete", flags=("-r", "-R", "--recursive")),),
            abbreviations=True,
        ),
        arity=arity(EXACT),
    ),
    "rmdir": Command(spec=WRITE, arity=arity(EXACT)),
    "unlink": Command(spec=WRITE),
    "shred": Command(
        spec=WRITE,
        effects=Tool(effects=(E("destroy", "files", "shred destroys files beyond recovery"),)),
        arity=arity(EXACT),
    ),
    "mkfifo": Command(spec=WRITE),
    "mknod": Command(spec=WRITE),
    "sync": Command(spec=WRITE),
    "srm": Command(
        spec=WRITE,
        effects=Tool(
            effects=(E("destroy", "files", "srm destroys files beyond recovery", check="operands"),)
        ),
    ),
    "chmod": Command(
        metadata_only=True,
        spec=Spec(operands="write", first="data", options={"--reference": "read"}),
        effects=Tool(
            effects=(
                E(
                    "privilege",
                    "setuid",
                    "sets the setuid/setgid bit: the program runs as its owner",
                    check="chmod-setuid",
                ),
                E(
                    "destroy",
                    "file-modes",
                    "recursive permission change",
                    flags=("-R", "--recursive"),
                ),
            ),
            abbreviations=True,
        ),
        arity=arity(EXACT),
    ),
    "chown": Command(
        metadata_only=True,
        spec=Spec(operands="write", first="data", options={"--reference": "read"}),
        effects=Tool(
            effects=(
                E("destroy", "file-owners", "recursive owner change", flags=("-R", "--recursive")),
            ),
            abbreviations=True,
        ),
        arity=arity(EXACT),
    ),
    "chgrp": Command(
        metadata_only=True,
        spec=Spec(operands="write", first="data", options={"--reference": "read"}),
        effects=Tool(
            effects=(
                E("destroy", "file-owners", "recursive group change", flags=("-R", "--recursive")),
            ),
            abbreviations=True,
        ),
        arity=arity(EXACT),
    ),
    "truncate": Command(
        spec=Spec(
            operands="write",
            values=opts("-s", "--size"),
            options={"-r": "read", "--reference": "read"},
        ),
        effects=Tool(
            values=opts("-s", "--size", "-r", "--reference"),
            effects=(
                E(
                    "destroy",
                    "files",
                    "truncate cuts files to a size, losing what was past it",
                    check="operands",
                ),
            ),
        ),
        arity=arity(EXACT),
    ),
    "cp": Command(spec=COPY, arity=arity(1), builds=True),
    "mv": Command(spec=COPY, arity=arity(1), builds=True),
    "install": Command(spec=COPY, builds=True),
    "ln": Command(
        builds=True,
        spec=Spec(
            operands="read",
            last="write",
            options={"-t": "write", "--target-directory": "write"},
            values=opts("-S", "--suffix"),
        ),
        arity=arity(1),
    ),
    "patch": Command(
        spec=Spec(
            operands="write",
            values=opts("-p", "-F", "-V", "-z", "-B"),
            options={
                "-i": "read",
                "--input": "read",
                "-o": "write",
                "-d": "chdir",
                "--directory": "chdir",
            },
        )
    ),
    "dd": Command(
        spec=Spec(operands="data"),
        effects=Tool(
            effects=(
                E("destroy", "device", "dd overwrites a device raw", check="dd-device"),
                E("destroy", "files", "dd overwrites its output raw", check="dd-of"),
            )
        ),
        arity=arity(EXACT),
    ),
    "find": Command(
        names_only=True,
        spec=Spec(kind="find"),
        effects=Tool(
            effects=(
                E("destroy", "files", "find deletes the files it matches", check="find-delete"),
            )
        ),
        arity=arity(EXACT),
    ),
}


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
