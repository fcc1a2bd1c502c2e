"""Noise: how many ordinary command lines ask, grouped by reason.

Run: ``.venv/bin/python tests/bench/noise.py [--verbose] [LINES_FILE]``. Prints figures; asserts
nothing.

Each line of tests/bench/noise_lines.txt (a few hundred lines an agent types while building,
testing and reading a project: git, npm, cargo, go, python, docker and kubectl reads …) goes
through the projection and the shipped policy in this process, as `guard explain --json` would
judge it in an agent's session, in a scratch git workspace holding the files the lines name and a
home of its own. The figures are the lines that ask, and the requests that ask grouped by what
asked (surface and reason, the line's own words taken out), most frequent first; `--verbose`
lists each line that asks with its reasons. Run it before and after a change to knowledge: an
ask on an ordinary line is noise a person learns to wave through.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from guard.policy.files import load_policy
from guard.projection.line_projection import project
from guard.projection.requests import Request
from guard.verdict.decision import decide
from guard.verdict.judgement import protected_paths
from guard.verdict.workspace import build_context

HERE = Path(__file__).resolve().parent

FILES = (
    *("README.md", "src/main.py", "src/old.py", "package.json", "Cargo.toml", "go.mod"),
    *("input.txt", "list.txt", "data.csv", "config.yaml", "deploy.yaml", "docker-compose.yml"),
    *("a.txt", "b.txt", "build.log", "Dockerfile", "Dockerfile.dev", "scripts/run.sh"),
    *("scripts/test.sh", "k8s/deploy.yaml", "chart/Chart.yaml", ".venv/bin/activate"),
    *("archive.tgz", "app.db", "bin/app", "docs/index.md", "notes.txt", "main.c", "build.js"),
    *("index.js", "main.ts", "requirements.txt", "cert.pem", "data.xz", "target/app.jar"),
    *("src/Main.java", "index.html", "tests/test_main.py", "out.zip", "a.log", "b.log"),
    ".env",  # most projects keep one: reading through the tree must not ask for ordinary work
)


def read_lines(path: Path) -> list[str]:
    """The command lines of a file: one a line, `#` lines skipped, a heredoc kept whole."""
    lines: list[str] = []
    rows = path.read_text().splitlines()
    at = 0
    while at < len(rows):
        row = rows[at]
        at += 1
        if not row.strip() or row.startswith("#"):
            continue
        heredoc = re.search(r"<<-?\s*['\"]?(\w+)['\"]?", row)
        if heredoc:
            body = [row]
            while at < len(rows):
                body.append(rows[at])
                at += 1
                if body[-1].strip() == heredoc.group(1):
                    break
            row = "\n".join(body)
        lines.append(row)
    return lines


def reason_of(request: Request, line: str) -> str:
    """What asked, without the line's own words: the surface and its reason in general terms."""
    if request.surface == "effect":
        return f"effect {request.kind} {request.target}: {request.reason}"
    if request.surface == "dynamic":
        return f"dynamic ({request.role}): {request.reason.split(':')[0]}"
    if request.surface in ("external_directory", "protected"):
        return f"{request.surface} {request.access} by {request.via or '?'}"
    reason = request.reason
    for word in set(line.split()):
        if len(word) > 2:
            reason = reason.replace(word, "…")
    return f"{request.surface}: {reason}"


def workspace(tmp: str) -> tuple[str, dict[str, str]]:
    ws = os.path.join(tmp, "proj")
    home = os.path.join(tmp, "home")
    os.makedirs(home)
    for name in FILES:
        path = os.path.join(ws, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        Path(path).write_text("")
    subprocess.run(["git", "init", "-q", ws], check=True)
    env = {
        "HOME": home,
        "PWD": ws,
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "USER": "agent",
        "SHELL": "/bin/bash",
        "LANG": "C.UTF-8",
        "GUARD_CONFIG": os.path.join(tmp, "policy.toml"),
    }
    return ws, env


def main(argv: list[str]) -> int:
    verbose = "--verbose" in argv
    files = [a for a in argv[1:] if not a.startswith("--")]
    lines = read_lines(Path(files[0]) if files else HERE / "noise_lines.txt")
    with tempfile.TemporaryDirectory() as tmp:
        ws, env = workspace(tmp)
        os.environ["GUARD_CONFIG"] = env["GUARD_CONFIG"]
        ctx = build_context(ws, env)
        policy = load_policy(ws, home=ctx.home, user_file=env["GUARD_CONFIG"])
        # an agent's session, with the protected list the judge gives it (secrets ask)
        ctx = ctx._replace(protected=protected_paths(policy, ctx.home, env, agent=True))
        asking = 0
        by_reason: Counter[str] = Counter()
        for line in lines:
            verdict = decide(policy, project(line, ctx), (), home=ctx.home)
            if verdict.decision == "allow":
                continue
            asking += 1
            reasons = {reason_of(d.request, line) for d in verdict.decided if d.decision != "allow"}
            by_reason.update(reasons)
            if verbose:
                print(f"{verdict.decision}: {line!r}")
                for reason in verdict.reasons:
                    print(f"    {reason}")
    print(f"noise: {asking} of {len(lines)} ordinary lines ask ({100 * asking / len(lines):.1f}%)")
    for reason, count in by_reason.most_common():
        print(f"{count:5}  {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
