"""The languages commands carry, read as code: an argv by its command's spec, SQL, sed programs,
inline interpreter code, ed's commands, bash's own argv, URLs and HTTP request items. Below
projection, above knowledge (whose tables they read); pure functions of text."""

from __future__ import annotations

from guard.stage_front import front

TYPE_CHECKING = False  # typing's costs an import the checker's fast path does not make

if TYPE_CHECKING:
    from guard.languages.arguments import ACCESS_ROLES as ACCESS_ROLES
    from guard.languages.arguments import Reading as Reading
    from guard.languages.arguments import is_local_path as is_local_path
    from guard.languages.arguments import looks_like_path as looks_like_path
    from guard.languages.arguments import path_part as path_part
    from guard.languages.arguments import read_argv as read_argv
    from guard.languages.bash_argv import BashInvocation as BashInvocation
    from guard.languages.bash_argv import parse_bash_argv as parse_bash_argv
    from guard.languages.ed_script import ed_findings as ed_findings
    from guard.languages.effect_argv import Parsed as Parsed
    from guard.languages.effect_argv import given as given
    from guard.languages.effect_argv import parse as parse
    from guard.languages.inline_code import python_findings as python_findings
    from guard.languages.inline_code import script_findings as script_findings
    from guard.languages.inline_code import vim_findings as vim_findings
    from guard.languages.network_effects import fed_to_host as fed_to_host
    from guard.languages.network_effects import http_upload as http_upload
    from guard.languages.network_effects import sftp_host as sftp_host
    from guard.languages.producer_output import printed_files as printed_files
    from guard.languages.producer_output import printed_roots as printed_roots
    from guard.languages.producer_output import printed_text as printed_text
    from guard.languages.sed_program import sed_effects as sed_effects
    from guard.languages.sql import DIALECTS as DIALECTS
    from guard.languages.sql import sql_effects as sql_effects
    from guard.languages.sql_destroying import destroying_statement as destroying_statement

# what the stage offers the stages after it, and the module each lives in (guard/stage_front.py)
_WHERE: dict[str, str] = {
    "ACCESS_ROLES": "guard.languages.arguments",
    "BashInvocation": "guard.languages.bash_argv",
    "DIALECTS": "guard.languages.sql",
    "Parsed": "guard.languages.effect_argv",
    "Reading": "guard.languages.arguments",
    "destroying_statement": "guard.languages.sql_destroying",
    "ed_findings": "guard.languages.ed_script",
    "fed_to_host": "guard.languages.network_effects",
    "given": "guard.languages.effect_argv",
    "http_upload": "guard.languages.network_effects",
    "is_local_path": "guard.languages.arguments",
    "looks_like_path": "guard.languages.arguments",
    "parse": "guard.languages.effect_argv",
    "parse_bash_argv": "guard.languages.bash_argv",
    "path_part": "guard.languages.arguments",
    "printed_files": "guard.languages.producer_output",
    "printed_roots": "guard.languages.producer_output",
    "printed_text": "guard.languages.producer_output",
    "python_findings": "guard.languages.inline_code",
    "read_argv": "guard.languages.arguments",
    "script_findings": "guard.languages.inline_code",
    "sed_effects": "guard.languages.sed_program",
    "sftp_host": "guard.languages.network_effects",
    "sql_effects": "guard.languages.sql",
    "vim_findings": "guard.languages.inline_code",
}
_MODULES: frozenset[str] = frozenset()
__all__ = sorted(_WHERE)

__getattr__ = front(__name__, _WHERE, _MODULES)
