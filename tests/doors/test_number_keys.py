"""Numbers as keys are ASCII decimal: a replay's `debug` section keys its AIs and
turns as `str(n)` writes them, and a reader takes no other spelling.

The attacks: a replay whose `debug` key is "²" ("²".isdigit() is true, int("²") a
ValueError) was a traceback in `arena replay F --turn 2` and in `--html`, where one `error:`
line is promised; "٠" (an Arabic-Indic zero, which `int` reads as 0) was taken for AI 0,
and its forged note shown as AI 0's; "0" and "00" were both AI 0, each with a budget of its
own. A match jail's section, handed over in a process, may even be keyed by integers: the
check refuses it, with its own error (`debug.Bad`), never another exception.
"""
from __future__ import annotations

import copy

import pytest

from engine import InputError
from engine.numerals import ascii_decimal, ascii_integer
from orchestrator.replay import debug
from orchestrator.replay import file as replay
from tests.replay.hostile_replays import valid
from tests.support.cli import arena, one_error_line

NOTE = {"notes": [[0, "forged"]]}


def noted(section: dict) -> dict:
    data = copy.deepcopy(valid())           # AIs 0 and 1, turns 1 to 3
    data[debug.SECTION] = section
    return data


SPELLINGS = {
    "superscript two as an AI": {"²": {"2": NOTE}},
    "superscript two as a turn": {"0": {"²": NOTE}},
    "Arabic-Indic zero as an AI": {"٠": {"2": NOTE}},
    "Arabic-Indic two as a turn": {"0": {"٢": NOTE}},
    "a second spelling of AI 0": {"0": {"1": NOTE}, "00": {"2": NOTE}},
    "a turn with a leading zero": {"0": {"02": NOTE}},
    "a signed AI": {"+0": {"2": NOTE}},
    "an AI with a space": {" 0": {"2": NOTE}},
    "a fullwidth one": {"１": {"2": NOTE}},
}


@pytest.mark.parametrize("how", ["--turn", "--html"])
@pytest.mark.parametrize("case", sorted(SPELLINGS))
def test_a_replay_keyed_in_another_spelling_is_one_error_line(case, how, tmp_path) -> None:
    path = tmp_path / "forged.json.gz"
    path.write_bytes(replay.encode(noted(SPELLINGS[case])))
    args = ["--turn", "2"] if how == "--turn" else ["--html", str(tmp_path / "page.html")]
    done = arena("replay", str(path), *args, cwd=tmp_path, forked=True)
    one_error_line(done, "forged.json.gz: debug.", "of the replay")
    assert "forged" not in done.stdout and not (tmp_path / "page.html").exists()


def test_the_canonical_spelling_is_read(tmp_path) -> None:
    path = tmp_path / "noted.json.gz"
    path.write_bytes(replay.encode(noted({"0": {"2": NOTE}, "1": {"3": NOTE}})))
    done = arena("replay", str(path), "--turn", "2", cwd=tmp_path, forked=True)
    assert done.returncode == 0, done.stderr
    assert "marks of first: note (robot 0): forged" in done.stdout


@pytest.mark.parametrize("section", [{0: {"2": NOTE}}, {"0": {2: NOTE}}, {None: {}},
                                     {(0,): {}}, {"0": {1.0: NOTE}}, {True: {"2": NOTE}}])
def test_a_jails_section_keyed_by_other_types_is_refused_by_the_check(section) -> None:
    with pytest.raises(debug.Bad, match="not an AI|not a turn"):
        debug.check(section, 2, {1, 2, 3}, (5, 5))


def test_only_and_turn_marks_take_no_other_spelling() -> None:
    data = noted({"0": {"2": NOTE}, "٠": {"2": NOTE}, "²": {"2": NOTE}, "01": {"2": NOTE}})
    assert debug.turn_marks(data, 2) == {0: NOTE}
    assert debug.only(data, {0, 1, 2})[debug.SECTION] == {"0": {"2": NOTE}}


def test_the_reader_refuses_the_forged_zero_with_an_input_error(tmp_path) -> None:
    path = tmp_path / "zero.json.gz"
    path.write_bytes(replay.encode(noted({"٠": {"2": NOTE}})))
    with pytest.raises(InputError, match=r"debug\.٠: not an AI of the replay"):
        replay.load(path)


def test_a_robot_named_by_another_spelling_is_text(tmp_path) -> None:
    path = tmp_path / "noted.json.gz"
    path.write_bytes(replay.encode(noted({"0": {"2": NOTE}})))
    for robot in ("²", "٠", "-²"):
        done = arena("replay", str(path), "--turn", "2", "--robot", robot, cwd=tmp_path,
                     forked=True)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def test_a_ladder_lineup_in_another_spelling_is_one_error_line(tmp_path) -> None:
    one_error_line(arena("serve", "--lineup", "arena=²", cwd=tmp_path, forked=True),
                         "--lineup arena=²")


@pytest.mark.parametrize("text, number", [
    ("0", 0), ("7", 7), ("120", 120), ("00", None), ("07", None), ("²", None), ("٠", None),
    ("１", None), (" 7", None), ("7 ", None), ("+7", None), ("-7", None), ("7_0", None),
    ("", None), ("9" * 19, None), (7, None), (None, None), (True, None)])
def test_ascii_decimal_takes_the_one_spelling_str_writes(text, number) -> None:
    assert ascii_decimal(text) == number


@pytest.mark.parametrize("text, number", [("-7", -7), ("7", 7), ("-0", None), ("--7", None),
                                          ("-²", None), ("0", 0)])
def test_ascii_integer_takes_a_minus_sign_too(text, number) -> None:
    assert ascii_integer(text) == number
