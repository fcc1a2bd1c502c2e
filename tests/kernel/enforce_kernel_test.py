"""Lines under enforcement, on the real kernel: real guarded-bash processes, real Landlock.

Each run starts in a new session with stdin from /dev/null, as agents run commands: with no
controlling terminal the session counts as an agent's, so enforcement is on by default. The
workspace, the temp dir and the outside directory are separate directories of the test's own;
HOME is the test's home (tests/conftest.py). Skipped, with the kernel's reason, where there is
no Landlock.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pexpect
import pytest

from guard.verdict.store.store import Store

BIN = Path(sys.executable).parent
SHIM = str(BIN / "guarded-bash")


def _landlock() -> str:
    from guard.kernel.landlock import abi_version

    found = abi_version()
    return "" if isinstance(found, int) else found


NO_LANDLOCK = _landlock()
kernel = pytest.mark.skipif(bool(NO_LANDLOCK), reason=f"no Landlock here: {NO_LANDLOCK}")

MISREAD = """#!/bin/sh
# the projection sees `./helper.sh`; what it does inside is nobody's reading
echo pwned >> "$HOME/.bashrc"
cat "$HOME/.ssh/id_ed25519"
echo done
"""


@pytest.fixture
def ws(tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setenv("GUARD_WORKSPACE", str(workspace))
    monkeypatch.setenv("GUARD_SESSION", "enforce-test")
    monkeypatch.delenv("BASH_ENV", raising=False)
    monkeypatch.setenv("PATH", f"{BIN}:{os.environ['PATH']}")
    Path(os.environ["XDG_CACHE_HOME"]).mkdir(parents=True, exist_ok=True)
    (isolated_home / ".bashrc").write_text("# mine\n")
    (isolated_home / ".ssh").mkdir()
    (isolated_home / ".ssh" / "id_ed25519").write_text("PRIVATE KEY\n")
    helper = workspace / "helper.sh"
    helper.write_text(MISREAD)
    helper.chmod(0o755)
    return workspace


def run(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SHIM, *args], cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True,
        stdin=subprocess.DEVNULL, start_new_session=True, timeout=120, check=False,
    )  # fmt: skip


def policy(text: str) -> None:
    path = Path(os.environ["GUARD_CONFIG"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@kernel
def test_an_allowed_line_runs_and_writes_in_the_workspace(ws: Path) -> None:
    done = run("-c", "echo made > out.txt && cat out.txt && mktemp", cwd=ws)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("made\n")  # and the temp dir is writable (mktemp)
    assert (ws / "out.txt").read_text() == "made\n"
    assert '"enforce": "landlock abi' in audit_detail()  # the audit row says it ran enforced


def audit_detail() -> str:
    """The newest audit row's detail; guarded-bash writes it from a child while bash runs."""
    deadline = time.monotonic() + 20
    while True:
        with Store.open() as store:
            rows = store.log(limit=1)
        if rows or time.monotonic() > deadline:
            return rows[0].detail if rows else ""
        time.sleep(0.05)


@kernel
def test_a_misread_line_is_held_by_the_kernel_and_touches_nothing(
    ws: Path, isolated_home: Path
) -> None:
    done = run("-c", "./helper.sh", cwd=ws)
    assert f"{isolated_home}/.bashrc: Permission denied" in done.stderr
    assert f"{isolated_home}/.ssh/id_ed25519: Permission denied" in done.stderr
    assert "PRIVATE KEY" not in done.stdout
    assert done.stdout == "done\n"  # what it may do still runs
    assert (isolated_home / ".bashrc").read_text() == "# mine\n"


@kernel
@pytest.mark.parametrize(
    "body",
    [
        'ln -s "$HOME/.bashrc" link && echo x >> link',  # through a symlink in the workspace
        'ln "$HOME/.bashrc" hard && echo x >> hard',  # a hard link into the workspace
        'mv "$HOME/.bashrc" moved',  # moving it away
        'cp "$HOME/.ssh/id_ed25519" stolen',  # copying a secret into the workspace
        'python3 -c "import os; open(os.path.expanduser(\'~/.bashrc\'), \'a\').write(\'x\')"',
        'f=$(printf "%s/.%s" "$HOME" bashrc); echo x > "$f"',  # a path built at run time
        'cd "$HOME" && echo x >> .profile',  # a start-up file from inside home
        'touch "$HOME/new-file"',  # home itself is not writable
    ],
)
def test_other_routes_to_protected_files_are_held_as_well(
    ws: Path, isolated_home: Path, body: str
) -> None:
    (isolated_home / ".profile").write_text("# profile\n")
    (ws / "route.sh").write_text(f"#!/bin/sh\n{body}\n")
    (ws / "route.sh").chmod(0o755)
    done = run("-c", "./route.sh", cwd=ws)
    assert done.returncode != 0
    assert (isolated_home / ".bashrc").read_text() == "# mine\n"
    assert (isolated_home / ".profile").read_text() == "# profile\n"
    assert not (isolated_home / "new-file").exists()
    assert not (ws / "stolen").exists() or (ws / "stolen").read_text() == ""


def test_without_enforcement_the_same_line_would_have_reached_them(
    ws: Path, isolated_home: Path
) -> None:
    done = run("-c", "./helper.sh", cwd=ws, GUARD_ENFORCE="off")
    assert "PRIVATE KEY" in done.stdout
    assert (isolated_home / ".bashrc").read_text() == "# mine\npwned\n"


@kernel
def test_a_script_run_by_file_is_held_too(ws: Path, isolated_home: Path) -> None:
    (ws / "build.sh").write_text("./helper.sh\necho built > built.txt\n")
    done = run("build.sh", cwd=ws)
    assert "Permission denied" in done.stderr
    assert (ws / "built.txt").read_text() == "built\n"
    assert (isolated_home / ".bashrc").read_text() == "# mine\n"


@kernel
def test_an_approved_outside_write_succeeds_and_nothing_beside_it(
    ws: Path, tmp_path: Path
) -> None:
    outside, other = tmp_path / "outside", tmp_path / "other"
    outside.mkdir()
    other.mkdir()
    with Store.open() as store:
        store.grant(
            session="enforce-test", scope="session", surface="external_directory",
            pattern=f"{outside}/**", access="write", granted_by="human", command="",
            now=time.time(),
        )  # fmt: skip
    (ws / "also.sh").write_text(f"#!/bin/sh\necho sneaky > {other}/x\n")
    (ws / "also.sh").chmod(0o755)
    done = run("-c", f"echo report > {outside}/report.txt; ./also.sh", cwd=ws)
    assert (outside / "report.txt").read_text() == "report\n"
    assert f"{other}/x: Permission denied" in done.stderr
    assert not (other / "x").exists()


@kernel
def test_a_venv_in_the_workspace_installs_a_local_package_with_pip(ws: Path) -> None:
    wheel = ws / "dist" / "localpkg-1.0-py3-none-any.whl"
    wheel.parent.mkdir()
    info = "localpkg-1.0.dist-info"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("localpkg/__init__.py", "VALUE = 42\n")
        z.writestr(f"{info}/METADATA", "Metadata-Version: 2.1\nName: localpkg\nVersion: 1.0\n")
        z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                   "Tag: py3-none-any\n")  # fmt: skip
        z.writestr(f"{info}/RECORD", "")
    line = (
        "python -m venv .venv && .venv/bin/python -m pip install -q --no-index "
        "--disable-pip-version-check --find-links dist localpkg && "
        ".venv/bin/python -c 'import localpkg; print(localpkg.VALUE)'"
    )
    done = run("-c", line, cwd=ws)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "42"


@kernel
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_npm_installs_a_local_package(ws: Path) -> None:
    pkg = ws / "localpkg"
    pkg.mkdir()
    (pkg / "package.json").write_text('{"name": "localpkg", "version": "1.0.0"}\n')
    (pkg / "index.js").write_text("module.exports = 42;\n")
    line = (
        "npm init -y >/dev/null && npm install --offline --no-audit --no-fund ./localpkg "
        '>/dev/null && node -e "console.log(require(\'localpkg\'))"'
    )
    done = run("-c", line, cwd=ws)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "42"


def _cargo_env() -> dict[str, str] | None:
    """What cargo needs with the test's HOME: the machine's toolchain (rustup's home) to read."""
    cargo = shutil.which("cargo")
    if cargo is None:
        return None
    import pwd

    real_home = pwd.getpwuid(os.getuid()).pw_dir
    rustup = os.environ.get("RUSTUP_HOME") or os.path.join(real_home, ".rustup")
    env = {"RUSTUP_HOME": rustup}
    ok = subprocess.run([cargo, "--version"], env={**os.environ, **env}, capture_output=True)
    if ok.returncode != 0:
        return None
    return {**env, "CARGO_BIN": os.path.dirname(os.path.realpath(cargo))}


@kernel
@pytest.mark.skipif(_cargo_env() is None, reason="no working cargo here")
def test_cargo_builds_a_crate_in_the_workspace(ws: Path) -> None:
    env = _cargo_env()
    assert env is not None
    policy(f'[enforce]\nread = ["{env["RUSTUP_HOME"]}", "{env.pop("CARGO_BIN")}"]\n')
    line = "cargo new --vcs none -q hello && cd hello && cargo build --offline -q && "
    line += "./target/debug/hello"
    done = run("-c", line, cwd=ws, **env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Hello, world!"


@kernel
@pytest.mark.pty
@pytest.mark.parametrize(("agent", "held"), [("", False), ("1", True)])
def test_at_a_terminal_a_person_runs_unheld_unless_the_session_is_an_agents(
    ws: Path, isolated_home: Path, agent: str, held: bool
) -> None:
    child = pexpect.spawn(
        SHIM, ["-c", "./helper.sh"], cwd=str(ws), encoding="utf-8", timeout=60,
        env={**os.environ, "TERM": "dumb", "GUARD_AGENT": agent},
    )  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    assert ("Permission denied" in str(child.before)) == held
    assert ((isolated_home / ".bashrc").read_text() == "# mine\n") == held


@kernel
def test_explain_enforce_prints_the_ruleset_the_line_would_run_under(ws: Path) -> None:
    done = subprocess.run(
        [str(BIN / "guard"), "explain", "--enforce", "--", "make"], cwd=ws, capture_output=True,
        text=True, check=False, stdin=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "mode here: landlock, for agents: landlock" in done.stdout
    assert f"  write  {ws}   [workspace]" in done.stdout
    withheld = next(ln for ln in done.stdout.splitlines() if "withheld (protected):" in ln)
    assert "~/.ssh" in withheld.split(": ", 1)[1].split(", ")


@kernel
def test_a_guarded_bash_inside_an_enforced_line_reads_its_policy_and_is_held_too(
    ws: Path, isolated_home: Path
) -> None:
    policy('[enforce]\nmode = "landlock"\n')  # a policy file outside home and the workspace
    done = run("-c", "guarded-bash -c 'echo nested > n.txt; ./helper.sh'", cwd=ws)
    assert (ws / "n.txt").read_text() == "nested\n", done.stderr
    assert "policy problem" not in done.stderr
    assert f"{isolated_home}/.bashrc: Permission denied" in done.stderr
    assert (isolated_home / ".bashrc").read_text() == "# mine\n"


@kernel
def test_a_line_nested_sixteen_enforced_lines_deep_is_held_by_those_above(
    ws: Path, isolated_home: Path
) -> None:
    """Landlock stacks at most 16 layers; a nested guarded-bash past that runs held by the
    rulesets of the lines it runs inside, not refused."""
    code = (
        "import os, sys\n"
        "from guard.kernel import landlock\n"
        "handled = landlock.handled_rights(landlock.abi_version())\n"
        "for _ in range(16):\n"
        "    fd = landlock.create_ruleset(handled)\n"
        "    landlock.add_rule(fd, '/', handled, handled)\n"
        "    landlock.restrict_self(fd)\n"
        "os.execv(sys.argv[1], sys.argv[1:])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, SHIM, "-c", "echo deep > out.txt"], cwd=ws,
        capture_output=True, text=True, stdin=subprocess.DEVNULL, start_new_session=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (ws / "out.txt").read_text() == "deep\n"


BLOCKED = [sys.executable, str(Path(__file__).parents[1] / "no_landlock.py")]  # as a container


def _seccomp() -> str:
    if sys.platform != "linux":
        return "seccomp is Linux's"
    done = subprocess.run([*BLOCKED, "/bin/true"], capture_output=True, text=True, check=False)
    return "" if done.returncode == 0 else f"cannot install a seccomp filter: {done.stderr}"


NO_SECCOMP = _seccomp()


@pytest.mark.skipif(bool(NO_SECCOMP), reason=NO_SECCOMP)
def test_where_landlock_is_blocked_required_enforcement_refuses_and_nothing_runs(
    ws: Path,
) -> None:
    done = subprocess.run(
        [*BLOCKED, SHIM, "-c", "touch ran"], cwd=ws, capture_output=True, text=True,
        env={**os.environ, "GUARD_ENFORCE": "require"}, stdin=subprocess.DEVNULL,
        start_new_session=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 126
    assert done.stderr.startswith("guard: enforcement is required, but the kernel says it has no")
    assert not (ws / "ran").exists()


@pytest.mark.skipif(bool(NO_SECCOMP), reason=NO_SECCOMP)
def test_where_landlock_is_blocked_lines_run_checked_and_doctor_says_why(
    ws: Path, isolated_home: Path
) -> None:
    done = subprocess.run(
        [*BLOCKED, SHIM, "-c", "./helper.sh"], cwd=ws, capture_output=True, text=True,
        stdin=subprocess.DEVNULL, start_new_session=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "PRIVATE KEY" in done.stdout  # checked, not held: the honest difference
    assert '"enforce": "unavailable: the kernel says it has no Landlock' in audit_detail()
    doctor = subprocess.run(
        [*BLOCKED, str(BIN / "guard"), "doctor"], cwd=ws, capture_output=True, text=True,
        stdin=subprocess.DEVNULL, start_new_session=True, timeout=120, check=False,
    )  # fmt: skip
    assert "warning  enforce enforcement unavailable: the kernel says it has no Landlock" in (
        doctor.stdout
    )


@pytest.mark.parametrize(
    ("mode", "found", "level", "says"),
    [
        (None, (7, ""), "ok", "Landlock ABI 7"),
        (None, (None, "this kernel has no Landlock"), "warning", "enforcement unavailable: this"),
        ("require", (None, "no Landlock"), "problem", "required but unavailable: no Landlock"),
    ],
)
def test_doctor_says_whether_lines_can_be_held_here(
    mode: str | None, found: tuple[int | None, str], level: str, says: str
) -> None:
    from guard.kernel.line_hold import status
    from guard.policy.files import load_policy

    if mode:
        policy(f'[enforce]\nmode = "{mode}"\n')
    got_level, message = status(load_policy(None), {}, found)
    assert (got_level, says in message) == (level, True)
