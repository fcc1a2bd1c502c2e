"""Where bash runs substitutions: the lexer against tables, and against real bash.

The property test runs generated lines in a real bash whose only program is a stub `m` that
logs each run; whenever bash ran `m`, the lexer must have found a substitution.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guard.projection.bash_quoting import substitution_sites
from guard.projection.line_projection import project
from guard.projection.shell_state import Context

CTX = Context(cwd="/w/proj", env={"HOME": "/h/u"}, workspace=("/w/proj",), home="/h/u")

# (line, offsets of the substitutions bash runs)
SITES = [
    ("echo 1#$(id)", [7]),
    ("echo \"${x:-'$(id)'}\"", [12]),  # in double quotes, single quotes in ${…} do not quote
    ("echo ${x:-'$(id)'}", []),  # outside them they do
    ("cat <<E\n'$(id)'\nE", [9]),  # quotes in an unquoted heredoc body are characters
    ("cat <<'E'\n$(id)\nE", []),
    ("cat <<-\"E\"\n\t`id`\n\tE", []),
    ("echo '$(no)'", []),
    ("echo $'$(no) \\' $(no)'", []),
    ("echo \\$(no) \"\\$(no)\"", []),
    ('echo "$(echo ")")"', [6]),
    ("echo $(( x + $(id) ))", [5, 13]),
    ("diff <(ls) >(cat)", [5, 11]),
    ("echo `id` \"`id`\"", [5, 11]),
    ("echo a # $(no)", []),
    ("echo a#$(id)", [7]),
    ("echo ${x:-<(id)}", [10]),  # found by the property test below
    ("echo \"${x:-<(no)}\"", []),
    # found by the property test: a body line ending in a backslash joins the next, so `E` is
    # no delimiter there, and the body (with its substitution) goes on
    ("echo <<E\n\\$(m)\\\nE\n'$(m)", [19]),
    ("cat <<E\nx $(a) \\\n$(b)\nE\n", [10, 17]),
    # found by the property test: an escaped blank is part of the word, so `#` after it starts
    # no comment (nor does one after a backslash-newline)
    ("echo \\ #$(m)", [8]),
    ("echo a\\\n#$(m)", [9]),
    ("echo \\\\ #$(no)", []),  # an escaped backslash, then a blank: a comment
    ("cat <<E\nx \\\\\nE\n'$(no)'", []),  # an even count: the line ends, so does the body
    ("cat <<'E'\nx \\\nE\n'$(no)'", []),  # quoted: a backslash is a character
    ("ls", []),
]


@pytest.mark.parametrize(("line", "expected"), SITES)
def test_the_lexer_finds_what_bash_expands(line: str, expected: list[int]) -> None:
    assert substitution_sites(line) == expected


# lines where tree-sitter-bash's tree or the walker miss what bash runs, and ordinary ones
UNSEEN = [
    ("echo 1#$(id)", True),
    ("echo \"${x:-'$(id)'}\"", True),
    ("echo \"$(date)\" `pwd` <(ls) $((1+2))", False),
    ("cat <<E\nhello $(whoami)\nE", False),
    ("for i in $(seq 3); do echo $((i*2)); done", False),
    ("echo ${x:-'$(id)'}", False),
    ("echo <<E\n\\$(m)\\\nE\n'$(m)", True),
    ("cat <<E\nline one \\\nline two\nE", False),
]


@pytest.mark.parametrize(("line", "asks"), UNSEEN)
def test_a_substitution_the_walker_did_not_walk_asks(line: str, asks: bool) -> None:
    reasons = [r.reason for r in project(line, CTX).requests if r.surface == "dynamic"]
    assert any("the parser and bash may read this differently" in r for r in reasons) == asks


FRAGMENTS = st.sampled_from(
    [
        "$(m)",
        "`m`",
        "<(m)",
        "$((1))",
        "'",
        '"',
        "\\",
        "${x:-",
        "}",
        "1#",
        " ",
        "a",
        "$",
        "(",
        ")",
        "#",
        "\n",
        "<<E\n",
        "\nE\n",
        "<<'E'\n",
        "$'",
        "x=",
        ";",
        "echo ",
        "{",
        ">(m)",
        "$((",
        "))",
        "<<-E\n",
        "\tE\n",
        "<<<",
        "${x#",
        "|",
    ]
)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[tuple[str, str]]:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        stubs = os.path.join(tmp, "bin")
        os.mkdir(stubs)
        stub = os.path.join(stubs, "m")
        with open(stub, "w") as f:
            f.write('#!/bin/sh\necho ran >> "$LOG"\n')
        os.chmod(stub, 0o755)
        yield bash, tmp


def bash_ran_m(bash: str, tmp: str, line: str) -> bool:
    # a log of its own: `<(m)` runs in the background and may write after bash has exited
    log = tempfile.mktemp(prefix="log-", dir=tmp)
    env = {"PATH": os.path.join(tmp, "bin"), "LOG": log, "HOME": tmp}
    try:
        subprocess.run(
            [bash, "--norc", "--noprofile", "-c", line],
            cwd=tmp,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=5,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return False
    for _ in range(20 if "<(" in line else 1):  # a background `<(m)` may write a moment later
        if os.path.exists(log):
            return True
        time.sleep(0.005)
    return False


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(FRAGMENTS, min_size=1, max_size=12).map("".join))
def test_whenever_bash_runs_a_substitution_the_lexer_found_one(
    sandbox: tuple[str, str], body: str
) -> None:
    bash, tmp = sandbox
    line = "echo " + body
    if bash_ran_m(bash, tmp, line):
        assert substitution_sites(line), f"bash ran a substitution in {line!r}"
