"""Length-prefixed msgpack frames: the only thing that crosses between host and child.

Shared by both sides, as `_wire` in both (the host through `sandbox.botlib.child_module`).
"""
import os
import struct

import msgpack

HEADER = struct.Struct(">I")
SMALL_FRAME = 64 << 10    # a frame this short decodes to a few MiB at most: not scanned
MAX_DEPTH = 64            # containers nested deeper than this are refused (scanned frames)


class FrameError(Exception):
    """A frame that is too big, cut short or not valid msgpack."""


def pack(obj) -> bytes:
    data = msgpack.packb(obj, use_bin_type=True)
    return HEADER.pack(len(data)) + data


def _no_ext(code, data):
    raise ValueError("extension types are not part of the protocol")


def unpack(data, budget: int | None = None, small: int = SMALL_FRAME, items=None):
    """Decode one frame. With a `budget` (bytes), a frame longer than `small` is first
    scanned (`decode_cost`) and refused, undecoded, if decoding it could take more memory
    than that, or if it nests deeper than MAX_DEPTH. With `items`, a frame longer than
    that many bytes (which could hold more objects) is scanned too, and refused at its
    object past `items`: its excess is never walked, nor decoded."""
    if items is not None and len(data) > items or budget is not None and len(data) > small:
        cost = decode_cost(data, items)
        if budget is not None and cost > budget:
            raise FrameError(f"frame would take up to {cost >> 20} MiB to decode, past its "
                             f"{budget >> 20} MiB cap")
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False, ext_hook=_no_ext)
    except Exception as exc:        # msgpack raises several unrelated types
        raise FrameError(f"malformed msgpack frame ({type(exc).__name__})") from None


# What one object costs the host once decoded, at most, by its first byte: the object
# (CPython 3.11, 64-bit) and its 8-byte slot in the container holding it. Small ints and
# the constants are shared. Lengths are read from the bytes that follow (`_SIZED`).
_FIXED = {0xc0: (1, 8), 0xc2: (1, 8), 0xc3: (1, 8),              # nil, false, true
          0xca: (5, 32), 0xcb: (9, 32),                          # float 32, 64
          0xcc: (2, 8), 0xcd: (3, 48), 0xce: (5, 48), 0xcf: (9, 48),   # uint 8..64
          0xd0: (2, 48), 0xd1: (3, 48), 0xd2: (5, 48), 0xd3: (9, 48)}  # int 8..64
# first byte: (bytes of the length, "str" | "bin" | "array" | "map")
_SIZED = {0xc4: (1, "bin"), 0xc5: (2, "bin"), 0xc6: (4, "bin"),
          0xd9: (1, "str"), 0xda: (2, "str"), 0xdb: (4, "str"),
          0xdc: (2, "array"), 0xdd: (4, "array"), 0xde: (2, "map"), 0xdf: (4, "map")}


def decode_cost(data, items=None) -> int:
    """An upper bound of the memory decoding `data` makes the host hold, in bytes, found
    by walking the msgpack headers without building anything. Raises FrameError on a
    frame that is cut short, has bytes past its end, uses an extension type, nests
    deeper than MAX_DEPTH, or (with `items`) holds more objects than that: the walk stops
    there, so it costs at most `items` steps whatever the frame's length."""
    view = memoryview(data).cast("B")
    end, pos, cost = len(view), 0, 0
    left = 1                            # items still to read in each open container
    stack: list[int] = []
    most, room = items, -1 if items is None else items
    while True:
        if not left:
            if not stack:
                break
            left = stack.pop()
            continue
        left -= 1
        if not room:
            raise FrameError(f"frame holds more than the {most} objects a reply may")
        room -= 1
        if pos >= end:
            raise FrameError("malformed msgpack frame (cut short)")
        first = view[pos]
        if first < 0x80 or first >= 0xe0:               # fixint
            pos, cost = pos + 1, cost + (8 if first < 0x80 or first >= 0xfb else 40)
            continue
        if first < 0xa0:                                # fixmap, fixarray
            count, kind, pos = first & 0x0f, "map" if first < 0x90 else "array", pos + 1
        elif first < 0xc0:                              # fixstr
            count, kind, pos = first & 0x1f, "str", pos + 1
        elif first in _FIXED:
            width, each = _FIXED[first]
            pos, cost = pos + width, cost + each
            continue
        elif first in _SIZED:
            width, kind = _SIZED[first]
            count = int.from_bytes(view[pos + 1:pos + 1 + width], "big")
            pos += 1 + width
        else:
            raise FrameError("malformed msgpack frame (not a protocol type)")
        if kind == "str":
            pos, cost = pos + count, cost + 88 + 4 * count
        elif kind == "bin":
            pos, cost = pos + count, cost + 41 + count
        else:
            items = count if kind == "array" else 2 * count
            cost += 72 if kind == "array" else 240 + 56 * count
            if items:
                if len(stack) >= MAX_DEPTH:
                    raise FrameError(f"malformed msgpack frame (nested over {MAX_DEPTH} deep)")
                stack.append(left)
                left = items
    if pos != end:
        raise FrameError("malformed msgpack frame (cut short, or bytes past its end)")
    return cost


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
    """Assembles frames from a non-blocking fd, never buffering more than one capped frame,
    and decodes one only within its memory `budget` (see `unpack`)."""

    def __init__(self, fd: int, limit: int, budget: int, small: int = SMALL_FRAME,
                 items=None) -> None:
        self.fd = fd
        self.limit = limit            # bytes of a frame; the host sets both per request
        self.budget = budget
        self.small = small
        self.items = items            # objects of a frame (None: no cap)
        self.buffer = bytearray()
        self.size = None
        # On a non-blocking fd the body is read in the same call as its header (a frame is
        # written whole, so it is usually there): one wake-up and one read fewer a frame.
        try:
            self.nonblocking = not os.get_blocking(fd)
        except OSError:
            self.nonblocking = False

    def feed(self):
        """Read what is available. Returns a decoded frame, or None when incomplete.

        Raises EOFError when the pipe closed, FrameError on a bad frame.
        """
        while True:
            want = HEADER.size if self.size is None else self.size
            try:
                chunk = os.read(self.fd, want - len(self.buffer))
            except BlockingIOError:
                return None
            if not chunk:
                raise EOFError("pipe closed")
            self.buffer += chunk
            if len(self.buffer) < want:
                return None
            if self.size is None:
                (self.size,) = HEADER.unpack(self.buffer)
                self.buffer.clear()
                if self.size > self.limit:
                    raise FrameError(f"frame of {self.size} bytes exceeds the "
                                     f"{self.limit}-byte cap")
                if self.size:
                    if self.nonblocking:
                        continue
                    return None
            data, self.buffer, self.size = self.buffer, bytearray(), None
            return unpack(data, self.budget, self.small, self.items)
