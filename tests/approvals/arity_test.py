"""What an approval covers: a tool-aware prefix for commands, this path or its directory."""

from __future__ import annotations

import pytest

from guard.approvals.arity import Choice, approval_choices, command_pattern
from guard.policy.rules import Policy
from guard.projection.patterns import render_argv
from guard.projection.requests import Access, DynamicRole, Projection, Request
from guard.verdict.decision import decide
from guard.verdict.store.schema import Approval

HOME = "/home/u"


def command(*argv: str) -> Request:
    return Request("command", (0, 1), "runs", argv=argv)


def path(where: str, access: Access = "read") -> Request:
    return Request("external_directory", (0, 1), "outside", path=where, access=access, via="cat")


PREFIXES = [
    (("git", "push", "--force", "origin", "main"), "git push *"),
    (("git", "commit", "-m", "x"), "git commit *"),
    (("git", "remote", "add", "up", "url"), "git remote add *"),
    (("/usr/bin/git", "push"), "/usr/bin/git push *"),
    (("npm", "run", "build", "--", "--x"), "npm run build *"),
    (("npm", "install"), "npm install *"),
    (("docker", "compose", "up", "-d"), "docker compose up *"),
    (("cargo", "test"), "cargo test *"),
    (("kubectl", "get", "pods"), "kubectl get *"),
    (("gh", "pr", "create", "--fill"), "gh pr create *"),
    (("aws", "s3", "cp", "a", "s3://b"), "aws s3 cp *"),
    (("ls", "-la", "/var/log"), "ls *"),
    (("make", "test"), "make *"),
    # a tool not in the table: its name and a subcommand-like first word
    (("terraform", "plan", "-out", "x"), "terraform plan *"),
    (("mytool", "sync", "--all"), "mytool sync *"),
    # too short for its arity, or a flag before the subcommand: exactly this argv
    (("git",), "git"),
    (("npm", "run"), "npm run"),
    (("git", "-C", "../other", "push"), "git -C ../other push"),
    (("mytool", "--all"), "mytool --all"),
    (("mytool", "./x.sh"), "mytool ./x.sh"),
    (("mytool",), "mytool"),
    (("curl", "https://example.com/x"), "curl https://example.com/x"),
    (("curl", "-s", "https://example.com/x"), "curl -s https://example.com/x"),
]


@pytest.mark.parametrize(("argv", "pattern"), PREFIXES, ids=lambda v: " ".join(v))
def test_a_command_approval_remembers_what_the_tool_does(
    argv: tuple[str, ...], pattern: str
) -> None:
    label = pattern if pattern.endswith(" *") else f"exactly {pattern}"
    assert approval_choices(command(*argv)) == (Choice("command", pattern, None, label),)


REFUSED = [
    ("python", "script.py"),
    ("python3", "-m", "http.server"),
    ("python3.12", "x.py"),
    ("/usr/bin/python3", "x.py"),
    ("node", "server.js"),
    ("bash", "-c", "make"),
    ("sh", "x.sh"),
    ("zsh", "-c", "ls"),
    ("env", "FOO=1", "make"),
    ("sudo", "apt", "install", "x"),
    ("xargs", "rm"),
    ("perl", "-e", "print 1"),
    ("ruby", "x.rb"),
    ("eval", "ls"),
    ("exec", "make"),
    ("nohup", "make"),
    ("timeout", "5", "make"),
    ("rm", "-rf", "build"),
    ("dd", "if=a", "of=b"),
    ("mkfs.ext4", "/dev/x"),
    ("chmod", "-R", "755", "."),
    ("docker", "run", "alpine", "sh"),
    ("kubectl", "exec", "pod", "--", "sh"),
    ("uv", "run", "x.py"),
    ("npx", "rm", "-rf", "src"),
    ("conda", "run", "-n", "env", "make"),
    ("direnv", "exec", ".", "make"),
    ("crontab", "jobs.cron"),
]


@pytest.mark.parametrize("argv", REFUSED, ids=" ".join)
def test_interpreters_shells_wrappers_and_destroyers_get_no_prefix_only_their_exact_argv(
    argv: tuple[str, ...],
) -> None:
    (choice,) = approval_choices(command(*argv))
    assert not choice.pattern.endswith(" *")
    assert choice.pattern == command_pattern(argv)
    assert choice.label == f"exactly {render_argv(argv)}"


@pytest.mark.parametrize(
    ("argv", "pattern"),
    [
        (("python3", "-c", "print('*')"), "python3 -c 'print('\\\\''\\*'\\\\'')'"),
        (("bash", "-c", "rm -rf *"), "bash -c 'rm -rf \\*'"),
        (("rm", "a\\b"), "rm 'a\\\\b'"),
    ],
)
def test_an_exact_approval_makes_stars_and_backslashes_literal(
    argv: tuple[str, ...], pattern: str
) -> None:
    assert command_pattern(argv) == pattern


@pytest.mark.parametrize(
    ("request_", "patterns"),
    [
        (path("/etc/hosts"), ("/etc/hosts", "/etc/**")),
        (path("/var/log/syslog", "write"), ("/var/log/syslog", "/var/log/**")),
        (path("/var/log", "chdir"), ("/var/log", "/var/log/**")),
        (path("/data/a*b?"), ("/data/a\\*b\\?", "/data/**")),
        (path("/", "chdir"), ()),
        (path("/", "read"), ()),
        (path("/", "write"), ()),
        (path("/etc", "write"), ()),
        (path("/dev/sda", "write"), ()),
        (path("/home", "read"), ()),
        (path("/vmlinuz"), ("/vmlinuz",)),
        (path("/home/u/.bashrc", "write"), ("/home/u/.bashrc",)),
        (path("/home/u", "chdir"), ()),
        (path("/home/u", "write"), ()),
        (path("/home/u/.ssh/config"), ("/home/u/.ssh/config", "/home/u/.ssh/**")),
    ],
)
def test_a_path_approval_is_this_path_or_its_directory_never_root_or_home(
    request_: Request, patterns: tuple[str, ...]
) -> None:
    choices = approval_choices(request_, home=HOME)
    assert tuple(c.pattern for c in choices) == patterns
    assert all(c.surface == "external_directory" and c.access == request_.access for c in choices)


def test_a_directory_read_offers_that_directory_and_below_when_it_is_known_to_be_one() -> None:
    choices = approval_choices(path("/var/log"), home=HOME, is_dir=True)
    assert [c.pattern for c in choices] == ["/var/log", "/var/log/**"]
    assert choices[1].label == "read anything in /var/log and below"


@pytest.mark.parametrize(
    ("role", "offered"),
    [("path", True), ("data", True), ("redirect", True), ("code", False), ("command_name", False)],
)
def test_an_unknown_value_that_runs_is_never_remembered(role: DynamicRole, offered: bool) -> None:
    request = Request("dynamic", (0, 1), "unknown", text="$(ls *)", role=role)
    choices = approval_choices(request)
    assert choices == ((Choice("dynamic", "$(ls \\*)", None, "$(ls *)"),) if offered else ())


def test_a_syntax_error_is_never_remembered() -> None:
    assert approval_choices(Request("syntax", (0, 1), "bad", text="cat 'x")) == ()


# -- what a choice covers, through decide ----------------------------------------------------

ASK_ALL = Policy(
    (), dict.fromkeys(("command", "external_directory", "dynamic", "syntax"), "ask"), {}
)  # type: ignore[arg-type]


def covered(choice: Choice, request: Request) -> bool:
    granted = Approval(1, "s", "session", choice.surface, choice.pattern, choice.access, "h", 0, "")
    projection = Projection("…", "/w", ("/w",), (request,))
    return decide(ASK_ALL, projection, (granted,), home=HOME).decision == "allow"


@pytest.mark.parametrize(
    ("approved", "later", "expected"),
    [
        (command("git", "commit", "-m", "x"), command("git", "commit", "--amend"), True),
        (command("git", "commit", "-m", "x"), command("git", "push"), False),
        (command("git", "push", "--force"), command("git", "push", "origin", "main"), True),
        (command("git", "push", "--force"), command("git", "pusher"), False),
        (command("npm", "run", "build"), command("npm", "run", "deploy"), False),
        (command("python3", "a.py"), command("python3", "b.py"), False),
        (command("python3", "a.py"), command("python3", "a.py"), True),
        (command("bash", "-c", "rm -rf *"), command("bash", "-c", "rm -rf x"), False),
        (command("bash", "-c", "rm -rf *"), command("bash", "-c", "rm -rf *"), True),
        (command("rm", "-rf", "build"), command("rm", "-rf", "/"), False),
        (command("sudo", "ls"), command("sudo", "ls", "/root"), False),
    ],
)
def test_approving_a_command_covers_its_prefix_and_nothing_else(
    approved: Request, later: Request, expected: bool
) -> None:
    (choice,) = approval_choices(approved)
    assert covered(choice, approved)
    assert covered(choice, later) is expected


def test_approving_a_file_does_not_cover_its_neighbour_but_its_directory_does() -> None:
    this_file, directory = approval_choices(path("/etc/hosts"), home=HOME)
    assert covered(this_file, path("/etc/hosts"))
    assert not covered(this_file, path("/etc/passwd"))
    assert not covered(this_file, path("/etc/hosts", "write"))
    assert covered(directory, path("/etc/passwd"))
    assert covered(directory, path("/etc/ssh/sshd_config"))
    assert not covered(directory, path("/etc/passwd", "write"))
    assert not covered(directory, path("/etcetera"))
