"""The one bounded read of a game's map file (an arena, a Robot Game map, a cavern, a
factory): a map comes from anyone (a shared file, a download), and its reader reads at
most MAX_MAP_BYTES of a regular file. A map of every game is a few KiB; unbounded, a
map named /dev/zero would read until memory ran out, and a FIFO would wait forever."""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_MAP_BYTES = 4 << 20          # 4 MiB: the largest map a game allows is about 1 MiB


class Refused(OSError):
    """A file the reader will not read; `str()` is the reason, as `strerror` is."""

    def __str__(self) -> str:
        return self.strerror  # type: ignore[return-value]  # always made with a reason


def regular_bytes(path: str | Path, limit: int, what: str = "a map") -> bytes:
    """The bytes of a regular file of at most `limit` bytes. OSError when it cannot be
    read: FileNotFoundError for a missing one; Refused for a folder, a device, a FIFO (it
    is opened without waiting for a writer) or a file over `limit` (`what` it must be)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(errno.EINVAL, "not a regular file (a folder, a device or a pipe)")
        with os.fdopen(fd, "rb", closefd=False) as file:
            raw = file.read(limit + 1)
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise Refused(errno.EFBIG, f"the file is over {limit >> 20} MiB, more than {what} "
                                   f"can be")
    return raw


def map_text(path: str | Path, limit: int = MAX_MAP_BYTES) -> str:
    """The UTF-8 text of a map file: regular_bytes's errors, and UnicodeDecodeError when
    it is not UTF-8."""
    return regular_bytes(path, limit).decode("utf-8")
