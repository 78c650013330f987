"""The door of marks: what a bot's side may send under "marks" is checked
exactly (sandbox/replies.py): counts, kinds and lengths, the robot of a call, integers in
range, the palette; one past a bound is a protocol violation of its sender. The child side
(sandbox/botlib/_marks.py) cuts at the same bounds, so an honest bot never reaches them."""
from __future__ import annotations

import pytest

from sandbox import replies
from sandbox.botlib import child_module

_marks = child_module("_marks")


def problem(marks, calls: int = 3, cut=None) -> str | None:
    frame = {"moves": b"", "errors": [], "marks": marks}
    if cut is not None:
        frame["marks_cut"] = cut
    return replies.reply_problem(frame, calls, 100)


def test_the_most_a_reply_may_hold_passes() -> None:
    notes = [["note", 2, "n" * _marks.NOTE_TEXT]] * (_marks.NOTE_CHARS // _marks.NOTE_TEXT)
    rest = [["line", 0, -_marks.MOST_COORDINATE, 0, _marks.MOST_COORDINATE, 5, "white"]] * (
        _marks.MARKS - len(notes))
    assert problem(notes + rest, cut=10**6) is None
    assert problem([]) is None


@pytest.mark.parametrize(("marks", "said"), [
    ({"note": "x"}, "marks is not a list"),
    ([["note", 0, "x"]] * (_marks.MARKS + 1), f"more than {_marks.MARKS} entries"),
    ([["note", 0, "n" * 100]] * (_marks.NOTE_CHARS // 100 + 1), "characters of notes"),
    ([["note", 0, "n" * (_marks.NOTE_TEXT + 1)]], "longer than"),
    ([["note", 0, 5]], "a note is not text"),
    ([["note", 3, "x"]], "robot"),
    ([["note", -1, "x"]], "robot"),
    ([["dot", 0, 1, 1]], "of its length"),
    ([["line", 0, 1, 1, 2, 2, 3, "red"]], "of its length"),
    ([["circle", 0, 1, 1, "red"]], "of its length"),
    ([["dot", 0, 1, 1, "mauve"]], "palette"),
    ([["dot", 0, 1.5, 1, "red"]], "square"),
    ([["dot", 0, True, 1, "red"]], "square"),
    ([["dot", 0, _marks.MOST_COORDINATE + 1, 1, "red"]], "square"),
    ([("dot", 0, 1, 1, "red")], "of its length"),
])
def test_one_past_a_bound_is_a_protocol_violation(marks, said) -> None:
    found = problem(marks)
    assert found is not None and found.startswith("protocol: ") and said in found, found


def test_a_negative_count_of_cut_marks_is_refused() -> None:
    assert "marks_cut" in (problem([], cut=-1) or "")


def test_the_child_cuts_at_the_bounds_on_the_bots_time() -> None:
    _marks.reset()
    _marks.at(1)
    for _ in range(_marks.MARKS + 50):
        _marks.note("n" * 500)
        _marks.dot((1, 2), "red")
    reply = _marks.take({"moves": b""})
    assert len(reply["marks"]) == _marks.MARKS
    assert reply["marks_cut"] > 0
    assert replies.reply_problem({**reply, "errors": []}, 2, 0) is None
    assert _marks.take({}) == {}                 # taken: the next turn starts empty
    with pytest.raises(ValueError):
        _marks.dot((1, 2), "mauve")
    with pytest.raises(ValueError):
        _marks.line((1, 2), (1, 2, 3))
