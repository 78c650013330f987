"""Engine pieces that scenario files cannot show: views, flag sense, ranking, placement."""
from __future__ import annotations

from array import array

import pytest

from engine import InputError
from engine.arena import constants as C
from engine.arena import scenario
from engine.arena.game import ArenaGame
from engine.arena.mapfile import parse_map
from engine.arena.rules import rules_from
from engine.arena.view import SENSE_AHEAD, SENSE_BEHIND, SENSE_LEFT

OPEN = ["           "] * 11


def one_view(data: dict, ai: int = 0) -> tuple[ArenaGame, dict]:
    match, _ = scenario.build(data)
    return match, match.views()[ai]


def test_view_only_next_flag_is_visible() -> None:
    rows = list(OPEN)
    rows[3] = "   1   2   "
    data = {"map": rows, "robots": [{"id": "a", "ai": "A", "row": 5, "col": 5, "facing": "N",
                                     "flags": 1}]}
    _, view = one_view(data)
    floor = view["floor"]
    # Facing north, sight equals the board: flag 2 at (3,7) shows, flag 1 at (3,3) is EMPTY.
    assert floor[3 * 11 + 7] == C.FLAG
    assert floor[3 * 11 + 3] == C.EMPTY
    assert floor.count(bytes([C.FLAG])) == 1


@pytest.mark.parametrize("facing,expected_cell", [("N", (0, 5)), ("E", (5, 0)),
                                                  ("S", (10, 5)), ("W", (5, 10))])
def test_view_turns_so_robot_faces_up(facing: str, expected_cell: tuple[int, int]) -> None:
    """A wall 5 tiles north shows ahead, left, behind or right depending on facing."""
    rows = list(OPEN)
    rows[0] = "     #     "
    data = {"map": rows, "robots": [{"id": "a", "ai": "A", "row": 5, "col": 5,
                                     "facing": facing}]}
    _, view = one_view(data)
    things = array("h", view["things"])
    cells = {things[i]: things[i + 1] for i in range(0, len(things), 5)}
    r, c = expected_cell
    assert cells[r * 11 + c] == C.WALL
    assert cells[60] == C.ROBOT


def test_view_outside_is_pit_and_relative_facing() -> None:
    data = {"map": ["     "] * 5, "robots": [
        {"id": "a", "ai": "A", "row": 0, "col": 0, "facing": "E"},
        {"id": "b", "ai": "B", "row": 0, "col": 1, "facing": "S"}]}
    _, view = one_view(data)
    floor = view["floor"]
    # Facing east, the farthest-left column of sight is north of the arena: outside = PIT.
    assert floor[0] == C.PIT
    things = array("h", view["things"])
    rows = [tuple(things[i:i + 5]) for i in range(0, len(things), 5)]
    b = next(row for row in rows if row[0] != 60)
    # b stands one tile ahead (row 4, col 5) and faces right of a's facing.
    assert b[0] == 4 * 11 + 5 and b[3] == 1 and b[4] == 1


@pytest.mark.parametrize("flag,facing,bits", [
    ((0, 3), "N", SENSE_AHEAD),                     # 20 ahead, 2 left: only AHEAD
    ((17, 3), "N", SENSE_AHEAD | SENSE_LEFT),       # 3 ahead, 2 left
    ((17, 3), "E", SENSE_LEFT | SENSE_BEHIND),      # the same flag, robot facing east
    ((20, 30), "S", SENSE_LEFT),                    # far east of a south-facing robot
    ((23, 5), "W", SENSE_LEFT),
])
def test_flag_sense_4x_rule(flag, facing, bits) -> None:
    rows = [" " * 31 for _ in range(31)]
    r, c = flag
    rows[r] = rows[r][:c] + "1" + rows[r][c + 1:]
    data = {"map": rows, "robots": [{"id": "a", "ai": "A", "row": 20, "col": 5,
                                     "facing": facing}]}
    _, view = one_view(data)
    assert array("h", view["own"])[3] == bits


def _ranked(data: dict, turns: int) -> tuple[ArenaGame, list[int]]:
    match, by_id = scenario.build(data)
    for _ in range(turns):
        if match.end:
            break
        match.play_turn({})
    return match, match.ranking()


def test_ranking_flags_end_puts_last_flag_scorer_first() -> None:
    data = {"map": ["1    ", "     ", "     ", "     ", "     "], "robots": [
        {"id": "a", "ai": "A", "row": 0, "col": 0, "facing": "W"},
        {"id": "b", "ai": "B", "row": 4, "col": 4, "facing": "E", "flags": 0},
        {"id": "c", "ai": "B", "row": 3, "col": 4, "facing": "E"}]}
    match, ranks = _ranked(data, 1)
    assert match.end == "flags" and ranks == [1, 2]


def test_ranking_survivor_then_last_alive_turn() -> None:
    # C dies on turn 1 (overheat at 1 life), B on turn 2 (shot by A): A survives.
    data = {"map": ["     "] * 5, "robots": [
        {"id": "a", "ai": "A", "row": 2, "col": 0, "facing": "E"},
        {"id": "b", "ai": "B", "row": 2, "col": 3, "facing": "N", "life": 2},
        {"id": "c", "ai": "C", "row": 4, "col": 4, "facing": "S", "life": 1}]}
    match, by_id = scenario.build(data)
    match.play_turn({by_id["c"].id: C.OVERHEAT})
    match.play_turn({})
    assert match.end == "survivor"
    assert match.ranking() == [1, 2, 3]
    assert [match.stats(i)["last_alive_turn"] for i in range(3)] == [2, 1, 0]


def test_ranking_extinction_and_ties() -> None:
    data = {"map": ["     "] * 5, "robots": [
        {"id": "a", "ai": "A", "row": 2, "col": 0, "facing": "E", "life": 1},
        {"id": "b", "ai": "B", "row": 2, "col": 4, "facing": "W", "life": 1}]}
    match, ranks = _ranked(data, 1)
    assert match.end == "extinction" and ranks == [1, 1]
    data["robots"][0]["flags"] = 1
    data["map"][4] = "1 2  "
    match, ranks = _ranked(data, 1)
    assert ranks == [1, 2]          # equal last-alive turn: most flags by one robot wins


def test_ranking_turn_limit_keys() -> None:
    data = {"map": ["     "] * 5, "rules": {"max_turns": 1}, "robots": [
        {"id": "a", "ai": "A", "row": 0, "col": 0, "facing": "N"},
        {"id": "b", "ai": "B", "row": 4, "col": 4, "facing": "S"},
        {"id": "b2", "ai": "B", "row": 4, "col": 2, "facing": "S"},
        {"id": "c", "ai": "C", "row": 0, "col": 4, "facing": "N", "flags": 1}]}
    data["map"][2] = "  1 2"
    match, ranks = _ranked(data, 1)
    assert match.end == "turn_limit"
    assert ranks == [3, 2, 1]       # C has a flag; B has more robots alive than A


def test_placement_is_seeded_and_checked() -> None:
    arena = parse_map("\n".join(["        "] * 8) + "\n1")
    rules = rules_from("seed", robots_per_type=5)
    a = ArenaGame(arena, ["X", "Y"], 3, rules)
    b = ArenaGame(arena, ["X", "Y"], 3, rules)
    assert [(r.pos, r.facing) for r in a.board.robots] == [(r.pos, r.facing)
                                                           for r in b.board.robots]
    assert len({r.pos for r in a.board.robots}) == 10
    with pytest.raises(InputError, match="need 400 free tiles, the map has 80"):
        ArenaGame(arena, ["X"] * 10, 3, rules_from("seed"))


def test_answer_must_match_view() -> None:
    data = {"map": ["     "] * 5, "robots": [{"id": "a", "ai": "A", "row": 0, "col": 0,
                                                "facing": "N"}]}
    match, _ = scenario.build(data)
    match.views()
    assert match.decode_answer(0, bytes([C.FORWARD])) == {0: C.FORWARD}
    for bad in (b"", bytes([1, 2]), bytes([77]), [1], None):
        with pytest.raises(ValueError):
            match.decode_answer(0, bad)


def test_rules_overrides_are_checked() -> None:
    assert rules_from("v1.1").robots_per_type == 30
    with pytest.raises(InputError, match="unknown rule"):
        rules_from("seed", lasers=3)
    with pytest.raises(InputError, match="must be int"):
        rules_from("seed", max_turns="10")
    with pytest.raises(InputError, match="unknown rules preset"):
        rules_from("v9")
