"""One record per command (guard/knowledge/commands/command.py), found with one reader,
`command_for`: a path, a versioned name and an alias find the record of their command, and a
name no record holds has no knowledge."""

from __future__ import annotations

import pytest

from guard.knowledge.commands import RECORDS, command_for
from guard.knowledge.commands.interpreters import INTERPRETERS


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_a_path_to_a_command_finds_its_record(name: str) -> None:
    assert command_for(f"/usr/local/bin/{name}") == RECORDS[name]


@pytest.mark.parametrize(
    ("name", "filed", "subcommands"),
    [
        ("/usr/bin/git", "git", False),  # its rows say everything
        ("kubectl", "kubectl", True),
        ("npm", "npm", True),
        ("mkfs.ext4", "mkfs", False),
        ("mke2fs", "mkfs", False),
        ("python3.12", "python3.12", False),
        ("rm", "rm", False),
        ("terraform", "terraform", True),
    ],
)
def test_a_name_is_filed_as_its_knowledge_is(name: str, filed: str, subcommands: bool) -> None:
    record = command_for(name)
    assert (record.name, record.subcommands, record.known) == (filed, subcommands, True)


def test_a_versioned_interpreter_finds_its_record() -> None:
    assert command_for("lua5.4").interpreter == INTERPRETERS["lua"]
    assert command_for("python3.12").spec == command_for("python").spec


def test_the_verb_models_exceptions_are_in_the_record() -> None:
    assert command_for("git").own_rows and not command_for("git").subcommands
    assert command_for("npm").quiet and command_for("aws").help_last


def test_a_name_nobody_knows_has_no_knowledge() -> None:
    record = command_for("my-own-tool")
    assert (record.spec, record.effects, record.interpreter) == (None, None, None)
    assert not record.known
