"""The decision: shipped defaults, precedence between files, approvals, and a broken policy."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from guard.policy.files import load_policy
from guard.policy.rules import Policy, Rule
from guard.projection.requests import Access, DynamicRole, Projection, Request
from guard.verdict.decision import decide
from guard.verdict.store.schema import Approval

HOME = "/home/u"
WS = "/home/u/src/app"


def command(*argv: str) -> Request:
    return Request("command", (0, 1), "runs", argv=argv)


def path(where: str, access: Access = "read", via: str = "cat") -> Request:
    return Request("external_directory", (0, 1), "outside", path=where, access=access, via=via)


def dynamic(text: str, role: DynamicRole) -> Request:
    return Request("dynamic", (0, 1), "unknown", text=text, role=role)


def syntax(text: str) -> Request:
    return Request("syntax", (0, 1), "could not parse the line", text=text)


def line(*requests: Request) -> Projection:
    return Projection("…", WS, (WS,), requests)


def approval(id: int, surface: str, pattern: str, access: str | None = None) -> Approval:
    return Approval(id, "s1", "session", surface, pattern, access, "human", 0.0, "…")


def verdict_of(policy: Policy, *requests: Request, approvals: tuple[Approval, ...] = ()) -> str:
    return decide(policy, line(*requests), approvals, home=HOME).decision


def write(target: Path, text: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(textwrap.dedent(text).lstrip("\n"))


@pytest.fixture(scope="module")
def shipped() -> Policy:
    return load_policy(None, home=HOME, user_file="/nonexistent/policy.toml")


def effect(kind: str, target: str, reason: str, *argv: str) -> Request:
    return Request(
        "effect", (0, 1), reason, argv=argv, text=" ".join(argv), kind=kind, target=target
    )


def projected(argv: tuple[str, ...]) -> Projection:
    from guard.projection.line_projection import project
    from guard.projection.patterns import render_argv
    from guard.projection.shell_state import Context

    ctx = Context(cwd=WS, env={"HOME": HOME, "PATH": "/usr/bin:/bin"}, workspace=(WS,), home=HOME)
    return project(render_argv(argv), ctx)


FORCE_PUSH = effect(
    "discard", "git-remote", "force-push rewrites shared history", "git", "push", "-f"
)


# -- the shipped defaults ------------------------------------------------------------------

DESTRUCTIVE = [
    ("rm", "-r", "build"),
    ("rm", "-R", "build"),
    ("rm", "-rf", "build"),
    ("rm", "-fr", "build"),
    ("rm", "-Rf", "build"),
    ("rm", "-fR", "build"),
    ("rm", "-vrf", "build"),
    ("rm", "-f", "-r", "build"),
    ("rm", "build", "-rf"),
    ("rm", "--recursive", "build"),
    ("rm", "--rec", "build"),
    ("/bin/rm", "-rf", "/srv/old"),
    ("git", "push", "--force"),
    ("git", "push", "--force", "origin", "main"),
    ("git", "push", "origin", "main", "--force"),
    ("git", "push", "-f"),
    ("git", "push", "-uf", "origin", "main"),
    ("git", "push", "--force-with-lease"),
    ("git", "push", "--force-with-lease=main:abc", "origin"),
    ("git", "push", "origin", "+main"),
    ("git", "-C", "../other", "push", "--force"),
    ("git", "reset", "--hard"),
    ("git", "reset", "--hard", "HEAD~3"),
    ("git", "reset", "HEAD~3", "--hard"),
    ("git", "reset", "--ha"),
    ("git", "clean", "-f"),
    ("git", "clean", "-fd"),
    ("git", "clean", "-xdf"),
    ("git", "clean", "-d", "--force"),
    ("chmod", "-R", "755", "."),
    ("chmod", "-vR", "g+w", "dir"),
    ("chmod", "--recursive", "755", "."),
    ("chown", "-R", "me", "."),
    ("chown", "me:me", ".", "-R"),
    ("chown", "--recursive", "me", "."),
    ("dd", "if=/dev/zero", "of=/dev/loop0", "bs=1M"),
    ("dd", "of=disk.img"),
    ("mkfs", "/dev/loop0"),
    ("mkfs.ext4", "/dev/loop0p1"),
    ("/sbin/mkfs.vfat", "/dev/loop1"),
    ("shred", "secret.txt"),
    ("shred",),
    ("sudo", "apt", "install", "x"),
    ("sudo", "FOO=1", "git", "push", "--force"),
    ("su",),
    ("su", "-", "root"),
    ("doas", "reboot"),
]

EVERYDAY = [
    ("git", "status"),
    ("git", "push"),
    ("git", "push", "-u", "origin", "feature/fix"),
    ("git", "commit", "-m", "fix: force the refresh -f"),
    ("git", "reset", "HEAD~1"),
    ("git", "reset", "--soft", "HEAD~1"),
    ("git", "clean", "-n"),
    ("git", "log", "--format=%H"),
    ("ls",),
    ("ls", "-la"),
    ("cat", "src/x"),
    ("make",),
    ("make", "test"),
    ("npm", "test"),
    ("npm", "run", "build"),
    ("rm", "file.txt"),
    ("rm", "-f", "file.txt"),
    ("rm", "-f", "build/out.o"),
    ("rm", "-i", "a"),
    ("chmod", "+x", "script.sh"),
    ("chmod", "-x", "script.sh"),
    ("chmod", "-r", "script.sh"),
    ("chown", "me", "file"),
    ("dd", "if=/dev/urandom", "bs=16", "count=1"),
    ("pytest", "-x", "tests"),
    ("grep", "-r", "sudo", "."),
    ("echo", "su"),
]


@pytest.mark.parametrize("argv", DESTRUCTIVE, ids=" ".join)
def test_destructive_commands_ask_even_inside_the_workspace(
    shipped: Policy, argv: tuple[str, ...]
) -> None:
    result = decide(shipped, projected(argv), (), home=HOME)
    assert result.decision == "ask"
    asked = [d for d in result.decided if d.decision == "ask"]
    assert any(d.request.surface == "effect" and d.by == "default" for d in asked)


# the same commands on what cannot be lost: denied, whatever a human would answer
CATASTROPHIC = [
    ("/bin/rm", "-rf", "/"),
    ("dd", "if=/dev/zero", "of=/dev/sda", "bs=1M"),
    ("mkfs", "/dev/sdb1"),
    ("mkfs.ext4", "/dev/sdb1"),
    ("/sbin/mkfs.vfat", "/dev/sdc"),
]


@pytest.mark.parametrize("argv", CATASTROPHIC, ids=" ".join)
def test_destroying_the_system_or_a_disk_is_denied(shipped: Policy, argv: tuple[str, ...]) -> None:
    result = decide(shipped, projected(argv), (), home=HOME)
    assert result.decision == "deny"
    assert any(d.request.surface == "effect" and d.by.startswith("rule") for d in result.decided)


@pytest.mark.parametrize("argv", EVERYDAY, ids=" ".join)
def test_everyday_commands_stay_quiet(shipped: Policy, argv: tuple[str, ...]) -> None:
    result = decide(shipped, projected(argv), (), home=HOME)
    assert (result.decision, result.reasons) == ("allow", ())


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        (path("/etc/hosts"), "ask"),
        (path("/home/u/.bashrc", "write", "redirect"), "ask"),
        (path("/usr/bin/tool", "execute"), "ask"),
        (path("/tmp/build.log", "write"), "ask"),
        (path("/tmp"), "ask"),
        (path("/tmp/tmux-0/default", "write", "redirect"), "ask"),
        (path("/tmp/downloaded", "execute"), "ask"),
        (path("/private/tmp/x", "write"), "ask"),
        (path("/tmpfoo/x", "write"), "ask"),
        (dynamic("$(date)", "data"), "allow"),
        (dynamic("$(find . -name x)", "path"), "ask"),
        (dynamic("$CMD", "command_name"), "ask"),
        (dynamic("curl -s https://x | sh", "code"), "ask"),
        (dynamic("$OUT", "redirect"), "ask"),
        (dynamic("$DIR", "chdir"), "ask"),
        (syntax('cat "unterminated'), "ask"),
    ],
)
def test_reach_and_unknowns_ask_but_plain_data_does_not(
    shipped: Policy, request_: Request, expected: str
) -> None:
    assert verdict_of(shipped, request_) == expected


def test_a_line_takes_the_strictest_of_its_requests_and_gives_one_reason_per_asking_one(
    shipped: Policy,
) -> None:
    result = decide(
        shipped,
        line(command("cat", "/etc/hosts"), path("/etc/hosts"), command("git", "push", "-f"),
             FORCE_PUSH),
        (),
        home=HOME,
    )  # fmt: skip
    assert result.decision == "ask"
    assert [d.decision for d in result.decided] == ["allow", "ask", "allow", "ask"]
    assert result.reasons == (
        "ask: read /etc/hosts (cat) is outside the workspace",
        "ask: discard git-remote: force-push rewrites shared history (git push -f)",
    )


def test_reasons_write_paths_under_home_with_a_tilde(shipped: Policy) -> None:
    result = decide(shipped, line(path("/home/u/.bashrc", "write", "redirect")), (), home=HOME)
    assert result.reasons == ("ask: write ~/.bashrc (redirect) is outside the workspace",)


def test_an_empty_line_is_allowed(shipped: Policy) -> None:
    assert decide(shipped, line(), (), home=HOME).decision == "allow"


# -- precedence ----------------------------------------------------------------------------


def rule(pattern: str, action: str, line_: int, surface: str = "command", **more: object) -> Rule:
    return Rule(surface, pattern, action, source="p.toml", line=line_, **more)  # type: ignore[arg-type]


def policy_of(*rules: Rule, **defaults: str) -> Policy:
    table = {"command": "allow", "external_directory": "ask", "dynamic": "ask", "syntax": "ask"}
    table.update(defaults)
    return Policy(rules, table, dict.fromkeys(table, "p.toml:1"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rules", "argv", "expected", "by"),
    [
        ((), ("make",), "allow", "default"),
        ((rule("make *", "deny", 3),), ("make",), "deny", "rule p.toml:3"),
        ((rule("make *", "deny", 3), rule("make test", "allow", 7)), ("make", "test"), "allow",
         "rule p.toml:7"),
        ((rule("make test", "allow", 3), rule("make *", "deny", 7)), ("make", "test"), "deny",
         "rule p.toml:7"),
        ((rule("make *", "deny", 3), rule("make test", "allow", 7)), ("make", "x"), "deny",
         "rule p.toml:3"),
        ((rule("git *", "allow", 3),), ("./git", "push"), "allow", "default"),
        ((rule("git *", "ask", 3),), ("./git", "push"), "ask", "rule p.toml:3"),
    ],
)  # fmt: skip
def test_within_a_surface_the_last_matching_rule_wins(
    rules: tuple[Rule, ...], argv: tuple[str, ...], expected: str, by: str
) -> None:
    result = decide(policy_of(*rules), line(command(*argv)), (), home=HOME)
    assert (result.decision, result.decided[0].by) == (expected, by)


def test_an_allow_rule_naming_a_command_does_not_cover_it_run_from_elsewhere() -> None:
    policy = policy_of(rule("git *", "allow", 3), command="ask")
    assert verdict_of(policy, command("git", "push")) == "allow"
    assert verdict_of(policy, command("/tmp/evil/git", "push")) == "ask"


def test_rules_only_judge_their_own_surface() -> None:
    policy = policy_of(rule("*", "deny", 3, surface="dynamic"))
    assert verdict_of(policy, command("echo", "*")) == "allow"
    assert verdict_of(policy, dynamic("$X", "data")) == "deny"


def test_path_rules_honour_their_access_filter() -> None:
    policy = policy_of(
        rule("/srv/**", "allow", 3, surface="external_directory", access=("read", "chdir"))
    )
    assert verdict_of(policy, path("/srv/data/x")) == "allow"
    assert verdict_of(policy, path("/srv/data/x", "write")) == "ask"
    assert verdict_of(policy, path("/srv", "chdir", "cd")) == "allow"


def test_dynamic_rules_honour_their_role_filter_and_match_the_text() -> None:
    policy = policy_of(rule("$EDITOR", "allow", 3, surface="dynamic", role=("command_name",)))
    assert verdict_of(policy, dynamic("$EDITOR", "command_name")) == "allow"
    assert verdict_of(policy, dynamic("$EDITOR", "code")) == "ask"
    assert verdict_of(policy, dynamic("$PAGER", "command_name")) == "ask"


def test_a_project_file_overrides_the_user_file_which_overrides_the_default(
    tmp_path: Path,
) -> None:
    user, workspace = Path(os.environ["GUARD_CONFIG"]), tmp_path / "ws"
    write(user, """
        [[rules]]
        surface = "command"
        pattern = "git push *"
        action = "deny"
        reason = "no pushing from here"

        [[rules]]
        surface = "command"
        pattern = "terraform *"
        action = "ask"
    """)
    write(workspace / ".guard.toml", """
        [[rules]]
        surface = "command"
        pattern = "git push origin *"
        action = "allow"

        [[rules]]
        surface = "command"
        pattern = "terraform apply *"
        action = "deny"
    """)
    policy = load_policy(str(workspace), home=HOME)
    assert verdict_of(policy, command("git", "push", "--force")) == "deny"
    assert verdict_of(policy, command("git", "push", "origin", "--force")) == "allow"
    assert verdict_of(policy, command("terraform", "plan")) == "ask"
    assert verdict_of(policy, command("terraform", "apply")) == "deny"
    assert verdict_of(policy, effect("destroy", "files", "recursive delete", "rm", "-rf")) == "ask"
    result = decide(policy, line(command("git", "push", "upstream")), (), home=HOME)
    assert result.reasons == (f"deny: git push upstream (rule {user}:1: no pushing from here)",)


# -- approvals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_", "granted", "expected"),
    [
        (command("git", "push", "--force"), approval(7, "command", "git push *"), "allow"),
        (command("git", "push"), approval(7, "command", "git push *"), "allow"),
        (command("git", "reset", "--hard"), approval(7, "command", "git push *"), "ask"),
        (command("git", "push", "-f"), approval(7, "command", "git commit *"), "ask"),
        (command("bash", "-c", "rm -rf x"), approval(7, "command", "bash -c 'rm -rf x'"), "allow"),
        (command("bash", "-c", "rm -rf x"), approval(7, "command", "bash -c rm -rf x"), "ask"),
        (command("bash", "-c", "rm", "-rf", "x"), approval(7, "command", "bash -c 'rm -rf x'"),
         "ask"),
        (command("sudo", "ls"), approval(7, "command", "sudo ls"), "allow"),
        (command("sudo", "ls", "/root"), approval(7, "command", "sudo ls"), "ask"),
        (command("/bin/rm", "-rf", "x"), approval(7, "command", "rm -rf x"), "ask"),
        (path("/etc/hosts"), approval(7, "external_directory", "/etc/hosts"), "allow"),
        (path("/etc/passwd"), approval(7, "external_directory", "/etc/hosts"), "ask"),
        (path("/etc/ssh/x"), approval(7, "external_directory", "/etc/**"), "allow"),
        (path("/etc", "chdir", "cd"), approval(7, "external_directory", "/etc/**"), "allow"),
        (path("/etcetera/x"), approval(7, "external_directory", "/etc/**"), "ask"),
        (path("/etc/x", "write"), approval(7, "external_directory", "/etc/**", "read"), "ask"),
        (path("/etc/hosts"), approval(7, "external_directory", "/etc/**", "read"), "allow"),
        (path("/etc/hosts"), approval(7, "command", "/etc/hosts"), "ask"),
        (dynamic("$X", "path"), approval(7, "dynamic", "$X"), "allow"),
        (dynamic("$Y", "path"), approval(7, "dynamic", "$X"), "ask"),
        (syntax("cat 'x"), approval(7, "syntax", "cat 'x"), "allow"),
    ],
)
def test_an_approval_turns_ask_into_allow_only_for_what_it_covers(
    request_: Request, granted: Approval, expected: str
) -> None:
    result = decide(policy_of(command="ask"), line(request_), (granted,), home=HOME)
    assert result.decision == expected
    assert (result.decided[0].by == "approval #7") is (expected == "allow")
    assert (result.reasons == ()) is (expected == "allow")


def test_an_approval_never_overrides_deny() -> None:
    policy = policy_of(rule("curl *", "deny", 3))
    granted = (approval(1, "command", "curl *"), approval(2, "command", "*"))
    result = decide(policy, line(command("curl", "x")), granted, home=HOME)
    assert (result.decision, result.decided[0].by) == ("deny", "rule p.toml:3")


def test_the_first_approval_that_covers_a_request_is_named() -> None:
    granted = (approval(1, "command", "git commit *"), approval(2, "command", "git push *"),
               approval(3, "command", "git *"))  # fmt: skip
    result = decide(policy_of(command="ask"), line(command("git", "push")), granted, home=HOME)
    assert result.decided[0].by == "approval #2"


# -- a broken policy -----------------------------------------------------------------------


def test_a_broken_policy_makes_everything_that_would_be_allowed_ask(tmp_path: Path) -> None:
    write(Path(os.environ["GUARD_CONFIG"]), """
        [[rules]]
        surface = "command"
        pattern = "curl *"
        action = "deny"

        [[rules]]
        surface = "command"
        pattern = "wget *"
        action = "alow"
    """)
    policy = load_policy(None, home=HOME)
    granted = (approval(9, "command", "git push *"),)
    granted += (approval(10, "effect", "discard:git-remote"),)
    result = decide(policy, line(command("ls"), FORCE_PUSH), granted, home=HOME)
    assert result.decision == "ask"
    assert [(d.decision, d.by) for d in result.decided] == [
        ("ask", "policy problem"),
        ("ask", "default"),  # approvals do not apply either
    ]
    problem = f"{os.environ['GUARD_CONFIG']}:9: unknown action \"alow\""
    assert result.reasons[0].startswith(f"ask: ls (policy problem: {problem}")
    assert verdict_of(policy, command("curl", "x")) == "deny"
    assert verdict_of(policy, command("wget", "x")) == "ask"


def test_a_policy_file_that_is_not_toml_makes_everything_ask(tmp_path: Path) -> None:
    write(Path(os.environ["GUARD_CONFIG"]), "[[rules]\n")
    policy = load_policy(None, home=HOME)
    assert verdict_of(policy, command("ls")) == "ask"
    assert verdict_of(policy, path("/tmp/x")) == "ask"
    assert verdict_of(policy, dynamic("$(date)", "data")) == "ask"


def test_several_problems_are_counted_in_the_reason() -> None:
    policy = Policy((), {"command": "allow"}, {"command": "x"}, problems=("a: one", "b: two"))
    (reason,) = decide(policy, line(command("ls")), (), home=HOME).reasons
    assert reason == "ask: ls (policy problem: a: one; and 1 more)"


def test_a_request_on_a_surface_the_policy_does_not_know_asks() -> None:
    policy = Policy((), {}, {})
    assert verdict_of(policy, command("ls")) == "ask"


@pytest.mark.parametrize(
    ("request_", "reason"),
    [
        (Request("dynamic", (0, 1), "$DIR is not set", text="$DIR", role="path"),
         "ask: $DIR is not set"),
        (Request("dynamic", (0, 1), "", text="$DIR", role="path"),
         "ask: $DIR cannot be known before it runs (as a path)"),
        (Request("dynamic", (0, 1), "", text="$X", role=None),
         "ask: $X cannot be known before it runs"),
        (Request("syntax", (0, 1), "syntax error near 'x'", text="x"),
         "ask: syntax error near 'x'"),
        (Request("syntax", (0, 1), "", text="cat 'x"), "ask: cannot check \"cat 'x\""),
    ],
)  # fmt: skip
def test_an_unknown_or_unparsable_part_is_explained_by_the_projections_reason(
    shipped: Policy, request_: Request, reason: str
) -> None:
    assert decide(shipped, line(request_), (), home=HOME).reasons == (reason,)


def test_the_commented_tmp_rules_in_the_shipped_policy_allow_scratch_work_when_copied(
    tmp_path: Path,
) -> None:
    from guard.policy.files import load_policy
    from guard.policy.shipped_policy import default_policy_text

    text = default_policy_text()
    block = text[text.index("# [[rules]]") : text.index("# ---- unknown values")]
    rules = "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                      for line in block.splitlines())
    user = tmp_path / "policy.toml"
    user.write_text(rules)
    policy = load_policy(None, home="/home/u", user_file=str(user))
    assert not policy.problems
    assert verdict_of(policy, path("/tmp/build.log", "write")) == "allow"
    assert verdict_of(policy, path("/tmp/downloaded", "execute")) == "ask"
