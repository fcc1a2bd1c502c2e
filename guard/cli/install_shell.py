"""`guard install-shell [DIR]` (or `--dir DIR`): put a launcher named `bash` that starts
guarded-bash in DIR.

For agents that accept a shell only by the basename `bash` (Codex), for PATH-first use, and for a
login shell. The launcher is compiled from the C source shipped in the package when `cc` is
there (it keeps a login shell's `-` in argv[0]), else it is a `#!/bin/sh` script (which cannot).
It prints the `/etc/shells` and `chsh` lines to run and never edits a system file itself.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

from guard.cli import summary
from guard.entry import ARGV0_VAR, SNIFF_BYTES, is_guard_shim, native_source, script_text
from guard.errors import GuardError

NAME = "bash"
ZSH_NOTE = "zsh: no launcher written: guarded-bash does not speak zsh yet (bash only)."


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "install-shell",
        help=summary("install-shell"),
        description="Write DIR/bash, a launcher that starts guarded-bash with bash's own "
        "arguments: compiled from guard's C source when a C compiler (cc) is there (it keeps a "
        "login shell's leading - in argv[0]), else a #!/bin/sh script. It never replaces a file "
        "that is not its own, edits no system file, and prints the lines that would add it to "
        "/etc/shells and make it a login shell (chsh).",
    )
    p.add_argument(
        "directory",
        nargs="?",
        metavar="DIR",
        help="where to put it (default: bin in guard's data dir, ~/.local/share/guard/bin on "
        "Linux); --dir DIR is the same",
    )
    p.add_argument("--dir", help="where to put it, as DIR")
    p.add_argument(
        "--script",
        action="store_true",
        help="write the #!/bin/sh launcher even when a C compiler is there",
    )
    p.set_defaults(run=run, error_status=1)


def run(args: argparse.Namespace) -> int:
    if args.directory and args.dir and args.directory != args.dir:
        raise GuardError(
            f"guard: two directories given ({args.directory} and --dir {args.dir}); name one"
        )
    given = args.directory or args.dir
    directory = os.path.abspath(os.path.expanduser(given or default_dir()))
    target = guarded_bash()
    dest = os.path.join(directory, NAME)
    if os.path.lexists(dest) and not is_guard_shim(dest, own=target):
        raise GuardError(
            f"guard: {dest} exists and is not a guard launcher; nothing was written."
            " Choose another directory, or move that file away first"
        )
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise GuardError(
            f"guard: cannot create {directory} ({exc.strerror}); pick another directory"
        ) from None
    cc = None if args.script else shutil.which("cc")
    if cc:
        problem = install_native(dest, target, cc)
    else:
        problem = "asked for with --script" if args.script else "no C compiler (cc) found"
    if problem:
        install_script(dest, target)
    print(report(dest, target, problem))
    return 0


def default_dir() -> str:
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("guard"), "bin")


def guarded_bash() -> str:
    """The guarded-bash console script installed next to this `guard`."""
    import sysconfig

    places = (
        os.path.dirname(sys.argv[0]),
        sysconfig.get_path("scripts"),
        os.path.dirname(sys.executable),
    )
    for place in places:
        path = os.path.abspath(os.path.join(place, "guarded-bash"))
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise GuardError(
        "guard: cannot find the guarded-bash program next to guard; reinstall guard"
        " (pip install guard-shell), then run guard install-shell again"
    )


def install_native(dest: str, target: str, cc: str) -> str:
    """Compile the launcher into `dest` (atomically); "" when done, else why not. Linked
    statically where the system can (no dynamic loader: a third of a millisecond less on
    every line), and only when the mark that tells a guard launcher is where it is looked for;
    else linked as usual."""
    with tempfile.TemporaryDirectory(prefix="guard-launcher-") as tmp:
        source = os.path.join(tmp, "launcher.c")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(native_source(target))
        built = os.path.join(tmp, NAME)
        for flags in (["-static"], []):
            try:
                done = subprocess.run(
                    [cc, "-O2", *flags, "-o", built, source],
                    capture_output=True, text=True, check=False,
                )  # fmt: skip
            except OSError as exc:
                return f"{cc} could not run ({exc.strerror})"
            if done.returncode != 0:
                continue
            with open(built, "rb") as handle:
                data = handle.read()
            if not flags or ARGV0_VAR.encode() in data[:SNIFF_BYTES]:
                _place(dest, data)
                return ""
        first = (done.stderr.strip().splitlines() or ["no message"])[0]
        return f"{cc} failed: {first}"


def install_script(dest: str, target: str) -> None:
    _place(dest, script_text(target).encode())


def _place(dest: str, data: bytes) -> None:
    """Write `data` next to `dest`, mode 755, then rename it over `dest`: never half a file."""
    temp = f"{dest}.guard-{os.getpid()}"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o755)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(temp, 0o755)
        os.replace(temp, dest)
    except OSError as exc:
        if os.path.exists(temp):
            os.unlink(temp)
        raise GuardError(
            f"guard: cannot write {dest} ({exc.strerror}); pick another directory"
        ) from None


def report(dest: str, target: str, problem: str) -> str:
    q = shlex.quote(dest)
    if problem:
        kind = (
            f"a #!/bin/sh launcher ({problem}). It cannot see a login shell's '-' in argv[0]:"
            " started by sshd, login or su -, it runs as a non-login shell (no ~/.profile)."
            " Install a C compiler and run guard install-shell again to fix that"
        )
    else:
        kind = "a native launcher (keeps a login shell's argv[0])"
    listed = _listed_in_etc_shells(dest)
    lines = [
        f"guard: wrote {dest}: {kind}.",
        f"It starts {target}, which checks every command before the real bash runs it.",
        ZSH_NOTE,
        "",
        *(
            [f"To make it your login shell ({q} is already listed in /etc/shells), run:"]
            if listed
            else [
                "To make it your login shell, run (guard edits no system files itself):",
                f"  echo {q} | sudo tee -a /etc/shells",
            ]
        ),
        f"  chsh -s {q}",
        "For agents that run bash from PATH or take the shell from $SHELL:",
        f'  export PATH={shlex.quote(os.path.dirname(dest))}:"$PATH" SHELL={q}',
    ]
    return "\n".join(lines)


def _listed_in_etc_shells(path: str) -> bool:
    try:
        with open("/etc/shells", encoding="utf-8", errors="replace") as handle:
            return any(line.strip() == path for line in handle)
    except OSError:
        return False
