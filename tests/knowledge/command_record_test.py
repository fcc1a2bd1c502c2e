"""One record per command (guard/knowledge/commands/command.py): for every name any table
knows, the record holds exactly what the tables say, and a name no table knows has none."""

from __future__ import annotations

import pytest

from guard.knowledge.commands import SPECS, spec_for
from guard.knowledge.commands.command import command_for, known
from guard.knowledge.commands.interpreters import INTERPRETERS
from guard.knowledge.effect_knowledge import TOOLS
from guard.knowledge.verbs import OWN_ROWS, QUIET

NAMES = sorted({*SPECS, *TOOLS, *INTERPRETERS})


@pytest.mark.parametrize("name", NAMES)
def test_the_record_of_each_name_is_what_its_tables_say(name: str) -> None:
    record = command_for(name)
    assert record.spec == spec_for(name)
    assert record.effects == TOOLS.get(record.name)
    if record.effects is None:
        assert record.interpreter == INTERPRETERS.get(record.name)
    assert record.own_rows == OWN_ROWS.get(record.name, "")
    assert record.quiet == QUIET.get(record.name, ())
    assert known(name)


@pytest.mark.parametrize(
    ("name", "filed", "subcommands"),
    [
        ("/usr/bin/git", "git", False),  # its rows say everything
        ("kubectl", "kubectl", True),
        ("npm", "npm", True),
        ("mkfs.ext4", "mkfs", False),
        ("python3.12", "python3.12", False),
        ("rm", "rm", False),
    ],
)
def test_a_name_is_filed_as_its_knowledge_is(name: str, filed: str, subcommands: bool) -> None:
    record = command_for(name)
    assert (record.name, record.subcommands) == (filed, subcommands)


def test_a_versioned_interpreter_finds_its_record() -> None:
    assert command_for("lua5.4").interpreter == INTERPRETERS["lua"]


def test_a_name_nobody_knows_has_no_knowledge() -> None:
    record = command_for("my-own-tool")
    assert (record.spec, record.effects, record.interpreter) == (None, None, None)
    assert not known("my-own-tool")
