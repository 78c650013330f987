"""Length-prefixed msgpack frames: the only thing that crosses between host and child.

Shared by both sides, as `_wire` in both (the host through `sandbox.botlib.child_module`).
"""
import os
import struct

import msgpack

HEADER = struct.Struct(">I")


class FrameError(Exception):
    """A frame that is too big, cut short or not valid msgpack."""


def pack(obj) -> bytes:
    data = msgpack.packb(obj, use_bin_type=True)
    return HEADER.pack(len(data)) + data


def unpack(data: bytes):
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False)
    except Exception as exc:        # msgpack raises several unrelated types
        raise FrameError(f"malformed msgpack frame ({type(exc).__name__})") from None


def write_frame(fd: int, obj) -> None:
    """Write one frame to a blocking fd."""
    view = memoryview(pack(obj))
    while view:
        view = view[os.write(fd, view):]


def _read_exact(fd: int, n: int) -> bytes:
    chunks, need = [], n
    while need:
        chunk = os.read(fd, min(need, 1 << 20))
        if not chunk:
            raise EOFError("pipe closed")
        chunks.append(chunk)
        need -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, limit: int):
    """Read one frame from a blocking fd; refuse one longer than `limit` bytes."""
    (size,) = HEADER.unpack(_read_exact(fd, HEADER.size))
    if size > limit:
        raise FrameError(f"frame of {size} bytes exceeds the {limit}-byte cap")
    return unpack(_read_exact(fd, size))


class FrameReader:
    """Assembles frames from a non-blocking fd, never buffering more than one capped frame."""

    def __init__(self, fd: int, limit: int) -> None:
        self.fd = fd
        self.limit = limit
        self.buffer = bytearray()
        self.size = None

    def feed(self):
        """Read what is available. Returns a decoded frame, or None when incomplete.

        Raises EOFError when the pipe closed, FrameError on a bad frame.
        """
        want = HEADER.size if self.size is None else self.size
        chunk = os.read(self.fd, want - len(self.buffer))
        if not chunk:
            raise EOFError("pipe closed")
        self.buffer += chunk
        if len(self.buffer) < want:
            return None
        if self.size is None:
            (self.size,) = HEADER.unpack(self.buffer)
            self.buffer.clear()
            if self.size > self.limit:
                raise FrameError(f"frame of {self.size} bytes exceeds the {self.limit}-byte cap")
            if self.size:
                return None
        data, self.buffer, self.size = bytes(self.buffer), bytearray(), None
        return unpack(data)
