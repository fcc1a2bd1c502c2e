"""The shipped default policy, read fast.

`guard/default-policy.toml` is the source, commented line by line. Parsing TOML costs every
`guard check` about 4 ms (the parser's import included), so the parsed rules are also shipped
as Python literals in `guard/policy/default_policy_data.py` (loaded from bytecode), which
`default_layer()` uses when its recorded size matches the TOML file's; otherwise (an edited
TOML, a missing data module) it parses the TOML. After editing the TOML, run
`python -m guard.policy.shipped_policy` to write the data module again; a test fails while the two
disagree.
"""

from __future__ import annotations

import os
from functools import cache

from guard.policy.parse import parse_policy
from guard.policy.rules import DEFAULT_SOURCE, PolicyFile, Rule

HERE = os.path.dirname(os.path.abspath(__file__))
TOML = os.path.join(os.path.dirname(HERE), "default-policy.toml")  # package data, at the top
DATA = os.path.join(HERE, "default_policy_data.py")


@cache  # the shipped files do not change while guard runs
def default_layer() -> PolicyFile:
    try:
        from guard.policy import default_policy_data as data

        if os.stat(TOML).st_size == data.TOML_SIZE:
            rules = tuple(Rule(*r) for r in data.RULES)
            return PolicyFile(
                DEFAULT_SOURCE,
                rules,
                data.DEFAULTS,  # type: ignore[arg-type]
                data.ROOTS,
                data.PROBLEMS,
                data.PROTECTED,  # type: ignore[arg-type]
                kind="default",
            )
    except (ImportError, OSError, AttributeError, TypeError):
        pass
    return parse_default()


def parse_default() -> PolicyFile:
    try:
        text = default_policy_text()
    except (OSError, UnicodeDecodeError) as error:
        problem = f"{DEFAULT_SOURCE}: cannot read the shipped policy ({error}); reinstall guard"
        return PolicyFile(DEFAULT_SOURCE, problems=(problem,))
    return parse_policy(text, source=DEFAULT_SOURCE, kind="default", workspace=None, home="")


def default_policy_text() -> str:
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    beside = os.path.join(package, "default-policy.toml")
    try:  # a plain file read: importlib.resources costs milliseconds on every check
        with open(beside, encoding="utf-8") as f:
            return f.read()
    except OSError:  # installed somewhere without plain files (a zip)
        from importlib import resources

        return resources.files("guard").joinpath("default-policy.toml").read_text(encoding="utf-8")


def data_module(layer: PolicyFile, toml_size: int) -> str:
    """The text of `default_policy_data.py` for a parsed layer."""
    lines = [
        "# ruff: noqa: E501",
        '"""The shipped policy, parsed: written by `python -m guard.policy.shipped_policy` from',
        'default-policy.toml. Do not edit; edit the TOML and run that command."""',
        "",
        "# fmt: off",
        f"TOML_SIZE = {toml_size!r}",
        "RULES = (",
        *[f"    {tuple(rule)!r}," for rule in layer.rules],
        ")",
        f"DEFAULTS = {layer.defaults!r}",
        f"ROOTS = {layer.roots!r}",
        f"PROBLEMS = {layer.problems!r}",
        f"PROTECTED = {layer.protected!r}",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    with open(DATA, "w", encoding="utf-8") as f:
        f.write(data_module(parse_default(), os.stat(TOML).st_size))
    print(f"wrote {DATA} from {TOML}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
