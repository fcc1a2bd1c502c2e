"""guard installs without a checkout: `python -m build` makes the sdist and, from the sdist, the
wheel; the wheel goes into a fresh venv (not editable) and works from there — `guard doctor`,
a line guarded-bash allows and one it refuses, the shell hook, the launcher's C source.

The fresh venv gets guard from the wheel only; its dependencies (tree-sitter and the bash
grammar, prompt-toolkit, platformdirs) are borrowed from this test's own environment through a
path file, so the test needs no network and runs in seconds. That `guard` is the wheel's is
asserted, and so are the dependencies the wheel declares.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "guard", "scripts")
DEPENDENCIES = {"tree-sitter", "tree-sitter-bash", "prompt-toolkit", "platformdirs"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Path]]:
    """The sdist and the wheel, built from a copy of the sources, and the copy."""
    base = tmp_path_factory.mktemp("build")
    source = base / "src"
    source.mkdir()
    for name in SOURCES:
        there = ROOT / name
        if there.is_dir():
            shutil.copytree(there, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(there, source / name)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(base / "dist"),
         str(source)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (sdist,) = (base / "dist").glob("guard_shell-*.tar.gz")
    (wheel,) = (base / "dist").glob("guard_shell-*.whl")
    yield sdist, wheel, source


@pytest.fixture(scope="module")
def venv(built: tuple[Path, Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed (no editable install, no checkout on its path)."""
    _sdist, wheel, _source = built
    where = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True,
                   timeout=120)  # fmt: skip
    python = where / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                           "'purelib'))"], capture_output=True, text=True, check=True,
                          timeout=60).stdout.strip()  # fmt: skip
    ours = sysconfig.get_path("purelib")  # the dependencies, not guard: see the module's note
    Path(site, "borrowed-dependencies.pth").write_text(ours + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-index", "--quiet", str(wheel)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return where


def run(venv: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    program, *rest = argv
    return subprocess.run([str(venv / "bin" / program), *rest], cwd=cwd, capture_output=True,
                          text=True, timeout=120, check=False, stdin=subprocess.DEVNULL,
                          start_new_session=True)  # fmt: skip


def test_the_wheel_is_built_from_the_sdist_with_every_file_guard_ships(
    built: tuple[Path, Path, Path],
) -> None:
    sdist, wheel, source = built
    shipped = sorted(
        str(p.relative_to(source)) for p in (source / "guard").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )  # fmt: skip
    assert {"guard/default-policy.toml", "guard/launcher.c", "guard/launcher_resident.c",
            "guard/shell-hooks/guard.bash", "guard/shell-hooks/guard.zsh"} <= set(shipped)
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        metadata = next(z.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert [n for n in shipped if n not in names] == []
    version = wheel.name.split("-")[1]
    scripts = {f"guard_shell-{version}.data/scripts/{s}" for s in ("guard", "guarded-bash")}
    assert scripts <= names
    required = {line.split()[1].split(">")[0].split("=")[0].lower()
                for line in metadata.splitlines() if line.startswith("Requires-Dist:")
                and "extra ==" not in line}  # fmt: skip
    assert required == DEPENDENCIES
    with tarfile.open(sdist) as t:
        in_sdist = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    assert [n for n in shipped if n not in in_sdist] == []
    assert {"scripts/guard", "scripts/guarded-bash", "pyproject.toml", "README.md"} <= in_sdist


def test_guard_works_from_the_installed_wheel(venv: Path, tmp_path: Path) -> None:
    project = tmp_path / "app"
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    where = run(venv, "python", "-c", "import guard; print(guard.__file__)", cwd=project)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout
    assert (venv / "bin" / "guard").read_text().startswith(f"#!{venv}/bin/python")
    assert run(venv, "guard", "--version", cwd=project).stdout.startswith("guard ")
    doctor = run(venv, "guard", "doctor", cwd=project)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "ok       policy  files in effect: guard/default-policy.toml" in doctor.stdout
    assert f"ok       space   workspace {project} (the git worktree root)" in doctor.stdout
    ran = run(venv, "guarded-bash", "-c", 'echo "ran $1"', "_", "here", cwd=project)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, "ran here\n", "")
    refused = run(venv, "guarded-bash", "-c", "cat /etc/hosts > /dev/null", cwd=project)
    assert refused.returncode == 126
    assert refused.stderr.startswith("guard: denied `cat /etc/hosts > /dev/null` (read "
                                     "/etc/hosts (cat) is outside the workspace)")  # fmt: skip
    hook = run(venv, "guard", "init", "bash", cwd=project).stdout
    assert f"__guard_bin={venv}/bin/guard\n" in hook


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler here")
def test_the_installed_wheel_compiles_its_launcher(venv: Path, tmp_path: Path) -> None:
    done = run(venv, "guard", "install-shell", str(tmp_path / "bin"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "a native launcher" in done.stdout
    native = subprocess.run([str(tmp_path / "bin" / "bash"), "-c", "echo native"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "GUARD_WORKSPACE": str(tmp_path)},
                              start_new_session=True)  # fmt: skip
    assert (native.returncode, native.stdout) == (0, "native\n")
