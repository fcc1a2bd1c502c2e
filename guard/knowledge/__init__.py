"""What commands, environment variables and tools do, as data: tables, records and small pure
lookups. The code that reads the languages they carry is guard/languages/."""

from __future__ import annotations

from guard.stage_front import front

TYPE_CHECKING = False  # typing's costs an import the checker's fast path does not make

if TYPE_CHECKING:
    from guard.knowledge.commands import AT_FILE_COMMANDS as AT_FILE_COMMANDS
    from guard.knowledge.commands import BUILDERS as BUILDERS
    from guard.knowledge.commands import CONTAINER_COMMANDS as CONTAINER_COMMANDS
    from guard.knowledge.commands import COPIERS as COPIERS
    from guard.knowledge.commands import CORNERS as CORNERS
    from guard.knowledge.commands import HOME_COMMANDS as HOME_COMMANDS
    from guard.knowledge.commands import METADATA_ONLY as METADATA_ONLY
    from guard.knowledge.commands import NAMES_ONLY as NAMES_ONLY
    from guard.knowledge.commands import OPTION_VARIABLES as OPTION_VARIABLES
    from guard.knowledge.commands import RECURSIVE_READS as RECURSIVE_READS
    from guard.knowledge.commands import RUNNERS as RUNNERS
    from guard.knowledge.commands import STDIN_FILE_LISTS as STDIN_FILE_LISTS
    from guard.knowledge.commands import command_for as command_for
    from guard.knowledge.commands.archives import CPIO_EXTRACTS as CPIO_EXTRACTS
    from guard.knowledge.commands.build import CMAKE_COMMANDS as CMAKE_COMMANDS
    from guard.knowledge.commands.build import COMPILER_LINKER as COMPILER_LINKER
    from guard.knowledge.commands.command import EXACT as EXACT
    from guard.knowledge.commands.command import Command as Command
    from guard.knowledge.commands.containers import BWRAP_OPTIONS as BWRAP_OPTIONS
    from guard.knowledge.commands.containers import CONTAINER_HOST_POWERS as CONTAINER_HOST_POWERS
    from guard.knowledge.commands.effect import Effect as Effect
    from guard.knowledge.commands.effect import Tool as Tool
    from guard.knowledge.commands.files import FILE_TEST_OPERATORS as FILE_TEST_OPERATORS
    from guard.knowledge.commands.files import FIND_NARROWING as FIND_NARROWING
    from guard.knowledge.commands.files import SYSTEM_BIN_DIRS as SYSTEM_BIN_DIRS
    from guard.knowledge.commands.files import find_deleter as find_deleter
    from guard.knowledge.commands.interpreter import CODE_OPTIONS as CODE_OPTIONS
    from guard.knowledge.commands.interpreter import Interpreter as Interpreter
    from guard.knowledge.commands.network import SSH_CODE_KEYS as SSH_CODE_KEYS
    from guard.knowledge.commands.option_table import OptionTable as OptionTable
    from guard.knowledge.commands.shells import PARALLEL as PARALLEL
    from guard.knowledge.commands.shells import RUNUSER_AS_WRAPPER as RUNUSER_AS_WRAPPER
    from guard.knowledge.commands.shells import SU as SU
    from guard.knowledge.commands.shells import is_shell as is_shell
    from guard.knowledge.commands.spec import TEXT_VALUES as TEXT_VALUES
    from guard.knowledge.commands.spec import Role as Role
    from guard.knowledge.commands.spec import Spec as Spec
    from guard.knowledge.commands.system import SCHEDULER_READ_ONLY as SCHEDULER_READ_ONLY
    from guard.knowledge.commands.text import AWK_RUNS as AWK_RUNS
    from guard.knowledge.commands.text import AWK_WRITES as AWK_WRITES
    from guard.knowledge.commands.text import MILLER_RUNS as MILLER_RUNS
    from guard.knowledge.commands.text import MILLER_WRITES as MILLER_WRITES
    from guard.knowledge.commands.vcs import GIT as GIT
    from guard.knowledge.commands.vcs import GIT_CODE_KEYS as GIT_CODE_KEYS
    from guard.knowledge.commands.vcs import GIT_CONFIG_READS as GIT_CONFIG_READS
    from guard.knowledge.commands.vcs import GIT_GLOBAL_VALUES as GIT_GLOBAL_VALUES
    from guard.knowledge.commands.vcs import GIT_HARMLESS_KEYS as GIT_HARMLESS_KEYS
    from guard.knowledge.commands.vcs import GIT_OTHER as GIT_OTHER
    from guard.knowledge.commands.vcs import GIT_SUBCOMMANDS as GIT_SUBCOMMANDS
    from guard.knowledge.environment import ENVIRONMENT as ENVIRONMENT
    from guard.knowledge.environment import GUARDS_MODULES as GUARDS_MODULES
    from guard.knowledge.environment import PYTHON_PATHS as PYTHON_PATHS
    from guard.knowledge.environment import env_role as env_role
    from guard.knowledge.environment import named as named
    from guard.knowledge.environment import names_files as names_files
    from guard.knowledge.environment import options_read_as as options_read_as
    from guard.knowledge.producers import PRODUCERS as PRODUCERS
    from guard.knowledge.producers import Producer as Producer
    from guard.knowledge.verbs import COMPOUND_LENGTH as COMPOUND_LENGTH
    from guard.knowledge.verbs import DESTRUCTIVE_OPTIONS as DESTRUCTIVE_OPTIONS
    from guard.knowledge.verbs import DESTRUCTIVE_VERBS as DESTRUCTIVE_VERBS
    from guard.knowledge.verbs import PATH_ENDS as PATH_ENDS
    from guard.knowledge.verbs import PATH_LENGTH as PATH_LENGTH
    from guard.knowledge.verbs import SCALE_VERBS as SCALE_VERBS
    from guard.knowledge.verbs import ZERO_COUNTS as ZERO_COUNTS
    from guard.knowledge.vital_paths import DISK as DISK
    from guard.knowledge.vital_paths import EVERY_NAME as EVERY_NAME
    from guard.knowledge.vital_paths import HOME_PARENTS as HOME_PARENTS
    from guard.knowledge.vital_paths import SYSTEM_DIRS as SYSTEM_DIRS

# what the stage offers the stages after it, and the module each lives in (guard/stage_front.py)
_WHERE: dict[str, str] = {
    "BUILDERS": "guard.knowledge.commands",
    "HOME_COMMANDS": "guard.knowledge.commands",
    "COPIERS": "guard.knowledge.commands",
    "AT_FILE_COMMANDS": "guard.knowledge.commands",
    "AWK_RUNS": "guard.knowledge.commands.text",
    "AWK_WRITES": "guard.knowledge.commands.text",
    "MILLER_RUNS": "guard.knowledge.commands.text",
    "MILLER_WRITES": "guard.knowledge.commands.text",
    "BWRAP_OPTIONS": "guard.knowledge.commands.containers",
    "COMPILER_LINKER": "guard.knowledge.commands.build",
    "COMPOUND_LENGTH": "guard.knowledge.verbs",
    "CONTAINER_COMMANDS": "guard.knowledge.commands",
    "CORNERS": "guard.knowledge.commands",
    "CONTAINER_HOST_POWERS": "guard.knowledge.commands.containers",
    "CODE_OPTIONS": "guard.knowledge.commands.interpreter",
    "CPIO_EXTRACTS": "guard.knowledge.commands.archives",
    "Command": "guard.knowledge.commands.command",
    "DESTRUCTIVE_OPTIONS": "guard.knowledge.verbs",
    "DESTRUCTIVE_VERBS": "guard.knowledge.verbs",
    "DISK": "guard.knowledge.vital_paths",
    "ENVIRONMENT": "guard.knowledge.environment",
    "EVERY_NAME": "guard.knowledge.vital_paths",
    "EXACT": "guard.knowledge.commands.command",
    "Effect": "guard.knowledge.commands.effect",
    "FILE_TEST_OPERATORS": "guard.knowledge.commands.files",
    "FIND_NARROWING": "guard.knowledge.commands.files",
    "GIT": "guard.knowledge.commands.vcs",
    "GIT_CODE_KEYS": "guard.knowledge.commands.vcs",
    "GIT_CONFIG_READS": "guard.knowledge.commands.vcs",
    "GIT_GLOBAL_VALUES": "guard.knowledge.commands.vcs",
    "GIT_HARMLESS_KEYS": "guard.knowledge.commands.vcs",
    "GIT_OTHER": "guard.knowledge.commands.vcs",
    "GIT_SUBCOMMANDS": "guard.knowledge.commands.vcs",
    "GUARDS_MODULES": "guard.knowledge.environment",
    "HOME_PARENTS": "guard.knowledge.vital_paths",
    "Interpreter": "guard.knowledge.commands.interpreter",
    "OPTION_VARIABLES": "guard.knowledge.commands",
    "OptionTable": "guard.knowledge.commands.option_table",
    "PARALLEL": "guard.knowledge.commands.shells",
    "PATH_ENDS": "guard.knowledge.verbs",
    "PATH_LENGTH": "guard.knowledge.verbs",
    "PRODUCERS": "guard.knowledge.producers",
    "PYTHON_PATHS": "guard.knowledge.environment",
    "Producer": "guard.knowledge.producers",
    "RECURSIVE_READS": "guard.knowledge.commands",
    "METADATA_ONLY": "guard.knowledge.commands",
    "NAMES_ONLY": "guard.knowledge.commands",
    "RUNNERS": "guard.knowledge.commands",
    "CMAKE_COMMANDS": "guard.knowledge.commands.build",
    "RUNUSER_AS_WRAPPER": "guard.knowledge.commands.shells",
    "Role": "guard.knowledge.commands.spec",
    "SCALE_VERBS": "guard.knowledge.verbs",
    "ZERO_COUNTS": "guard.knowledge.verbs",
    "SCHEDULER_READ_ONLY": "guard.knowledge.commands.system",
    "SSH_CODE_KEYS": "guard.knowledge.commands.network",
    "STDIN_FILE_LISTS": "guard.knowledge.commands",
    "SU": "guard.knowledge.commands.shells",
    "SYSTEM_BIN_DIRS": "guard.knowledge.commands.files",
    "SYSTEM_DIRS": "guard.knowledge.vital_paths",
    "Spec": "guard.knowledge.commands.spec",
    "TEXT_VALUES": "guard.knowledge.commands.spec",
    "Tool": "guard.knowledge.commands.effect",
    "command_for": "guard.knowledge.commands",
    "env_role": "guard.knowledge.environment",
    "find_deleter": "guard.knowledge.commands.files",
    "is_shell": "guard.knowledge.commands.shells",
    "named": "guard.knowledge.environment",
    "names_files": "guard.knowledge.environment",
    "options_read_as": "guard.knowledge.environment",
}
_MODULES: frozenset[str] = frozenset()
__all__ = sorted(_WHERE)

__getattr__ = front(__name__, _WHERE, _MODULES)
