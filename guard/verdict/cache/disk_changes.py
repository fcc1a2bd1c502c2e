"""What changed on disk, told by the kernel: names in directories, and the mount table.

A long-lived process asks the same questions of the same paths on every line (where the
workspace leads, which policy files are there); `DiskChanges` lets it stop asking those the
kernel would tell it about. It watches, with inotify, every directory above each path it is
given, and this process's mount table (`/proc/self/mountinfo`, which polls as changed when a
mount is made or removed: inotify does not see mounts). `generation` moves on at every change
that may touch a path given (its name, or a name above it, made, removed, renamed, or its
mode or owner changed), at every mount change, and whenever the kernel dropped events (a full
queue) or a watch ended; changes elsewhere in those directories do not count.

What the kernel tells covers names: whether a path is there, is a directory, is a link and
where it points; and, for a file watched itself, its owner, mode and inode however it is
reached (another hard link). It does not cover what a file holds (a write through `mmap` may
not be told), nor anything a link leads to, so those are asked as before. And it
covers only file systems whose changes all pass through this kernel: ext2/3/4, XFS, Btrfs,
tmpfs, overlay and the like. On NFS, FUSE, 9p or virtiofs another machine or a host may change
a name unseen; a path with a directory on one of those is not `cover`ed.

Only Linux has inotify; elsewhere, or where it cannot be set up, `start` returns None and every
question is asked on every line, as before.
"""

from __future__ import annotations

import contextlib
import os
import select
import struct
import sys
import weakref
from collections.abc import Iterable
from stat import S_ISLNK
from typing import Any

# inotify(7)
_IN_ATTRIB = 0x4
_IN_MOVED_FROM = 0x40
_IN_MOVED_TO = 0x80
_IN_CREATE = 0x100
_IN_DELETE = 0x200
_IN_DELETE_SELF = 0x400
_IN_MOVE_SELF = 0x800
_IN_UNMOUNT = 0x2000
_IN_Q_OVERFLOW = 0x4000
_IN_IGNORED = 0x8000
_IN_DONT_FOLLOW = 0x2000000
_IN_ONLYDIR = 0x1000000
_MASK = (
    _IN_ATTRIB | _IN_MOVED_FROM | _IN_MOVED_TO | _IN_CREATE | _IN_DELETE | _IN_DELETE_SELF
    | _IN_MOVE_SELF | _IN_ONLYDIR | _IN_DONT_FOLLOW
)  # fmt: skip
_LOST = _IN_UNMOUNT | _IN_Q_OVERFLOW | _IN_IGNORED  # events dropped, or a watch gone
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then the name, NUL-padded

# statfs(2) f_type of file systems every change of which passes through this kernel
LOCAL_FILE_SYSTEMS = frozenset({
    0xEF53,  # ext2, ext3, ext4
    0x58465342,  # XFS
    0x9123683E,  # Btrfs
    0x01021994,  # tmpfs
    0x858458F6,  # ramfs
    0x794C7630,  # overlay
    0xF2F52010,  # F2FS
    0x2FC12FC1,  # ZFS
    0xCA451A4E,  # bcachefs
    0x3153464A,  # JFS
    0x52654973,  # ReiserFS
})  # fmt: skip
MAX_PATHS = 4096  # paths kept relevant; more, and the watch starts again (generation moves on)


class DiskChanges:
    """One inotify descriptor and the mount table, polled together without waiting."""

    def __init__(self, ctypes: Any, libc: Any, inotify: int, mounts: int) -> None:
        self._ctypes = ctypes
        self._libc = libc
        self._fd = inotify
        self._mounts = mounts
        self._poll = select.poll()
        self._poll.register(inotify, select.POLLIN)
        self._poll.register(mounts, select.POLLPRI)
        self._dirs: dict[int, set[str]] = {}  # watch → the directory paths it stands for
        self._watched: dict[str, int] = {}  # directory path → its watch
        self._relevant: set[str] = set()  # the paths given and every directory above them
        self._every: set[str] = set()  # directories any name in which counts
        self._statfs = ctypes.create_string_buffer(256)  # struct statfs: f_type first, a long
        self.generation = 0
        self.forked = False  # a child of the process that set it up
        watch = weakref.ref(self)
        os.register_at_fork(after_in_child=lambda: _forked(watch))

    def news(self) -> int:
        """`generation`, after what the kernel told since the last call."""
        if self.forked:  # the queue is the parent's too: what one reads the other never sees
            self.generation += 1
            return self.generation
        ready = self._poll.poll(0)
        if ready:
            self._read(ready)
        return self.generation

    def cover(
        self, paths: Iterable[str], every: Iterable[str] = (), files: Iterable[str] = ()
    ) -> bool:
        """Watch each directory above each path (each absolute); each of `every` itself, where
        any name made or removed counts; and each of `files` itself, whose owner, mode or
        inode counts however it is reached (another hard link). False when one cannot be
        watched: a file system not local, a link, no watch left. Call before the looks whose
        answers are to be vouched for, so that any change after them is told."""
        wanted: dict[str, None] = {}
        for directory in every:
            if directory[:1] != "/":
                return False
            self._every.add(directory)
            wanted[directory] = None
        files = tuple(files)
        for path in (*paths, *every, *files):
            if path[:1] != "/":
                return False
            self._relevant.add(path)
            parent = path
            while parent != "/":
                parent = parent.rsplit("/", 1)[0] or "/"
                self._relevant.add(parent)
                wanted[parent] = None
        if len(self._relevant) > MAX_PATHS:
            self._reset()
            return False
        # from the top down: a directory's watch is in place before those below it are set,
        # so a directory swapped while they are set is told; then the files, with the same
        # mask (a directory watched both ways keeps its name events)
        return all(
            self._watch(directory) for directory in sorted(wanted, key=_depth)
        ) and all(self._watch(path, _MASK & ~_IN_ONLYDIR) for path in files)

    def close(self) -> None:
        for fd in (self._fd, self._mounts):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _watch(self, directory: str, mask: int = _MASK) -> bool:
        """A watch on `directory`, set again each time (a directory renamed away leaves its
        watch on the old one); True when it is watched or not there, nor a link (its parent's
        watch tells when it comes). A directory that is a link is not watched: what is below
        it is where it points, which its parent's watch does not see."""
        name = os.fsencode(directory)
        wd = self._libc.inotify_add_watch(self._fd, name, mask)
        if wd < 0:
            return self._absent(directory)
        if mask != _MASK:  # a file's own watch (IN_DONT_FOLLOW): on a link, the link's
            try:
                if S_ISLNK(os.lstat(directory).st_mode):
                    return False
            except OSError:
                return False
        if self._libc.statfs(name, self._statfs) != 0:
            return False  # it was there a moment ago: asked again on the next line
        if struct.unpack_from("l", self._statfs)[0] & 0xFFFFFFFF not in LOCAL_FILE_SYSTEMS:
            return False
        old = self._watched.get(directory)
        if old is not None and old != wd:
            self._dirs.get(old, set()).discard(directory)
        self._watched[directory] = wd
        self._dirs.setdefault(wd, set()).add(directory)
        return True

    def _absent(self, directory: str) -> bool:
        """Whether a watch that failed failed because nothing is there to watch (no file, or
        one that is not a directory), not because it is a link or no watch is left."""
        errno = self._ctypes.get_errno()
        if errno == 2:  # ENOENT
            return True
        if errno != 20:  # ENOTDIR: a file, or a link (IN_DONT_FOLLOW), or a file above
            return False
        try:
            return not S_ISLNK(os.lstat(directory).st_mode)
        except OSError:
            return True

    def _read(self, ready: list[tuple[int, int]]) -> None:
        for fd, _ in ready:
            if fd == self._mounts:
                self.generation += 1  # a mount made or removed (the poll itself acknowledges)
        while True:
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                self._reset()
                return
            offset = 0
            while offset < len(data):
                wd, mask, _, size = _EVENT.unpack_from(data, offset)
                offset += _EVENT.size
                name = data[offset : offset + size].rstrip(b"\0")
                offset += size
                if mask & _LOST:
                    self.generation += 1
                    if mask & _IN_IGNORED:  # the directory went: its watch with it
                        for directory in self._dirs.pop(wd, ()):
                            self._watched.pop(directory, None)
                    continue
                for directory in self._dirs.get(wd, ()):
                    if not name:
                        changed = directory
                    elif directory == "/":
                        changed = "/" + os.fsdecode(name)
                    else:
                        changed = f"{directory}/{os.fsdecode(name)}"
                    if changed in self._relevant or (name and directory in self._every):
                        self.generation += 1

    def _reset(self) -> None:
        """Start again with nothing watched: what was vouched for is asked again."""
        for wd in list(self._dirs):
            self._libc.inotify_rm_watch(self._fd, wd)
        self._dirs.clear()
        self._watched.clear()
        self._relevant.clear()
        self._every.clear()
        self.generation += 1


def start() -> DiskChanges | None:
    """A `DiskChanges`, or None where the kernel cannot tell (not Linux, no inotify, no
    /proc): then nothing is vouched for, and every question is asked every line."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.inotify_add_watch.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32)
        libc.statfs.argtypes = (ctypes.c_char_p, ctypes.c_void_p)
        fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:
            return None
        try:
            mounts = os.open("/proc/self/mountinfo", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            os.close(fd)
            return None
    except (ImportError, OSError, AttributeError):
        return None
    return DiskChanges(ctypes, libc, fd, mounts)


def _forked(watch: weakref.ref[DiskChanges]) -> None:
    found = watch()
    if found is not None:
        found.forked = True


def _depth(directory: str) -> int:
    return 0 if directory == "/" else directory.count("/")
