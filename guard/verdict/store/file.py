"""The approvals store's file: where it is, kept private to its user (a 0700 directory, 0600
files), the one connection every read and write goes through, and what a failure means: one
``GuardError`` that says what is wrong and what to do.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from guard.dirs import STORE_FALLBACK
from guard.dirs import default_store_path as default_store_path  # where the store is
from guard.errors import GuardError

BUSY_SECONDS = 5.0
FALLBACK = STORE_FALLBACK  # what each message ends with


class StoreConnection:
    """An open connection to the store's file: a read turns any failure into ``GuardError``,
    a write is one ``BEGIN IMMEDIATE`` transaction."""

    def __init__(self, path: Path, connection: sqlite3.Connection, busy_seconds: float) -> None:
        self.path = path
        self._con = connection
        self._busy_seconds = busy_seconds

    @contextmanager
    def _failures(self) -> Iterator[None]:
        try:
            yield
        except (sqlite3.Error, OSError) as exc:
            raise explain(exc, self.path, self._busy_seconds) from exc

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        con = self._con
        with self._failures():
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con
                con.execute("COMMIT")
            except BaseException:
                if con.in_transaction:
                    with suppress(sqlite3.Error):  # the first failure is the one to report
                        con.execute("ROLLBACK")
                raise


def prepare_store_file(path: Path) -> None:
    """Create the directory (0700) and the file (0600) ourselves, so that SQLite's -wal and
    -shm files inherit the mode and an unusable location is named by its errno."""
    directory = path.parent
    if not directory.is_dir():
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(directory, 0o700)  # the umask may have taken bits we need
    else:
        _private(directory)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        status = os.fstat(fd)
        if status.st_uid != os.geteuid():
            # Another user's store: its approvals are not ours to trust, and our -wal and -shm
            # files would lock its owner out.
            raise GuardError(
                f"guard: the approvals store {path} belongs to another user (uid "
                f"{status.st_uid}); use your own: point GUARD_STATE_DIR at a directory you own "
                f"— {FALLBACK}"
            )
        if status.st_mode & 0o777 != 0o600:
            os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


def _private(directory: Path) -> None:
    """A state directory that group or others may write lets them swap the store for one with
    their approvals in it. One of ours that holds nothing but the store is tightened to 0700;
    any other (a shared one such as /tmp, someone else's, one with other files) is refused."""
    status = directory.stat()
    if not status.st_mode & 0o022:
        return
    ours = status.st_uid == os.geteuid() and not status.st_mode & 0o1000  # no sticky /tmp
    if ours and all(name.startswith("guard.db") for name in os.listdir(directory)):
        os.chmod(directory, 0o700)
        return
    raise GuardError(
        f"guard: the state directory {directory} can be written by others "
        f"(mode {status.st_mode & 0o7777:o}), so they could replace your approvals; "
        f"run `chmod 700 {directory}` or point GUARD_STATE_DIR at a private directory — "
        f"{FALLBACK}"
    )


def tighten_store_files(path: Path) -> None:
    """Make -wal and -shm files left by an older, looser store 0600 too."""
    for suffix in ("-wal", "-shm"):
        try:
            side = Path(f"{path}{suffix}")
            if side.stat().st_mode & 0o777 != 0o600:
                os.chmod(side, 0o600)
        except OSError:
            pass  # absent, or not ours: SQLite reports real trouble itself


def explain(exc: BaseException, path: Path, busy_seconds: float = BUSY_SECONDS) -> GuardError:
    """One line that says what is wrong with the store at ``path`` and what to do."""
    detail = " ".join(str(exc).split()) or type(exc).__name__
    directory = path.parent
    where = f"or point GUARD_STATE_DIR at a writable directory — {FALLBACK}"
    if isinstance(exc, OSError):
        code = exc.errno
        detail = " ".join((exc.strerror or detail).split())
        if code == errno.EISDIR or _probe(path.is_dir):
            return GuardError(
                f"guard: the approvals store {path} is a directory, not a file; move it aside "
                f"(guard makes a new store) — {FALLBACK}"
            )
        blocking = _file_above(path) if code in (errno.EEXIST, errno.ENOTDIR) else None
        if blocking is not None:
            return GuardError(
                f"guard: the state directory {blocking} is a file, not a directory, so the "
                f"approvals store {path} cannot be made; move it aside (guard makes a new "
                f"store), {where}"
            )
        if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
            return _full(path, detail)
        if code == errno.EROFS:
            return GuardError(
                f"guard: cannot write the approvals store {path}: the file system is read-only; "
                f"{where}"
            )
        if not _probe(path.exists):
            return GuardError(
                f"guard: cannot create the approvals store {path} ({detail}); make {directory} "
                f"writable by you, {where}"
            )
        return GuardError(
            f"guard: cannot open the approvals store {path} ({detail}); make sure you own it "
            f"and can write to {directory}, move it aside (guard makes a new store), {where}"
        )
    primary = int(getattr(exc, "sqlite_errorcode", -1)) & 0xFF
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return GuardError(
            f"guard: the approvals store {path} is damaged ({detail}); move it aside "
            f"(guard makes a new store) — {FALLBACK}"
        )
    if primary == sqlite3.SQLITE_FULL:
        return _full(path, detail)
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return GuardError(
            f"guard: the approvals store {path} stayed locked for {busy_seconds:g} s ({detail}); "
            f"another guard process may be stuck — find it with `fuser {path}` — {FALLBACK}"
        )
    if primary in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM):
        return GuardError(
            f"guard: cannot open the approvals store {path} ({detail}); make sure you own it "
            f"and its -wal and -shm files and can write to {directory}, move them aside (guard "
            f"makes a new store), {where}"
        )
    if primary == sqlite3.SQLITE_IOERR:
        return GuardError(
            f"guard: could not read or write the approvals store {path} ({detail}); check the "
            f"disk and its file system — {FALLBACK}"
        )
    return GuardError(
        f"guard: the approvals store {path} failed ({detail}); if this persists, move it aside "
        f"to start a new one — {FALLBACK}"
    )


def _file_above(path: Path) -> Path | None:
    """The nearest directory on the way to `path` that is something else (a file, a link to
    one), or None."""
    for parent in path.parents:
        try:
            if parent.is_dir():
                return None
            if parent.exists() or parent.is_symlink():
                return parent
        except OSError:
            return None
    return None


def _probe(question: Callable[[], bool]) -> bool:
    try:
        return question()
    except OSError:
        return False


def _full(path: Path, detail: str) -> GuardError:
    return GuardError(
        f"guard: cannot write the approvals store {path}: the disk is full ({detail}); free "
        f"some space on it — {FALLBACK}"
    )
