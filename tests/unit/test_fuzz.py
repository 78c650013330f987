"""Parsers under fuzzing (Hypothesis): any input gives a value or one InputError (maps) or
FrameError (wire frames), never another exception. Maps are fuzzed from scratch and as
mutations of the bundled ones, which reach deeper into each parser."""
from __future__ import annotations

import os
import warnings

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import InputError
from orchestrator.games import GAMES
from sandbox.botlib import child_module

_wire = child_module("_wire")
HEADER, FrameError, FrameReader, read_frame, unpack = (
    _wire.HEADER, _wire.FrameError, _wire.FrameReader, _wire.read_frame, _wire.unpack)

FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
BUNDLED = {name: game.bundled_maps()[0].read_text() for name, game in GAMES.items()}


def parses_or_refuses(game: str, text: str) -> None:
    with warnings.catch_warnings(record=True) as caught:      # nothing beside the error line
        warnings.simplefilter("always")
        try:
            GAMES[game].parse_map(text, f"fuzz{GAMES[game].map_suffix}")
        except InputError as exc:
            assert str(exc), "an InputError says what is wrong"
    assert [str(w.message) for w in caught] == []


@st.composite
def mutated(draw, base: str) -> str:
    """The bundled map with a few characters or lines replaced, cut or repeated."""
    text = base
    for _ in range(draw(st.integers(1, 4))):
        where = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["replace", "delete", "insert", "cut", "repeat"]))
        piece = draw(st.text(min_size=1, max_size=8))
        if kind == "replace":
            text = text[:where] + piece + text[where + len(piece):]
        elif kind == "delete":
            text = text[:where] + text[where + draw(st.integers(1, 40)):]
        elif kind == "insert":
            text = text[:where] + piece + text[where:]
        elif kind == "cut":
            text = text[:where]
        else:
            text = text[:where] + text[where:where + 60] * draw(st.integers(2, 20)) + \
                text[where:]
    return text


@pytest.mark.parametrize("game", sorted(GAMES))
@FUZZ
@given(data=st.data())
def test_map_parsers_give_a_map_or_one_input_error(game, data) -> None:
    text = data.draw(st.one_of(st.text(max_size=400), mutated(BUNDLED[game])))
    parses_or_refuses(game, text)


@FUZZ
@given(st.binary(max_size=300))
def test_unpack_gives_a_value_or_a_frame_error(data) -> None:
    try:
        unpack(data)
    except FrameError:
        pass


@FUZZ
@given(st.binary(max_size=300))
def test_decode_cost_gives_a_size_or_a_frame_error(data) -> None:
    try:
        assert _wire.decode_cost(data) >= 0
    except FrameError:
        pass


values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.floats() | st.text()
    | st.binary(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=5),
    max_leaves=40)


@FUZZ
@given(values)
def test_every_value_of_the_protocol_passes_the_scan(value) -> None:
    data = msgpack.packb(value, use_bin_type=True)
    assert _wire.decode_cost(data) >= len(data)
    assert msgpack.packb(unpack(data, 1 << 30, small=0), use_bin_type=True) == data


def pipe_with(data: bytes) -> int:
    """The read end of a closed pipe holding `data`."""
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    return r


frames = st.one_of(st.binary(max_size=200), st.builds(
    lambda size, body: HEADER.pack(size) + body, st.integers(0, 2**32 - 1),
    st.binary(max_size=200)))


@FUZZ
@given(frames)
def test_read_frame_gives_frames_then_eof_or_one_frame_error(data) -> None:
    fd = pipe_with(data)
    try:
        while True:
            read_frame(fd, 1024)
    except (FrameError, EOFError):     # EOFError: the pipe closed, as when a child dies
        pass
    finally:
        os.close(fd)


@FUZZ
@given(frames)
def test_frame_reader_gives_frames_then_eof_or_one_frame_error(data) -> None:
    fd = pipe_with(data)
    reader = FrameReader(fd, 1024, 1 << 20, small=0)     # every frame scanned first
    try:
        while True:
            reader.feed()
    except (FrameError, EOFError):
        pass
    finally:
        os.close(fd)


# The scan's bound against what decoding really holds (tracemalloc), for the shapes that
# cost the most per byte, and for a replay-like mix.
SHAPES = {
    "empty arrays": [[]] * 50000, "empty maps": [{}] * 50000,
    "one-entry maps": [{0: 0}] * 30000, "small negative ints": [-20] * 100000,
    "floats": [1.5] * 50000, "wide strings": ["\U0001F600x"] * 20000,
    "big ints": [2**62] * 50000,
    "replay-like": [{"turn": t, "changed": {"robots": [[i, t, i % 7, "N", 10]
                                                       for i in range(20)]}}
                    for t in range(300)],
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_scan_bounds_what_decoding_holds(shape) -> None:
    import tracemalloc
    data = msgpack.packb(SHAPES[shape], use_bin_type=True)
    tracemalloc.start()
    try:
        decoded = msgpack.unpackb(data, strict_map_key=False)
        held = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del decoded
    bound = _wire.decode_cost(data)
    assert held * 0.9 <= bound <= held * 4, (held, bound)


def test_the_scan_refuses_what_the_protocol_never_sends() -> None:
    deep = b"\x91" * (_wire.MAX_DEPTH + 1) + b"\xc0"
    for data, why in ((deep, "nested"), (b"\x92\xc0", "cut short"),
                      (b"\xc0\xc0", "past its end"), (b"\xd4\x01\x00", "not a protocol type"),
                      (b"\xc1", "not a protocol type")):
        with pytest.raises(FrameError, match=why):
            _wire.decode_cost(data)
    with pytest.raises(FrameError, match="past its 1 MiB cap"):
        unpack(msgpack.packb([[]] * 100000), 1 << 20)
    assert unpack(msgpack.packb([[]] * 100000), 16 << 20) == [[]] * 100000
