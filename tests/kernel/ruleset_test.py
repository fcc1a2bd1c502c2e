"""The ruleset model: what an enforced line may read and write, from literals (no kernel)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from guard.kernel.ruleset import (
    DEVICES,
    SYSTEM_DIRS,
    Grant,
    Ruleset,
    approved_accesses,
    build_ruleset,
)
from guard.projection.requests import Decided, Request

HOME = "/home/u"
# a small machine: directory -> children; files are leaves
TREE: dict[str, tuple[str, ...]] = {
    "/home/u": (".ssh", ".bashrc", ".config", "src", ".cache", "notes.txt", ".bash_history", "ln"),
    "/home/u/.config": ("gcloud", "nvim", "guard"),
    "/home/u/.config/gcloud": ("credentials.db",),
    "/home/u/.ssh": ("id_ed25519", "config"),
    "/home/u/src": ("app", "lib"),
    "/home/u/src/app": ("main.py",),
    "/home/u/.cache": ("pip",),
    "/opt": ("tool",),
    "/opt/tool": ("bin",),
    "/tmp": (),
}
LINKS = {"/home/u/ln": "/home/u/.ssh"}
PROTECTED = ("~/.ssh", "~/.config/gcloud/**", "~/.*_history", "~/.bashrc", "~/.config/guard")


def exists(path: str) -> bool:
    parent = path.rsplit("/", 1)[0] or "/"
    return path in TREE or path == "/" or path.rsplit("/", 1)[1] in TREE.get(parent, ())


def build(**kwargs: object) -> Ruleset:
    given: dict[str, object] = {
        "roots": ("/home/u/src/app",),
        "home": HOME,
        "tmp": "/tmp",
        "caches": ("/home/u/.cache", "~/.npm"),
        "extra_writes": ("~/.m2",),
        "protected": PROTECTED,
        "children": TREE.get,
        "exists": exists,
        "resolve": lambda p: LINKS.get(p, p),
        "system": ("/usr", "/opt"),
    }
    given.update(kwargs)
    return build_ruleset(**given)  # type: ignore[arg-type]


def effective(ruleset: Ruleset, path: str) -> str | None:
    """What the kernel would let the line do at `path`: the grants on it and its parents add up."""
    found = {g.access for g in ruleset.grants if path == g.path or path.startswith(g.path + "/")}
    return "write" if "write" in found else "read" if found else None


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/home/u/src/app", "write"),  # the workspace
        ("/tmp", "write"),  # the temp dir
        ("/home/u/.cache", "write"),  # a cache
        ("/dev/null", "write"),
        ("/dev/pts", "write"),
        ("/opt", "read"),  # a system dir
        ("/home/u/src", "read"),  # home, child by child
        ("/home/u/src/lib", "read"),
        ("/home/u/.config/nvim", "read"),  # a directory that holds a protected one is split
        ("/home/u/notes.txt", "read"),
        ("/home/u/.bashrc", "read"),  # protected, yet bash -l reads it: never written
        ("/home/u/.ssh", None),  # protected: no right at all
        ("/home/u/.ssh/id_ed25519", None),
        ("/home/u/.config/gcloud", None),
        ("/home/u/.bash_history", None),  # a glob in the last component
        ("/home/u/ln", None),  # a symlink to a protected directory
        ("/home/u", None),  # home itself holds protected paths: only its children
        ("/home/u/.config", None),
        ("/home/u/.config/guard", None),  # guard's own config: protected
    ],
)
def test_what_a_line_may_touch_without_any_approval(path: str, expected: str | None) -> None:
    assert effective(build(), path) == expected


def test_protected_paths_are_reported_as_withheld() -> None:
    ruleset = build()
    for path in ("/home/u/.ssh", "/home/u/.config/gcloud", "/home/u/.bash_history"):
        assert path in ruleset.withheld
    assert "/home/u/.m2" in ruleset.missing  # the policy's cache that does not exist: said so
    assert "/home/u/.npm" not in ruleset.missing  # a default one the user does not use: quiet


@pytest.mark.parametrize(
    ("reads", "writes", "path", "expected"),
    [
        ([("/home/u/.ssh/config", "cat")], [], "/home/u/.ssh/config", "read"),  # named: granted
        ([("/home/u/.ssh/config", "cat")], [], "/home/u/.ssh/id_ed25519", None),  # its sibling
        ([("/home/u", "ls")], [], "/home/u/.ssh", None),  # home named: its protected parts not
        ([], [("/opt/tool/out.txt", "redirect")], "/opt/tool", "write"),  # new file: its dir
        ([], [("/opt/tool/bin", "cp")], "/opt/tool/bin", "write"),
        ([], [("/opt/tool/bin", "cp")], "/opt/tool", "read"),  # only what was approved
        ([], [("/home/u/new.txt", "tee")], "/home/u", None),  # home itself: never for a new file
        ([], [("/home/u/.bashrc", "tee")], "/home/u/.bashrc", "write"),  # the human named it
    ],
)
def test_approved_paths_are_granted_as_named(
    reads: Sequence[tuple[str, str]], writes: Sequence[tuple[str, str]], path: str, expected: str
) -> None:
    assert effective(build(reads=reads, writes=writes), path) == expected


def test_a_new_file_that_would_need_all_of_home_is_not_granted_and_says_so() -> None:
    ruleset = build(writes=[("/home/u/new.txt", "tee")])
    assert "/home/u/new.txt" in ruleset.missing
    assert not any(g.access == "write" and g.path.startswith("/home/u/") and
                   g.why.startswith("approved") for g in ruleset.grants)  # fmt: skip


@pytest.mark.parametrize(
    "pattern", [".git/hooks/**", "**/.env", "~/**/id_rsa", "/srv/*/**/secret"]
)
def test_patterns_the_kernel_cannot_hold_are_left_to_the_static_check(pattern: str) -> None:
    ruleset = build(protected=(*PROTECTED, pattern))
    assert pattern in ruleset.static_only


def test_the_workspace_is_written_whole_and_the_system_read() -> None:
    ruleset = build(system=SYSTEM_DIRS)
    assert Grant("/home/u/src/app", "write", "workspace") in ruleset.grants
    assert {g.path for g in ruleset.grants if g.why == "device"} == set(DEVICES)
    assert all(g.access == "read" for g in ruleset.grants if g.why == "system")


def test_a_directory_that_cannot_be_listed_is_withheld_whole() -> None:
    tree = dict(TREE)
    del tree["/home/u/.config"]  # listing fails: its children are unknown
    ruleset = build(children=tree.get)
    assert "/home/u/.config" in ruleset.withheld
    assert not any(g.path.startswith("/home/u/.config") for g in ruleset.grants)


def request(path: str, access: str, via: str = "cat") -> Decided:
    r = Request("external_directory", (0, 1), "", path=path, access=access, via=via)  # type: ignore[arg-type]
    return Decided(r, "allow", "approval #1")


def test_an_allowed_lines_outside_paths_are_its_approved_reads_and_writes() -> None:
    decided = [
        request("/etc/hosts", "read"),
        request("/srv/out.txt", "write", "redirect"),
        request("/opt/tool/bin/run", "execute"),
        request("/home/u/src/app/x", "write"),  # in the workspace: granted anyway
        Decided(Request("command", (0, 1), "", argv=("cat",)), "allow", "default"),
    ]
    reads, writes = approved_accesses(decided, ("/home/u/src/app",))
    assert reads == [("/etc/hosts", "cat"), ("/opt/tool/bin/run", "cat")]
    assert writes == [("/srv/out.txt", "redirect")]


def test_a_line_that_is_not_enforced_never_loads_the_syscall_layer(tmp_path: Path) -> None:
    """ctypes (and guard.kernel.landlock) cost a fresh process milliseconds: only enforcing loads
    it."""
    code = (
        "import sys\n"
        "from guard.kernel import line_hold as enforcer\n"
        "from guard.verdict.judgement import judge\n"
        f"j = judge('make', cwd={str(tmp_path)!r}, use_store=False)\n"
        "print(enforcer.plan(j, {'GUARD_ENFORCE': 'off'},"
        " agent=True).mode)\n"
        "print(sorted(m for m in ('ctypes', '_ctypes', 'guard.kernel.landlock')"
        " if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "off\n[]\n"


def test_a_kept_ruleset_is_built_again_when_a_directory_it_listed_changes(tmp_path: Path) -> None:
    """The resident checker keeps rulesets between lines: a new entry in home (a directory the
    cover lists, since home holds protected paths) must be granted on the very next line."""
    import os

    from guard.kernel.line_hold import ruleset_for
    from guard.verdict.judgement import judge

    home = Path(os.environ["HOME"])
    (home / ".ssh").mkdir()
    (home / "notes").mkdir()
    ws = tmp_path / "ws"
    ws.mkdir()
    env = {**os.environ, "GUARD_AGENT": "1"}

    def granted() -> set[str]:
        result = judge("true", cwd=str(ws), env=env, session=None, agent=True)
        # home's only: the temp dir's entries come and go with other processes' files
        return {g.path for g in ruleset_for(result, env).grants if g.path.startswith(str(home))}

    first = granted()
    assert str(home / "notes") in first and str(home / ".ssh") not in first
    assert granted() == first  # unchanged: the kept one
    (home / "later").mkdir()
    assert str(home / "later") in granted()


def test_the_version_managers_directories_are_granted_narrowly() -> None:
    """Each tool's own shims or state, where its variable moves it too; a variable that names
    home, above it, `/` or a system directory opens none of them."""
    from guard.kernel.ruleset import tool_state_dirs

    home = "/home/me"
    found = tool_state_dirs({"PYENV_ROOT": "/opt/pyenv"}, home)
    assert "/home/me/.pyenv/shims" in found and "/opt/pyenv/shims" in found
    assert "/home/me/.local/state/mise" in found
    for wide in ("/home/me", "/home", "/", "/usr", "relative/dir"):
        assert tool_state_dirs({"MISE_STATE_DIR": wide}, home) == tool_state_dirs({}, home)
    assert not any(p in ("/", "/home", home) or not p.startswith("/") for p in found)
