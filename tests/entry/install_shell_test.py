"""`guard install-shell`: a launcher named bash that starts guarded-bash; nothing else touched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guard.entry.shim.launcher import c_string, native_source

BIN = Path(sys.executable).parent
GUARD = str(BIN / "guard")
HAVE_CC = shutil.which("cc") is not None
needs_cc = pytest.mark.skipif(not HAVE_CC, reason="no C compiler here")


def install(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [GUARD, "install-shell", *args], capture_output=True, text=True, timeout=120, check=False
    )


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, capture_output=True, text=True, cwd=cwd, timeout=60, check=False,
        start_new_session=True,
    )  # fmt: skip


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    workspace = tmp_path / "work"
    workspace.mkdir()
    monkeypatch.setenv("GUARD_WORKSPACE", str(workspace))
    return workspace


@pytest.mark.parametrize(
    ("flags", "kind"),
    [pytest.param([], "native", marks=needs_cc), (["--script"], "script")],
)
def test_the_launcher_named_bash_runs_allowed_lines_and_refuses_the_rest(
    flags: list[str], kind: str, tmp_path: Path, work: Path
) -> None:
    done = install("--dir", str(tmp_path / "bin"), *flags)
    assert done.returncode == 0, done.stderr
    launcher = tmp_path / "bin" / "bash"
    assert launcher.read_bytes().startswith(b"#!/bin/sh") == (kind == "script")
    ok = run([str(launcher), "-c", 'echo "ran $1"', "_", "here"], work)
    assert (ok.returncode, ok.stdout) == (0, "ran here\n")
    refused = run([str(launcher), "-c", "touch ../marker"], work)
    assert refused.returncode == 126
    assert refused.stderr.startswith("guard: ")
    assert not (tmp_path / "marker").exists()


@pytest.mark.parametrize(
    ("flags", "login"),
    [pytest.param([], "login\n", marks=needs_cc), (["--script"], "not login\n")],
)
def test_only_the_native_launcher_keeps_a_login_dash_in_argv0(
    flags: list[str], login: str, tmp_path: Path, work: Path
) -> None:
    assert install("--dir", str(tmp_path / "bin"), *flags).returncode == 0
    probe = "shopt -q login_shell && echo login || echo not login"
    line = f"exec -a -bash {tmp_path / 'bin' / 'bash'} -c '{probe}'"
    assert run(["/bin/bash", "-c", line], work).stdout == login


def test_it_prints_the_lines_to_run_and_edits_no_system_file(tmp_path: Path) -> None:
    shells = Path("/etc/shells")
    before = shells.read_bytes() if shells.exists() else None
    done = install("--dir", str(tmp_path / "bin"))
    target = tmp_path / "bin" / "bash"
    assert done.returncode == 0
    assert f"echo {target} | sudo tee -a /etc/shells" in done.stdout
    assert f"chsh -s {target}" in done.stdout
    assert "zsh" in done.stdout  # says that no zsh launcher was written, and why
    assert not (tmp_path / "bin" / "zsh").exists()
    assert (shells.read_bytes() if shells.exists() else None) == before


def test_a_file_of_someone_else_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    other = tmp_path / "bin" / "bash"
    other.write_text("#!/bin/sh\necho mine\n")
    done = install("--dir", str(tmp_path / "bin"))
    assert done.returncode == 1
    assert done.stderr.startswith("guard: ") and "not a guard launcher" in done.stderr
    assert other.read_text() == "#!/bin/sh\necho mine\n"


def test_installing_again_replaces_its_own_launcher(tmp_path: Path) -> None:
    assert install("--dir", str(tmp_path / "bin"), "--script").returncode == 0
    again = install("--dir", str(tmp_path / "bin"))
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in (tmp_path / "bin").iterdir()) == ["bash"]


def test_the_directory_can_be_named_without_dir(tmp_path: Path) -> None:
    done = install(str(tmp_path / "bin"), "--script")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "bin" / "bash").read_bytes().startswith(b"#!/bin/sh")
    same = install(str(tmp_path / "bin"), "--dir", str(tmp_path / "bin"), "--script")
    assert same.returncode == 0, same.stderr
    both = install(str(tmp_path / "one"), "--dir", str(tmp_path / "two"))
    assert both.returncode == 1
    assert both.stderr == (f"guard: two directories given ({tmp_path / 'one'} and --dir "
                           f"{tmp_path / 'two'}); name one\n")  # fmt: skip
    assert not (tmp_path / "one").exists() and not (tmp_path / "two").exists()


def test_without_dir_it_goes_to_guards_data_dir(tmp_path: Path) -> None:
    assert install().returncode == 0
    assert (Path(os.environ["XDG_DATA_HOME"]) / "guard" / "bin" / "bash").is_file()


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ("/usr/bin/guarded-bash", '"/usr/bin/guarded-bash"'),
        ('a"b\\c??=', r'"a\042b\134c\077\077="'),
        ("/ü", r'"/\303\274"'),
    ],
)
def test_a_path_becomes_a_c_string_literal(text: str, literal: str) -> None:
    assert c_string(text) == literal


@needs_cc
def test_the_launcher_starts_guarded_bash_at_any_path(tmp_path: Path, work: Path) -> None:
    odd = tmp_path / 'we"ird \\ dir ü??='
    odd.mkdir()
    (odd / "guarded-bash").symlink_to(BIN / "guarded-bash")
    (tmp_path / "launcher.c").write_text(native_source(str(odd / "guarded-bash")))
    subprocess.run(
        ["cc", "-o", str(tmp_path / "bash"), str(tmp_path / "launcher.c")], check=True, timeout=120
    )
    done = run(["/bin/bash", "-c", f"exec -a -bash {tmp_path / 'bash'} -c 'echo $0'"], work)
    assert (done.returncode, done.stdout) == (0, "-bash\n")


@needs_cc
def test_the_native_launcher_keeps_python_settings_away_from_guard_and_gives_them_to_bash(
    tmp_path: Path, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red-team finding: a sitecustomize.py on PYTHONPATH ran inside guard and could approve
    anything. The launcher moves PYTHON* aside for guard's Python; the bash it starts has them."""
    evil = tmp_path / "evil"
    evil.mkdir()
    imported = tmp_path / "imported"
    (evil / "sitecustomize.py").write_text(
        f"import os\nopen({str(imported)!r}, 'w').close()\nos._exit(0)\n"
    )
    assert install("--dir", str(tmp_path / "bin")).returncode == 0
    launcher = str(tmp_path / "bin" / "bash")
    monkeypatch.setenv("PYTHONPATH", str(evil))
    refused = run([launcher, "-c", "touch ../marker"], work)
    assert refused.returncode == 126
    assert not (tmp_path / "marker").exists() and not imported.exists()
    ok = run([launcher, "-c", 'echo "$PYTHONPATH"'], work)
    assert (ok.returncode, ok.stdout) == (0, f"{evil}\n")
