"""One record per command (guard/knowledge/commands/command.py), found with one reader,
`command_for`: a path, a versioned name and an alias find the record of their command, and a
name no record holds has no knowledge."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import guard.knowledge.commands as commands
from guard.knowledge.commands import RECORDS, command_for
from guard.knowledge.commands.command import Command


def _families() -> dict[str, dict[str, Command]]:
    """Every module of guard/knowledge/commands/ that files records, by name."""
    found = {}
    for module in pkgutil.iter_modules(commands.__path__):
        loaded = importlib.import_module(f"guard.knowledge.commands.{module.name}")
        if hasattr(loaded, "COMMANDS"):
            found[module.name] = loaded.COMMANDS
    return found


FAMILY_TABLES = _families()


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
    assert command_for("lua5.4").interpreter == FAMILY_TABLES["interpreters"]["lua"].interpreter
    assert command_for("lua5.4").interpreter is not None
    assert command_for("python3.12").spec == command_for("python").spec


def test_the_verb_models_exceptions_are_in_the_record() -> None:
    assert command_for("git").own_rows and not command_for("git").subcommands
    assert command_for("npm").quiet and command_for("aws").help_last
    assert command_for("psql15").spec == command_for("psql").spec is not None


def test_a_name_nobody_knows_has_no_knowledge() -> None:
    record = command_for("my-own-tool")
    assert (record.spec, record.effects, record.interpreter) == (None, None, None)
    assert not record.known


def test_each_name_is_filed_in_exactly_one_family() -> None:
    seen: dict[str, list[str]] = {}
    for family, table in FAMILY_TABLES.items():
        for name in table:
            seen.setdefault(name, []).append(family)
    assert {name: families for name, families in seen.items() if len(families) > 1} == {}
    assert len(FAMILY_TABLES) >= 13 and set(seen) == set(commands.FAMILIES)


@pytest.mark.parametrize(
    ("family", "name"), [(f, n) for f, table in FAMILY_TABLES.items() for n in sorted(table)]
)
def test_the_reader_returns_the_record_its_family_filed(family: str, name: str) -> None:
    filed = FAMILY_TABLES[family][name]
    assert command_for(name) == filed._replace(name=name)
    assert command_for(f"/usr/bin/{name}") == command_for(name)


@pytest.mark.parametrize("name", sorted(commands.FAMILIES))
def test_a_record_with_subcommand_rows_says_it_has_subcommands(name: str) -> None:
    """The verb model reads a CLI's subcommands only where its record says so: a subcommand
    row or a subcommand spec without `subcommands=True` (and no `own_rows`) is a slip."""
    record = commands.FAMILIES[name]
    rows = record.effects is not None and any(row.sub for row in record.effects.effects)
    spec = record.spec is not None and record.spec.subcommands
    assert record.subcommands or record.own_rows or not (rows or spec)
    assert not (record.subcommands and record.own_rows)


def test_the_old_tables_are_gone() -> None:
    """Knowledge of a command is its record: no table beside it names commands."""
    import guard.knowledge.commands.interpreters as interpreters
    import guard.knowledge.environment as environment
    import guard.knowledge.verbs as verbs

    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("guard.knowledge.commands.effect_rows")
    for module, names in (
        (commands, ("SPECS", "TOOLS")),
        (interpreters, ("INTERPRETERS", "SPECS")),
        (verbs, ("OWN_ROWS", "QUIET", "SUBCOMMAND_CLIS")),
        (environment, ("OPTION_VARIABLES",)),
    ):
        assert [n for n in names if hasattr(module, n)] == [], module.__name__
    for family, loaded in FAMILY_TABLES.items():
        module = importlib.import_module(f"guard.knowledge.commands.{family}")
        assert not hasattr(module, "SPECS"), family
        assert loaded is module.COMMANDS
    for family, names in (
        ("build", ("RUNNERS",)),
        ("text", ("RECURSIVE_READS",)),
        ("files", ("AT_FILE_COMMANDS", "STDIN_FILE_LISTS")),
        ("containers", ("CONTAINER_COMMANDS",)),
    ):
        module = importlib.import_module(f"guard.knowledge.commands.{family}")
        assert [n for n in names if hasattr(module, n)] == [], family
    import guard.projection.accesses as accesses

    assert accesses.NAMES_ONLY is commands.NAMES_ONLY  # the walk's, read off the records
    assert not hasattr(accesses, "_METADATA_ONLY")
    import guard.approvals.arity as approval_arity

    assert not hasattr(approval_arity, "ARITY")
    assert not isinstance(getattr(approval_arity, "EXACT", 0), frozenset)  # the width, not a table


def test_what_the_readers_look_up_by_name_is_read_off_the_records() -> None:
    """A runner, a recursive read, `@FILE` lists, file names read from input and a container
    engine's host powers are fields of a command's record; the names the readers look up are
    the records that have them."""
    assert commands.RUNNERS["stack"] is command_for("stack").runner is not None
    assert command_for("stack").runner.commands["eval"] == ("ghc", "-e")
    assert commands.RECURSIVE_READS["rg"] is command_for("rg").recursive_read is not None
    assert command_for("tar").recursive_read.old_style  # type: ignore[union-attr]
    assert {"nm", "gcc", "strings"} <= commands.AT_FILE_COMMANDS and command_for("nm").at_files
    assert commands.STDIN_FILE_LISTS["zip"] == command_for("zip").stdin_file_list == {"-@"}
    assert command_for("ls").names_only and "ls" in commands.NAMES_ONLY
    assert command_for("chmod").metadata_only and "chattr" in commands.METADATA_ONLY
    assert commands.CORNERS["curl"] == command_for("wget").corners == {"downloads"}
    assert command_for("cat").prints_files is not None and command_for("gzip").prints_files
    assert {"docker", "podman", "nerdctl"} == commands.CONTAINER_COMMANDS
    assert command_for("my-own-tool").runner is None and not command_for("my-own-tool").at_files


def test_a_variable_carrying_options_is_filed_on_its_command() -> None:
    assert dict(command_for("node").env)["NODE_OPTIONS"].tool == "node"
    assert "RUSTFLAGS" in dict(command_for("cargo").env)
    assert "GOFLAGS" in dict(command_for("go").env)
    assert "MAKEFLAGS" in dict(command_for("make").env)
    assert "JAVA_TOOL_OPTIONS" in dict(command_for("java").env)
    node = dict(command_for("node").env)["NODE_OPTIONS"]
    assert commands.OPTION_VARIABLES["NODE_OPTIONS"] is node


def test_approval_widths_are_in_the_records() -> None:
    assert dict(command_for("npm").arity) == {"": 2, "run": 3, "exec": 0, "x": 0}
    assert dict(command_for("python3").arity) == {"": 0}
    assert command_for("my-own-tool").arity == ()


@pytest.mark.parametrize("name", ["terraform", "pulumi", "doctl", "aws", "kubeadm"])
def test_a_cloud_cli_is_read_by_the_verb_model(name: str) -> None:
    record = command_for(name)
    assert record.subcommands and record.name == name
