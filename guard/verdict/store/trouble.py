"""What a session knows of its store: whether it worked, and whether the session was told why
it did not — kept across the session's processes, so a store guard cannot use is reported once
per session on every entry point, whichever process finds out.

One small file per session in `$XDG_RUNTIME_DIR/guard/store-state/` (0700, the user's own),
holding three lines: the state, the store's path, the problem. The states:

- `ok`: a row was written to this store in this session; an edge that writes its rows after the
  line has started (guarded-bash's forked child, the checkers' audit threads) may keep doing so;
- `failed`: such a row could not be written; nobody has been told yet, so the session's next
  line writes its row before it runs, and says why when it cannot;
- `told`: the session has been shown this problem; the next problem (another one, or the same
  after the store worked again) is shown again.

No state (no file yet, another store, a runtime directory guard cannot use) counts as not known:
the row is written before the line runs. The file decides nothing but when a warning is shown
and whether a row may be written late: where the managed policy keeps an audit log, every row
is written before its line runs whatever it says (guard/verdict/store/audit.py).
"""

from __future__ import annotations

import os

OK, FAILED, TOLD = "ok", "failed", "told"
FOLDER = "store-state"


_PATHS: dict[tuple[str | None, ...], str] = {}


def store_path_text() -> str:
    """The default store's path as text, or "" when it cannot be named (the error says why
    where the store is opened). Asked on every line: kept for the variables it follows."""
    get = os.environ.get
    key = (get("GUARD_STATE_DIR"), get("XDG_STATE_HOME"), get("HOME"))
    found = _PATHS.get(key)
    if found is None:
        from guard.dirs import default_store_path
        from guard.errors import GuardError

        try:
            found = str(default_store_path())
        except GuardError:
            found = ""
        if len(_PATHS) > 16:
            _PATHS.clear()
        _PATHS[key] = found
    return found


def state(session: str, store: str) -> tuple[str, str]:
    """The session's (state, problem) for the store at `store`; ("", "") when not known."""
    path = _file(session, create=False)
    if path is None:
        return "", ""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        try:
            data = os.read(fd, 8192)
        finally:
            os.close(fd)
    except OSError:
        return "", ""
    kind, _, rest = data.decode("utf-8", "surrogateescape").partition("\n")
    where, _, problem = rest.partition("\n")
    if where != store or kind not in (OK, FAILED, TOLD):
        return "", ""
    return kind, problem.rstrip("\n")


def worked(session: str, store: str) -> None:
    """A row was written: the session's later rows may be written late."""
    if state(session, store)[0] != OK:
        _write(session, OK, store, "")


def failed(session: str, store: str, problem: str) -> None:
    """A row written late could not be written: the next line is to say so (unless the
    session was told this already)."""
    if state(session, store) != (TOLD, problem):
        _write(session, FAILED, store, problem)


def tell(session: str, store: str, problem: str) -> bool:
    """Whether to show `problem` now: not when this session was shown it already. Marks it
    shown; where that cannot be kept, every line shows it."""
    if state(session, store) == (TOLD, problem):
        return False
    _write(session, TOLD, store, problem)
    return True


def _write(session: str, kind: str, store: str, problem: str) -> None:
    path = _file(session, create=True)
    if path is None:
        return
    text = f"{kind}\n{store}\n{' '.join(problem.split())}\n"
    folder, name = os.path.split(path)
    if not os.path.lexists(path):
        _prune(folder)  # a new session: let those long gone go
    temporary = os.path.join(folder, f".{name}.{os.getpid()}")  # no session's name starts so
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, text.encode("utf-8", "surrogateescape"))
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except OSError:
        try:  # noqa: SIM105 - contextlib would cost guarded-bash's path an import
            os.unlink(temporary)
        except OSError:
            pass


KEPT_SECONDS = 7 * 24 * 3600  # a session's file outlives any idle time (it is a few bytes)


def _prune(folder: str) -> None:
    """Remove the files of sessions not heard of for `KEPT_SECONDS` (a runtime directory on
    tmpfs goes at logout anyway; its /tmp fallback does not)."""
    import time

    old = time.time() - KEPT_SECONDS
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    if entry.stat(follow_symlinks=False).st_mtime < old:
                        os.unlink(entry.path)
                except OSError:
                    pass
    except OSError:
        pass


def _file(session: str, *, create: bool) -> str | None:
    """The session's file in a private folder of the runtime directory, or None when there is
    no such folder guard may use."""
    from guard import dirs

    runtime = dirs.user_runtime_dir()
    folder = os.path.join(runtime, FOLDER)
    if create:
        try:  # guard's runtime directory is 0700 too (the checker's socket lives there)
            for made in (os.path.dirname(runtime), runtime, folder):
                if not os.path.isdir(made):
                    os.makedirs(made, mode=0o700, exist_ok=True)
        except OSError:
            return None
    try:
        info = os.lstat(folder)
    except OSError:
        return None
    import stat

    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None  # not ours alone: what it says could be anyone's
    return os.path.join(folder, _name(session))


def _name(session: str) -> str:
    plain = session.replace("-", "").replace("_", "").replace(".", "")
    if session and len(session) <= 100 and session[0] != "." and plain.isascii() and (
        plain.isalnum() or not plain
    ):
        return session
    import hashlib

    return "h-" + hashlib.sha256(session.encode("utf-8", "surrogateescape")).hexdigest()[:40]
