"""What a bash started with a script or on stdin would read, read once and bounded, and the same
bytes handed back to bash: a script found as bash finds it, `/dev/fd/N` names, a copy in memory
for a regular file (so bash runs what was checked), a pipe fed from the checked bytes.
"""

from __future__ import annotations

import errno
import os
import stat


def input_limit() -> int:
    """Bytes of a script read for checking: one more than the projection checks, so anything
    longer is judged too long to check (ask) and never judged on its beginning alone."""
    from guard.projection import MAX_INPUT_BYTES

    return MAX_INPUT_BYTES + 1


def open_script(name: str) -> tuple[int, str]:
    """Open the script as bash does: `name` itself, else (no slash in it) the first readable
    file of that name in PATH. Returns the fd and the path opened; raises OSError."""
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NOCTTY
    try:
        fd, path = os.open(name, flags), name
    except FileNotFoundError:
        found = None if "/" in name else _in_path(name)
        if found is None:
            raise
        fd, path = os.open(found, flags), found
    if stat.S_ISDIR(os.fstat(fd).st_mode):
        os.close(fd)
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
    return fd, path


def _in_path(name: str) -> str | None:
    for directory in os.environ.get("PATH", "").split(":"):
        candidate = os.path.join(directory or ".", name)
        if os.path.isfile(candidate) and os.access(candidate, os.R_OK):
            return candidate
    return None


def fd_number(path: str) -> int | None:
    """N when `path` opens this process's fd N (`/dev/fd/N`, `/proc/self/fd/N`, `/dev/stdin`)."""
    names = {"/dev/stdin": "0", "/dev/stdout": "1", "/dev/stderr": "2"}
    number = names.get(path) or path.removeprefix("/dev/fd/").removeprefix("/proc/self/fd/")
    return int(number) if number != path and number.isascii() and number.isdigit() else None


def read_bounded(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = os.read(fd, min(1 << 16, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def feed_fd(data: bytes, source: int, *, more: bool) -> int:
    """An fd that reads `data`, then, when `more`, whatever is left in `source`: a file in
    memory, or a pipe filled by a detached process (double fork: nobody has to wait for it)."""
    if not more:
        return memory_file(data)
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child processes
        try:
            if os.fork() == 0:
                os.close(read_end)
                _pump(data, source, write_end)
        finally:
            os._exit(0)
    os.close(write_end)
    os.waitpid(child, 0)
    return read_end


def _pump(data: bytes, source: int, sink: int) -> None:  # pragma: no cover - child process
    try:
        while data:
            data = data[os.write(sink, data) :]
        while chunk := os.read(source, 1 << 16):
            while chunk:
                chunk = chunk[os.write(sink, chunk) :]
    except OSError:
        pass


def memory_file(data: bytes) -> int:
    """A file descriptor for an anonymous file holding `data`, positioned at its start."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("guarded-bash", os.MFD_CLOEXEC)
    else:
        import tempfile

        with tempfile.TemporaryFile() as handle:
            fd = os.dup(handle.fileno())
    write_all(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def move_fd(fd: int, number: int) -> None:
    """Put `fd` at `number`, inheritable (bash and what it starts may use it), and close `fd`."""
    if fd != number:
        os.dup2(fd, number, inheritable=True)
        os.close(fd)
    else:
        os.set_inheritable(fd, True)


def text_of(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")
