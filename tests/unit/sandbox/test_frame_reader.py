"""The host's reader of a child's frames (`_wire.FrameReader`): on a non-blocking pipe a
whole frame comes in one call (one wake-up and one read fewer per reply), a
frame cut short waits for the rest without raising, and a blocking fd is never read
past what the caller saw was there."""
from __future__ import annotations

import os

import pytest

from sandbox.botlib import child_module

_wire = child_module("_wire")


@pytest.fixture
def pipe():
    read_end, write_end = os.pipe()
    yield read_end, write_end
    for fd in (read_end, write_end):
        try:
            os.close(fd)
        except OSError:
            pass


def test_a_whole_frame_on_a_non_blocking_pipe_comes_in_one_call(pipe) -> None:
    read_end, write_end = pipe
    os.set_blocking(read_end, False)
    reader = _wire.FrameReader(read_end, 1 << 20, 1 << 24)
    os.write(write_end, _wire.pack({"moves": b"\x01\x02\x03"}))
    assert reader.feed() == {"moves": b"\x01\x02\x03"}


def test_a_frame_cut_short_waits_for_the_rest(pipe) -> None:
    read_end, write_end = pipe
    os.set_blocking(read_end, False)
    reader = _wire.FrameReader(read_end, 1 << 20, 1 << 24)
    data = _wire.pack({"turn": 7, "robots": list(range(50))})
    os.write(write_end, data[:6])                 # the header and two bytes of the body
    assert reader.feed() is None
    assert reader.feed() is None                  # nothing more there: no BlockingIOError
    os.write(write_end, data[6:])
    assert reader.feed() == {"turn": 7, "robots": list(range(50))}


def test_a_blocking_fd_is_read_header_first(pipe) -> None:
    read_end, write_end = pipe
    reader = _wire.FrameReader(read_end, 1 << 20, 1 << 24)
    data = _wire.pack({"result": 1})
    os.write(write_end, data[:4])                 # only the header: a second read would hang
    assert reader.feed() is None
    os.write(write_end, data[4:])
    assert reader.feed() == {"result": 1}


def test_a_frame_past_the_cap_is_refused_before_its_body_is_read(pipe) -> None:
    read_end, write_end = pipe
    os.set_blocking(read_end, False)
    reader = _wire.FrameReader(read_end, 16, 1 << 24)
    os.write(write_end, _wire.pack({"x": "y" * 64}))
    with pytest.raises(_wire.FrameError, match="exceeds the 16-byte cap"):
        reader.feed()
