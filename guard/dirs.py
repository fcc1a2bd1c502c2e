"""Where guard keeps the user's policy and state: platformdirs' answer, found cheaply on Linux;
and where the approvals store is (found without importing SQLite).

On Linux platformdirs follows the XDG base directory spec, which takes two lines; importing it
costs a few milliseconds on every check, so it is imported only on other systems.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path

STORE_FALLBACK = "verdicts use the policy alone until then"


def environ_get(name: str, default: str = "") -> str:
    """`os.environ.get(name, default)` without its cost for a name that is not set: that
    raises and catches a KeyError inside os (some 5 µs, on every line a long-lived checker
    judges). Asked of the mapping os.environ reads itself, with its own key and value codecs."""
    env = os.environ
    data = getattr(env, "_data", None)
    encode = getattr(env, "encodekey", None)
    decode = getattr(env, "decodevalue", None)
    if not isinstance(data, dict) or encode is None or decode is None:
        return env.get(name, default)
    found = data.get(encode(name))
    if found is None:
        return default
    value: str = decode(found)
    return value


def default_store_path() -> Path:
    """``$GUARD_STATE_DIR/guard.db``, else ``guard.db`` in the platform's user state directory."""
    given = environ_get("GUARD_STATE_DIR")
    if given:
        base = Path(given).expanduser()
        if not base.is_absolute():
            from guard.errors import GuardError

            raise GuardError(
                f"guard: GUARD_STATE_DIR must be an absolute path, not {given!r}; "
                f"set it to one — {STORE_FALLBACK}"
            )
        return base / "guard.db"
    return Path(user_state_dir()) / "guard.db"


def user_config_dir() -> str:
    if sys.platform.startswith("linux"):
        return os.path.join(_xdg("XDG_CONFIG_HOME", ".config"), "guard")
    import platformdirs

    return platformdirs.user_config_dir("guard")


def user_state_dir() -> str:
    if sys.platform.startswith("linux"):
        return os.path.join(_xdg("XDG_STATE_HOME", os.path.join(".local", "state")), "guard")
    import platformdirs

    return platformdirs.user_state_dir("guard")


def _xdg(name: str, fallback: str) -> str:
    given = environ_get(name).strip()
    if given and os.path.isabs(given):
        return given
    return os.path.join(_home(), fallback)


def _home() -> str:
    """`os.path.expanduser("~")`, reading $HOME once (a long-lived checker asks every line)."""
    home = os.environ.get("HOME")
    if home is None:
        return os.path.expanduser("~")  # the password database's
    return home.rstrip("/") or "/"


def user_runtime_dir() -> str:
    """Where guard's sockets live: `$XDG_RUNTIME_DIR/guard`; without it (sshd sessions, agents)
    the same fallback platformdirs uses, /tmp/runtime-UID, but without its warning on stderr."""
    if sys.platform.startswith("linux"):
        given = environ_get("XDG_RUNTIME_DIR").strip()
        base = given if given and os.path.isabs(given) else f"/tmp/runtime-{_uid()}"
        return os.path.join(base, "guard")
    import warnings

    import platformdirs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return platformdirs.user_runtime_dir("guard")


@cache
def _uid() -> int:
    """This process's user id, asked once: guard never changes it (a system call saved on
    every line a long-lived checker judges)."""
    return os.getuid()


def guard_program() -> str | None:
    """The absolute path of the guard program to hand to a shell hook or an agent's config:
    the one running (argv[0], when it is an executable named guard), else the one next to this
    Python (the same install, run as `python -m guard`), else the one on PATH; None when there
    is none. Each caller says what to do without one."""
    import shutil

    here = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if here and os.path.basename(here) == "guard" and os.access(here, os.X_OK):
        return here
    beside = os.path.join(os.path.dirname(sys.executable), "guard")
    if sys.executable and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("guard")
    return os.path.abspath(found) if found else None
