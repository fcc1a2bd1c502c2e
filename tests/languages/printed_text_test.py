"""What `echo` and `printf` of literal words print, as an interpreter reading them from a pipe
would get it (guard/languages/producer_output.py), or None where guard cannot be sure."""

from __future__ import annotations

import subprocess

import pytest

from guard.languages import printed_text

KNOWN = [
    ["echo", "a", "b"],
    ["echo", "-n", "x y"],
    ["echo", "-e", "plain"],
    ["echo"],
    ["printf", "%s\\n", "!rm -rf build", "q"],
    ["printf", ",s/a/b/g\\nw\\nq\\n"],
    ["printf", "a%%b"],
    ["printf", "%s-", "a", "b", "c"],
    ["printf", "%s %s\\n", "one"],
    ["printf", "--", "x\\ty"],
    ["printf", "say \\\"hi\\\" and \\'bye\\'\\n"],
]


@pytest.mark.parametrize("argv", KNOWN)
def test_what_echo_and_printf_print_is_what_bash_prints(argv: list[str]) -> None:
    bash = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", '"$@"', "_", *argv],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed_text(argv) == bash


# where shells differ or guard does not read the format: unknown, so a reader asks
UNKNOWN = [
    ["echo", "w\\n!rm -rf ~"],  # bash prints the backslash, zsh a new line
    ["echo", "-e", "a\\tb"],
    ["printf", "%b", "!rm\\n"],
    ["printf", "%d\\n", "7"],
    ["printf", "%5s", "x"],
    ["printf", "\\101"],
    ["printf", "-v", "var", "x"],
    ["printf"],
    ["cat", "file"],
]


@pytest.mark.parametrize("argv", UNKNOWN)
def test_what_guard_cannot_be_sure_of_is_not_known(argv: list[str]) -> None:
    assert printed_text(argv) is None
