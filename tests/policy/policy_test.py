"""Policy files: where they are read from, how they layer, and every mistake `check` reports."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from guard.policy.files import check_policy_file, load_policy, render_policy, user_policy_path
from guard.policy.parse import RULE_KEYS, TOP_KEYS
from guard.policy.rules import DEFAULT_SOURCE, Rule
from guard.projection.requests import SURFACES

REPO = Path(__file__).resolve().parents[2]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


@pytest.fixture
def user_file() -> Path:
    return Path(os.environ["GUARD_CONFIG"])


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


def own_rules(rules: tuple[Rule, ...]) -> list[tuple[str, str, str]]:
    """The rules that do not come from the shipped default, as (surface, pattern, action)."""
    return [(r.surface, r.pattern, r.action) for r in rules if r.source != DEFAULT_SOURCE]


# -- where the files are -------------------------------------------------------------------


def test_the_shipped_default_loads_without_problems(isolated_home: Path) -> None:
    policy = load_policy(None, home=str(isolated_home))
    assert policy.problems == ()
    assert policy.files == (DEFAULT_SOURCE,)
    assert policy.defaults == {
        "command": "allow",
        "external_directory": "ask",
        "dynamic": "ask",
        "syntax": "ask",
        "protected": "ask",
        "effect": "ask",
    }
    assert all(r.source == DEFAULT_SOURCE and r.line > 0 for r in policy.rules)


def test_the_user_file_is_guard_config_when_set(user_file: Path) -> None:
    assert user_policy_path() == str(user_file)


def test_without_guard_config_the_user_file_is_in_the_user_config_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("GUARD_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    if sys.platform.startswith("linux"):
        assert user_policy_path() == str(tmp_path / "cfg" / "guard" / "policy.toml")
    assert user_policy_path().endswith(os.path.join("guard", "policy.toml"))


def test_missing_user_and_project_files_are_no_problem(workspace: Path) -> None:
    policy = load_policy(str(workspace))
    assert policy.problems == ()
    assert policy.files == (DEFAULT_SOURCE,)


def test_files_layer_default_then_user_then_project_in_file_order(
    user_file: Path, workspace: Path, isolated_home: Path
) -> None:
    write(user_file, """
        [[rules]]
        surface = "command"
        pattern = "make *"
        action = "ask"

        [[rules]]
        surface = "command"
        pattern = "npm *"
        action = "deny"
    """)
    write(workspace / ".guard.toml", """
        [[rules]]
        surface = "command"
        pattern = "make *"
        action = "allow"
    """)
    policy = load_policy(str(workspace), home=str(isolated_home))
    assert own_rules(policy.rules) == [
        ("command", "make *", "ask"),
        ("command", "npm *", "deny"),
        ("command", "make *", "allow"),
    ]
    assert policy.rules[0].source == DEFAULT_SOURCE
    assert policy.files == (DEFAULT_SOURCE, str(user_file), str(workspace / ".guard.toml"))


def test_a_file_under_home_is_named_with_a_tilde(isolated_home: Path) -> None:
    path = write(isolated_home / ".config" / "guard" / "policy.toml", """
        [[rules]]
        surface = "command"
        pattern = "x"
        action = "ask"
    """)
    policy = load_policy(None, home=str(isolated_home), user_file=str(path))
    assert policy.rules[-1].source == "~/.config/guard/policy.toml"
    assert policy.rules[-1].line == 1


def test_the_last_file_that_sets_a_default_wins_with_its_source(
    user_file: Path, workspace: Path
) -> None:
    write(user_file, """
        [defaults]
        command = "ask"
        syntax = "deny"
    """)
    write(workspace / ".guard.toml", """
        # the project is trusted with commands
        [defaults]
        command = "allow"
    """)
    policy = load_policy(str(workspace))
    assert policy.defaults["command"] == "allow"
    assert policy.default_sources["command"] == f"{workspace}/.guard.toml:3"
    assert policy.defaults["syntax"] == "deny"
    assert policy.default_sources["syntax"] == f"{user_file}:3"
    assert policy.default_sources["dynamic"] == f"{DEFAULT_SOURCE}:19"


def test_workspace_roots_expand_home_and_project_relative_paths(
    user_file: Path, workspace: Path, isolated_home: Path
) -> None:
    write(user_file, """
        [workspace]
        roots = ["~/src/shared-lib", "/opt/data/"]
    """)
    write(workspace / ".guard.toml", """
        [workspace]
        roots = ["../sibling", "~"]
    """)
    policy = load_policy(str(workspace), home=str(isolated_home))
    assert policy.roots == (
        f"{isolated_home}/src/shared-lib",
        "/opt/data",
        str(workspace.parent / "sibling"),
        str(isolated_home),
    )
    assert policy.root_sources[0] == f"{user_file}:2"


def test_relative_path_patterns_in_the_project_file_are_relative_to_the_workspace(
    workspace: Path,
) -> None:
    write(workspace / ".guard.toml", """
        [[rules]]
        surface = "external_directory"
        pattern = "../shared/**"
        action = "allow"
    """)
    policy = load_policy(str(workspace))
    shared = f"{workspace.parent}/shared/**"
    assert own_rules(policy.rules) == [("external_directory", shared, "allow")]
    assert policy.problems == ()


def test_access_and_role_filters_are_kept_as_tuples(user_file: Path) -> None:
    write(user_file, """
        [[rules]]
        surface = "external_directory"
        pattern = "/srv/**"
        access = "read"
        action = "allow"
        reason = "shared data"

        [[rules]]
        surface = "dynamic"
        pattern = "$EDITOR"
        role = ["command_name", "path"]
        action = "allow"
    """)
    first, second = load_policy(None).rules[-2:]
    assert (first.access, first.role, first.reason, first.line) == (("read",), (), "shared data", 1)
    assert (second.access, second.role, second.line) == ((), ("command_name", "path"), 8)


def test_an_untrusted_project_file_may_only_tighten(workspace: Path) -> None:
    write(workspace / ".guard.toml", """
        [defaults]
        external_directory = "allow"
        dynamic = "deny"

        [workspace]
        roots = ["/"]

        [[rules]]
        surface = "command"
        pattern = "*"
        action = "allow"

        [[rules]]
        surface = "command"
        pattern = "curl *"
        action = "deny"
    """)
    trusted = load_policy(str(workspace))
    untrusted = load_policy(str(workspace), trust_project=False)
    assert trusted.defaults["external_directory"] == "allow"
    assert trusted.roots == ("/",)
    assert untrusted.defaults["external_directory"] == "ask"
    assert untrusted.defaults["dynamic"] == "deny"
    assert untrusted.roots == ()
    assert own_rules(untrusted.rules) == [("command", "curl *", "deny")]
    assert len(untrusted.ignored) == 3
    assert all("not trusted" in item for item in untrusted.ignored)


# -- problems ------------------------------------------------------------------------------


def test_a_broken_file_keeps_its_valid_parts_and_reports_the_rest(user_file: Path) -> None:
    write(user_file, """
        [[rules]]
        surface = "command"
        pattern = "curl *"
        action = "deny"

        [[rules]]
        surface = "command"
        pattern = "wget *"
        action = "alow"
    """)
    policy = load_policy(None)
    assert own_rules(policy.rules) == [("command", "curl *", "deny")]
    assert policy.problems == (f'{user_file}:9: unknown action "alow"; write one of allow, ask, '
                               'deny (did you mean "allow"?)',)  # fmt: skip


def test_a_policy_file_that_is_a_directory_is_a_problem(user_file: Path) -> None:
    user_file.mkdir(parents=True)
    (problem,) = load_policy(None).problems
    assert problem.startswith(f"{user_file}: is a directory")


def test_a_policy_file_that_is_not_utf8_is_a_problem(user_file: Path) -> None:
    user_file.parent.mkdir(parents=True)
    user_file.write_bytes(b"[defaults]\ncommand = \"\xff\"\n")
    assert load_policy(None).problems == (f"{user_file}: not UTF-8 text; save it as UTF-8",)


CHILD = """
import sys
from guard.policy.files import load_policy
print(load_policy(None, user_file=sys.argv[1]).problems)
"""


def test_a_policy_file_nobody_may_read_is_a_problem(user_file: Path) -> None:
    write(user_file, '[defaults]\ncommand = "allow"\n').chmod(0o000)
    prefix: list[str] = []
    if os.geteuid() == 0:  # root reads anything unless it drops the powers that let it
        if shutil.which("setpriv") is None:
            pytest.skip("setpriv is needed to drop root's file capabilities")
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]
    done = subprocess.run(
        [*prefix, sys.executable, "-c", CHILD, str(user_file)],
        capture_output=True, text=True, cwd="/", timeout=60, check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert done.stderr == ""
    assert f"{user_file}: cannot read (Permission denied); fix its permissions" in done.stdout


CHECKS = [
    ("[[rules]\nsurface = 1\n", 1, "not valid TOML ("),
    ('[defaults]\ncommand = "allow"\ncommand = "ask"\n', 3, "not valid TOML ("),
    ('[defaults]\ncommand = "allow', 2, "not valid TOML ("),
    ('rule = "x"\n', 1,
     f'unknown key "rule"; write one of {", ".join(TOP_KEYS)} (did you mean "rules"?)'),
    ('[default]\ncommand = "ask"\n', 1,
     f'unknown key "default"; write one of {", ".join(TOP_KEYS)} (did you mean "defaults"?)'),
    ('[[rules]]\nsurface = "command"\npattern = "x"\naction = "ask"\nactoin = "ask"\n', 5,
     f'unknown key "actoin" in a rule; write one of {", ".join(RULE_KEYS)} '
     '(did you mean "action"?)'),
    ('[[rules]]\npattern = "x"\naction = "ask"\n', 1,
     'rule has no surface; add surface = "command"'),
    ('[[rules]]\nsurface = "command"\naction = "ask"\n', 1,
     'rule has no pattern; add pattern = "git push *"'),
    ('\n[[rules]]\nsurface = "command"\npattern = "x"\n', 2,
     'rule has no action; add action = "ask"'),
    ('[[rules]]\nsurface = "commands"\npattern = "x"\naction = "ask"\n', 2,
     f'unknown surface "commands"; write one of {", ".join(SURFACES)} '
     '(did you mean "command"?)'),
    ('[[rules]]\nsurface = "command"\npattern = "x"\naction = "alow"\n', 4,
     'unknown action "alow"; write one of allow, ask, deny (did you mean "allow"?)'),
    ('[[rules]]\nsurface = "command"\npattern = "x"\naction = "ask"\naccess = "read"\n', 5,
     'access only applies to surface "external_directory" or "protected"; remove it or '
     'change the surface'),
    ('[[rules]]\nsurface = "syntax"\npattern = "x"\naction = "ask"\nrole = "code"\n', 5,
     'role only applies to surface "dynamic"; remove it or change the surface'),
    ('[[rules]]\nsurface = "external_directory"\npattern = "/x"\naction = "ask"\n'
     'access = ["read", "exec"]\n', 5,
     'unknown access "exec"; write one of read, write, execute, chdir (did you mean "execute"?)'),
    ('[[rules]]\nsurface = "external_directory"\npattern = "/x"\naction = "ask"\naccess = []\n',
     5, 'access must be a string or a non-empty list of strings, not a list; '
     'write access = ["read"]'),
    ('[[rules]]\nsurface = "dynamic"\npattern = "x"\naction = "ask"\nrole = "cmd"\n', 5,
     'unknown role "cmd"; write one of command_name, path, redirect, code, chdir, data'),
    ('[[rules]]\nsurface = "command"\npattern = ["x"]\naction = "ask"\n', 3,
     'pattern must be a string, not a list; write pattern = "git push *"'),
    ('[[rules]]\nsurface = "command"\npattern = "x"\naction = true\n', 4,
     'action must be a string, not true/false; write action = "ask"'),
    ('[[rules]]\nsurface = "command"\npattern = "x"\naction = "ask"\nreason = 3\n', 5,
     'reason must be a string, not a number; write reason = "why"'),
    ('[[rules]]\nsurface = "command"\npattern = "  "\naction = "ask"\n', 3,
     'empty pattern; write a pattern, or "*" to match everything'),
    ('[[rules]]\nsurface = "external_directory"\npattern = "tmp/**"\naction = "allow"\n', 3,
     'path pattern "tmp/**" is relative; write an absolute path or one starting with ~/'),
    ('rules = "x"\n', 1, "rules must be tables; write each under a [[rules]] header"),
    ('[defaults]\ncommand = "ask"\n[rules]\nsurface = "command"\n', 3,
     "rules must be tables; write each under a [[rules]] header"),
    ('[workspace]\nroots = "~/lib"\n', 2,
     'workspace.roots must be a list of paths; write roots = ["~/src/lib"]'),
    ('[workspace]\nroots = ["lib"]\n', 2, 'workspace root "lib" is relative; write an absolute'),
    ('[workspace]\nroot = ["/lib"]\n', 2, 'unknown key "root" in [workspace]; write "roots"'),
    ('defaults = 3\n', 1, "defaults must be a table; write [defaults]"),
    ('[defaults]\ncommands = "ask"\n', 2,
     f'unknown surface "commands" in [defaults]; write one of {", ".join(SURFACES)} '
     '(did you mean "command"?)'),
    ('[defaults]\n\ncommand = "alow"\n', 3,
     'unknown action "alow"; write one of allow, ask, deny (did you mean "allow"?)'),
    ('[defaults]\ncommand = 1\n', 2,
     'command must be a string, not a number; write command = "ask"'),
]  # fmt: skip


@pytest.mark.parametrize(("text", "line", "message"), CHECKS)
def test_check_reports_each_mistake_with_its_line_and_what_to_write(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(text)
    (problem,) = check_policy_file(str(path))
    assert problem.startswith(f"{path}:{line}: {message}")


def test_check_finds_the_line_of_the_right_rule(tmp_path: Path) -> None:
    path = write(tmp_path / "policy.toml", """
        [defaults]
        command = "allow"   # line 2

        [[rules]]           # line 4
        surface = "command"
        pattern = "git *"
        action = "ask"

        [[rules]]           # line 9
        surface = "command"
        pattern = "make *"
        "action" = "alow"   # line 12

        [[rules]]           # line 14
        surface = "command"
        action = "deny"
    """)
    assert check_policy_file(str(path)) == [
        f'{path}:12: unknown action "alow"; write one of allow, ask, deny (did you mean "allow"?)',
        f'{path}:14: rule has no pattern; add pattern = "git push *"',
    ]


def test_check_of_a_clean_file_says_nothing(tmp_path: Path) -> None:
    path = write(tmp_path / "policy.toml", """
        [defaults]
        external_directory = "allow"
        [workspace]
        roots = ["~/lib"]
        [[rules]]
        surface = "external_directory"
        pattern = "~/.ssh/**"
        access = ["read", "write"]
        action = "deny"
    """)
    assert check_policy_file(str(path)) == []


def test_check_treats_a_guard_toml_as_a_project_file(tmp_path: Path) -> None:
    text = '[[rules]]\nsurface = "external_directory"\npattern = "build/**"\naction = "allow"\n'
    assert check_policy_file(str(write(tmp_path / ".guard.toml", text))) == []
    assert len(check_policy_file(str(write(tmp_path / "policy.toml", text)))) == 1


def test_check_of_a_missing_file_says_so(tmp_path: Path) -> None:
    assert check_policy_file(str(tmp_path / "nope.toml")) == [
        f"{tmp_path}/nope.toml: no such file; check the path"
    ]


def test_the_shipped_default_passes_check() -> None:
    assert check_policy_file(str(REPO / "guard" / "default-policy.toml")) == []


# -- show ----------------------------------------------------------------------------------


def test_show_lists_each_rule_and_default_with_where_it_came_from(
    user_file: Path, workspace: Path
) -> None:
    write(user_file, """
        [defaults]
        dynamic = "deny"

        [[rules]]
        surface = "external_directory"
        pattern = "/srv/**"
        access = "read"
        action = "allow"
        reason = "shared data"
    """)
    write(workspace / ".guard.toml", '[workspace]\nroots = ["../lib"]\n[[rules]]\nbogus = 1\n')
    shown = render_policy(load_policy(str(workspace)))
    assert f"  dynamic              deny   {user_file}:2\n" in shown
    assert f"  command              allow  {DEFAULT_SOURCE}:13\n" in shown
    assert f"    allow  /srv/** [read] — shared data  ([user] {user_file}:4)\n" in shown
    assert f"  [project] {workspace}/.guard.toml\n" in shown
    assert f"    allow  publish:git-remote  ([default] {DEFAULT_SOURCE}:" in shown
    assert f"  {workspace.parent}/lib  ({workspace}/.guard.toml:2)\n" in shown
    assert f"problems:\n  {workspace}/.guard.toml:4: unknown key \"bogus\"" in shown
    assert "everything that would be allowed asks instead" in shown


HOT_PATH = """
import sys
from guard.verdict.decision import decide
from guard.policy.files import load_policy
load_policy(None)
print(sorted(m for m in ("platformdirs", "prompt_toolkit", "difflib", "json") if m in sys.modules))
"""


def test_loading_a_valid_policy_imports_nothing_it_does_not_need(user_file: Path) -> None:
    write(user_file, '[defaults]\ncommand = "allow"\n')
    done = subprocess.run(
        [sys.executable, "-c", HOT_PATH], capture_output=True, text=True, cwd="/", timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)}, check=False,
    )  # fmt: skip
    assert (done.stdout, done.stderr) == ("[]\n", "")
