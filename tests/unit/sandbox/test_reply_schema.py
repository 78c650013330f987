"""The schema of every reply a bot's side sends (sandbox/replies.py), bound by bound: the
most a key may hold passes, one more is refused, and the refusal says which key and why
in one line, the same words for every sandbox mode."""
from __future__ import annotations

import math

import pytest

from sandbox import replies
from sandbox.limits import Limits

ROOM = 50                                       # characters of output the child may send


def python_reply(**more: object) -> dict[str, object]:
    return {"moves": b"", "errors": [], "bot_s": 0.1, "busy_s": 0.2, "warn": [], "out": "",
            "out_dropped": 0, "violations": [], **more}


def program_reply(**more: object) -> dict[str, object]:
    return {"moves": b"", "errors": [], "bot_s": 0.1, "busy_s": 0.2, "out": "",
            "usage": {"cpu_s": 0.5, "peak_mb": 3.0, "running": 1}, "scratch": {}, **more}


def said(frame: object, calls: int = 2, program: bool = False) -> str | None:
    return replies.reply_problem(frame, calls, ROOM, program=program)


AT_THE_BOUND = {
    "errors": [[i % 2, "e" * replies.ERROR_TEXT] for i in range(replies.ERRORS)],
    "warn": ["w" * replies.WARNING_TEXT] * replies.WARNINGS,
    "violations": ["v" * replies.VIOLATION_TEXT] * replies.VIOLATIONS,
    "out": "o" * ROOM,
    "out_dropped": replies.MOST_COUNT,
    "bot_s": replies.MOST_SECONDS,
    "busy_s": 0,
    "marks_cut": replies.MOST_COUNT,
}


@pytest.mark.parametrize("key", sorted(AT_THE_BOUND))
def test_the_most_each_key_may_hold_passes(key: str) -> None:
    assert said(python_reply(**{key: AT_THE_BOUND[key]})) is None


PAST_THE_BOUND = [
    ("errors", [[0, "e"]] * (replies.ERRORS + 1),
     f"errors holds more than {replies.ERRORS} entries"),
    ("errors", [[2, "e"]], "an error's robot is not one the request asked about"),
    ("errors", [[-1, "e"]], "an error's robot is not one the request asked about"),
    ("errors", [[0, "e", "x"]], "an error is not [robot, text]"),
    ("errors", [[True, "e"]], "an error's robot is not one the request asked about"),
    ("errors", [[0, "e" * (replies.ERROR_TEXT + 1)]],
     f"an error's text is longer than {replies.ERROR_TEXT} characters"),
    ("errors", {}, "errors is not a list"),
    ("warn", ["w"] * (replies.WARNINGS + 1), f"warn holds more than {replies.WARNINGS} entries"),
    ("warn", ["w" * (replies.WARNING_TEXT + 1)],
     f"an entry of warn is longer than {replies.WARNING_TEXT} characters"),
    ("warn", [None], "an entry of warn is not text"),
    ("violations", ["v"] * (replies.VIOLATIONS + 1),
     f"violations holds more than {replies.VIOLATIONS} entries"),
    ("out", "o" * (ROOM + 1), f"out is longer than {ROOM} characters"),
    ("out", b"bytes", "out is not text"),
    ("out_dropped", replies.MOST_COUNT + 1, "out_dropped is out of range"),
    ("out_dropped", -1, "out_dropped is out of range"),
    ("out_dropped", 2.0, "out_dropped is not an integer"),
    ("bot_s", replies.MOST_SECONDS * 2, "bot_s is out of range"),
    ("bot_s", math.inf, "bot_s is not finite"),
    ("bot_s", "0.1", "bot_s is not a number"),
    ("busy_s", -0.0001, "busy_s is out of range"),
    ("busy_s", False, "busy_s is not a number"),
    ("marks", "none", "marks is not a list"),
    ("marks_cut", 1.5, "marks_cut is not an integer"),
]


@pytest.mark.parametrize("key, value, words", PAST_THE_BOUND,
                         ids=[f"{k}-{w}" for k, _, w in PAST_THE_BOUND])
def test_one_past_a_bound_is_refused_in_its_words(key: str, value: object,
                                                  words: str) -> None:
    assert said(python_reply(**{key: value})) == f"protocol: {words}"


@pytest.mark.parametrize("key, value", [("warn", []), ("out_dropped", 0)])
def test_a_program_may_not_send_what_only_a_python_child_sends(key: str, value: object) -> None:
    frame = program_reply(**{key: value})
    if key == "out_dropped":                    # both senders send it
        assert said(frame, program=True) is None
    else:
        assert said(frame, program=True) == f"protocol: {key!r} is not a key of a reply"


@pytest.mark.parametrize("key", ["usage", "scratch"])
def test_a_python_child_may_not_send_what_only_a_program_sends(key: str) -> None:
    frame = python_reply(**{key: program_reply()[key]})
    assert said(frame) == f"protocol: {key!r} is not a key of a reply"


def test_honest_frames_of_both_senders_pass() -> None:
    assert said(python_reply()) is None
    assert said(program_reply(), program=True) is None
    assert said({"moves": b""}) is None         # every other key may be left out


@pytest.mark.parametrize("frame, words", [
    ([], "reply is not a map"),
    (None, "reply is not a map"),
    ({"errors": []}, "reply has no moves"),
    ({"moves": b"", **{f"k{i}": 0 for i in range(20)}}, "reply holds more than 12 keys"),
    ({"moves": b"", ("tuple",): 1}, "\"('tuple',)\" is not a key of a reply"),
    ({"moves": b"", "x" * 100: 1}, f"{'x' * 40!r} is not a key of a reply"),
    ({"fatal": "bye", "moves": b""}, "a fatal frame holds other keys"),
    ({"fatal": "bye", "usage": {"cpu_s": 0, "peak_mb": 0, "running": 0}},
     "usage is not a key of this reply"),
    ({"fatal": "f" * (replies.FATAL_TEXT + 1)},
     f"fatal is longer than {replies.FATAL_TEXT} characters"),
    ({"fatal": "bye", "busy_s": math.nan}, "busy_s is not finite"),
])
def test_a_frame_outside_the_envelope_says_why(frame: object, words: str) -> None:
    assert said(frame) == f"protocol: {words}"


@pytest.mark.parametrize("usage, words", [
    ({"cpu_s": 0, "peak_mb": 0}, "usage is not {cpu_s, peak_mb, running}"),
    ({"cpu_s": 0, "peak_mb": 0, "running": 0.5}, "usage's running is not an integer"),
    ({"cpu_s": -1, "peak_mb": 0, "running": 0}, "usage's cpu_s is out of range"),
    ({"cpu_s": 0, "peak_mb": math.nan, "running": 0}, "usage's peak_mb is not finite"),
])
def test_a_programs_usage_is_checked_key_by_key(usage: dict[str, object], words: str) -> None:
    assert said(program_reply(usage=usage), program=True) == f"protocol: {words}"


def test_a_programs_scratch_is_bounded_in_files_and_bytes() -> None:
    most = {str(i): b"" for i in range(replies.SCRATCH_FILES)}
    assert said(program_reply(scratch=most), program=True) is None
    one_more = {**most, "x": b""}
    assert said(program_reply(scratch=one_more), program=True) == (
        f"protocol: scratch holds more than {replies.SCRATCH_FILES} files")
    full = {"a": b"x" * (replies.SCRATCH_BYTES - 1)}
    assert said(program_reply(scratch=full), program=True) is None
    over = {"ab": b"x" * (replies.SCRATCH_BYTES - 1)}
    assert said(program_reply(scratch=over), program=True) == (
        f"protocol: scratch holds more than {replies.SCRATCH_BYTES} bytes")


def test_a_fatal_frame_may_carry_its_time_and_a_programs_usage() -> None:
    usage = {"cpu_s": 1.0, "peak_mb": 2.0, "running": 0}
    assert said({"fatal": "cpu", "busy_s": 1.5}) is None
    assert said({"fatal": "cpu", "busy_s": 1.5, "usage": usage}, program=True) is None


@pytest.mark.parametrize("calls", [0, 1, 7, 1000])
def test_a_frames_bounds_grow_with_its_calls(calls: int) -> None:
    limits = Limits()
    items = replies.frame_items(calls)
    assert items == replies.ENVELOPE_ITEMS + replies.CALL_ITEMS * max(1, calls)
    size = replies.frame_bytes(limits, calls, 0)
    assert size == min(limits.reply_bytes,
                       replies.ENVELOPE_BYTES + replies.CALL_BYTES * max(1, calls))
    assert replies.frame_bytes(limits, calls, 100) >= size
    assert replies.frame_bytes(limits, calls, -5) == size     # no room is no room
