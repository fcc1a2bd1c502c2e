"""guarded-bash behaves as bash does for every argv it lets through: same $0, $@, login flag,
output and exit status, and the same first line and status when bash refuses the argv.

Each row runs twice with the same argv (argv[0] included): once the real bash, once guarded-bash
through the native launcher that `guard install-shell` builds (so a custom argv[0] such as
`-bash` reaches guarded-bash as bash would see it). Without a C compiler the rows run through
the console script, with its path as argv[0] for both.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BASH = "/bin/bash"
BIN = Path(sys.executable).parent
PROBE = (
    "printf '%s|' \"$0\" \"$#\" \"$@\"; shopt -q login_shell && printf L;"
    " shopt -qo posix && printf P; printf '\\n'; exit 0\n"
)

# argv with argv[0]; CMD is the probe, SCRIPT a file holding it (stdin holds it too)
ALLOWED: list[tuple[str, ...]] = [
    ("bash", "-c", "CMD"),
    ("bash", "-c", "CMD", "z", "a", "b c", ""),
    ("-bash", "-c", "CMD"),
    ("/opt/guarded-bash", "-c", "CMD", "", "x"),
    ("bash", "-lc", "CMD", "z"),
    ("bash", "-cl", "CMD"),
    ("bash", "-c", "-l", "CMD"),
    ("bash", "-l", "-c", "CMD"),
    ("bash", "--login", "-c", "CMD"),
    ("bash", "-login", "-c", "CMD"),
    ("bash", "--norc", "--noprofile", "-c", "CMD"),
    ("bash", "-o", "errexit", "-c", "CMD"),
    ("bash", "+O", "extglob", "-c", "CMD"),
    ("bash", "-oc", "errexit", "CMD", "z"),
    ("bash", "-co", "errexit", "CMD", "z"),
    ("bash", "+c", "CMD", "q"),
    ("bash", "-c", "-", "CMD", "q"),
    ("bash", "-c", "CMD", "--norc", "-x"),
    ("bash", "-ec", "CMD"),
    ("bash", "--posix", "-c", "CMD"),
    ("sh", "-c", "CMD"),
    ("bash", "-r", "-c", "CMD"),
    ("bash", "-c", "exit 7"),
    ("bash", "-ec", "false; echo not reached"),
    ("bash", "-c", "echo out; echo err >&2; exit 3"),
    ("bash", "SCRIPT", "a", "b"),
    ("bash", "-x", "SCRIPT", "-c"),
    ("bash", "--", "SCRIPT", "-c"),
    ("bash", "-l", "SCRIPT"),
    ("-bash", "SCRIPT"),
    ("bash",),
    ("-bash",),
    ("bash", "-"),
    ("bash", "-s", "a", "b"),
    ("bash", "-s", "--", "-c"),
    ("bash", "--version"),
]
REFUSED_BY_BASH: list[tuple[str, ...]] = [
    ("bash", "-c"),
    ("bash", "-c", "--norc", "CMD"),
    ("bash", "-ec"),
    ("bash", "-z"),
    ("bash", "-o", "bogus", "-c", "CMD"),
    ("bash", "-O", "bogus", "-c", "CMD"),
    ("bash", "--bogus"),
    ("bash", "+O", "-s", "x"),
    ("bash", "nonexistent-script"),
]


@pytest.fixture(scope="module")
def launcher(tmp_path_factory: pytest.TempPathFactory) -> str | None:
    if shutil.which("cc") is None:
        return None
    out = tmp_path_factory.mktemp("launcher")
    env = {**os.environ, "XDG_DATA_HOME": str(out)}
    subprocess.run(
        [str(BIN / "guard"), "install-shell", "--dir", str(out)],
        env=env, check=True, capture_output=True,
    )  # fmt: skip
    return str(out / "bash")


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    (work / "probe.sh").write_text(PROBE)
    monkeypatch.setenv("GUARD_WORKSPACE", str(work))
    for name in ("BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT"):
        monkeypatch.delenv(name, raising=False)
    return work


def run(executable: str, argv: list[str], cwd: Path) -> tuple[int, str, str]:
    done = subprocess.run(
        argv, executable=executable, input=PROBE, capture_output=True, text=True, cwd=cwd,
        timeout=60, check=False, start_new_session=True,
    )  # fmt: skip
    return done.returncode, done.stdout, done.stderr


def both(row: tuple[str, ...], launcher: str | None, work: Path) -> tuple[tuple, tuple]:
    argv = ["probe.sh" if a == "SCRIPT" else PROBE if a == "CMD" else a for a in row]
    shim = launcher
    if shim is None:  # the console script cannot see argv[0]: give bash the same one
        shim = str(BIN / "guarded-bash")
        argv[0] = shim
    return run(BASH, argv, work), run(shim, argv, work)


@pytest.mark.parametrize("row", ALLOWED, ids=" ".join)
def test_an_allowed_argv_runs_exactly_as_bash_would_run_it(
    row: tuple[str, ...], launcher: str | None, workspace: Path
) -> None:
    if launcher is None and row[0] != "bash":
        pytest.skip("a custom argv[0] needs the native launcher (no C compiler here)")
    real, guarded = both(row, launcher, workspace)
    if "SCRIPT" in row and "-x" in row:
        # a script runs as `. /dev/fd/N` of the checked copy (so a file swapped after the check
        # cannot run): bash -x shows that one extra line, and the script's lines one level down
        status, out, err = guarded
        err = err.replace("+ . /dev/fd/", "+ . ", 1)
        lines = err.splitlines(keepends=True)
        guarded = (status, out, "".join(ln[1:] if ln.startswith("++") else ln for ln in lines[1:]))
    assert guarded == real
    assert real != (0, "", "")  # a row that shows nothing would prove nothing


@pytest.mark.parametrize("row", REFUSED_BY_BASH, ids=" ".join)
def test_an_argv_bash_refuses_is_refused_with_the_same_message_and_status(
    row: tuple[str, ...], launcher: str | None, workspace: Path
) -> None:
    (real_status, real_out, real_err), (status, out, err) = both(row, launcher, workspace)
    assert (status, out) == (real_status, real_out)
    assert real_status != 0
    assert err.splitlines()[0] == real_err.splitlines()[0]


def test_a_login_shell_named_by_argv0_alone_reads_the_login_files(
    launcher: str | None, workspace: Path, isolated_home: Path
) -> None:
    if launcher is None:
        pytest.skip("needs the native launcher (no C compiler here)")
    (isolated_home / ".bash_profile").write_text("echo profile read\n")
    real, guarded = both(("-bash", "-c", "CMD"), launcher, workspace)
    assert guarded == real
    assert real[1].startswith("profile read\n")
    assert real[1].rstrip().endswith("L")
