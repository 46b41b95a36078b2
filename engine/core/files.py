"""Atomic file writes, and reads that never wait on a file that is not a regular file.

A save keeps what the user set up around the file: the mode of an existing file (a new one
gets 0666 less the umask, as `open` would give it), and a symbolic link stays a link, the
write goes to its target. A read-only target is refused with `ReadOnlyFile`, never
overwritten behind the user's back. `read_regular` refuses a FIFO, a device, a socket or a
folder at once (`NotRegularFile`): opening a FIFO for reading waits for a writer, and a device
such as /dev/zero never ends.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import threading
from pathlib import Path

_UMASK_LOCK = threading.Lock()


class ReadOnlyFile(PermissionError):
    """The file to save is read-only; the message says so in the user's terms."""

    def __init__(self, path: Path) -> None:
        self.message = f"{path} is read-only; make it writable or save under another name"
        super().__init__(errno.EACCES, self.message)
        self.path = path

    def __str__(self) -> str:
        return self.message


class NotRegularFile(OSError):
    """A path to read is a FIFO, device, socket or folder; the message names which."""

    def __init__(self, path: str | Path, what: str) -> None:
        self.message = f"not a regular file but {what}"
        super().__init__(errno.EINVAL, self.message, str(path))

    def __str__(self) -> str:
        return self.message


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def read_regular(path: str | Path, limit: int = -1) -> bytes:
    """The bytes of a regular file (at most `limit`, -1: all); `NotRegularFile` for anything
    else, found without waiting: the file is opened non-blocking and checked before reading."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, next((what for test, what in _KINDS if test(mode)), "a special file"))
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        return fh.read(limit)


def _umask() -> int:
    with _UMASK_LOCK:  # os.umask can only be read by setting it
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def save_target(path: str | Path) -> Path:
    """The file a save to `path` writes: the final target when `path` is a symbolic link."""
    path = Path(path)
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write `data` so that readers see either the old file or the new one, never half."""
    path = save_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    else:
        # root may write anything: check the mode bits, not os.access
        if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
            raise ReadOnlyFile(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))
