"""`roborally.api` as a bot sees it, fed by real engine views through the child runtime."""
from __future__ import annotations

import types

import pytest

from engine.arena import constants as C
from engine.arena import scenario
from sandbox.inprocess import child_runtime

runtime = child_runtime()
import _arena  # noqa: E402
from roborally import api  # noqa: E402

SPEC_NAMES = """AHEAD RIGHT BEHIND LEFT CLOCKWISE TYPE POSITION LIFE FACING NAME FLAGS_SCORED
CHARGES
MEMORY FLAG_SENSE PIT EMPTY FLAG LEFT_SPINNER RIGHT_SPINNER WALL MOUNTED_LASER CORPSE ROBOT LASER
FORWARD FORWARD_TWO REVERSE SIDESTEP_LEFT SIDESTEP_RIGHT TURN_LEFT TURN_RIGHT U_TURN MOVES
NORMAL_MOVES ATTACK_MOVES PRIORITY_MOVES TURN_MOVES PROGRESS_MOVES sight myself memory charges
flags life sense_flag get_cell_in_sight flag_in_sight opposite_move moves_in_direction
moves_in_directions direction_of_move distance_between get_pos_in_direction opposite_direction
turn_direction convert_direction direction_toward direction_after_move position_after_move
bumps_into_wall falls_into_pit shooting shot_by""".split()


def probe(data: dict, ask, turns: int = 1) -> list:
    """Run `ask()` inside move() for robot 'me' (AI 0) on each of `turns` turns."""
    match, _ = scenario.build(data)
    seen = []
    module = types.SimpleNamespace(move=lambda: seen.append(ask()) or api.TURN_LEFT)
    robot = _arena.ArenaRuntime(module, {"names": match.players, "key": "0", "ai": 0},
                                runtime.NoGuard())
    for _ in range(turns):
        robot.handle(match.views()[0])
        match.play_turn({})
    return seen


def at(grid_rows, me=(5, 5), facing="N", others=()):
    robots = [{"id": "me", "ai": "Me", "row": me[0], "col": me[1], "facing": facing}]
    robots += [{"id": f"o{i}", "ai": ai, "row": r, "col": c, "facing": f}
               for i, (r, c, f, ai) in enumerate(others)]
    return {"map": grid_rows, "robots": robots}


OPEN = [" " * 11] * 11


def test_every_spec_name_is_exported() -> None:
    assert sorted(SPEC_NAMES) == sorted(api.__all__)
    assert api.PIT is None and len({api.EMPTY, api.FLAG, api.LEFT_SPINNER,
                                    api.RIGHT_SPINNER}) == 4
    assert len(set(api.MOVES)) == 9 and api.CLOCKWISE == [(-1, 0), (0, 1), (1, 0), (0, -1)]


def test_wire_codes_agree_with_engine() -> None:
    assert [m.upper() for m in api.MOVES] == list(C.MOVE_NAMES)
    assert api._FLOORS.index(api.EMPTY) == C.EMPTY and api._FLOORS.index(api.FLAG) == C.FLAG
    assert api._FLOORS.index(api.LEFT_SPINNER) == C.LEFT_SPINNER
    assert api._FLOORS.index(api.RIGHT_SPINNER) == C.RIGHT_SPINNER and api._FLOORS[C.PIT] is None
    assert [api._KINDS.index(k) for k in (api.WALL, api.MOUNTED_LASER, api.CORPSE, api.ROBOT)] \
        == [C.WALL, C.MOUNTED_LASER, C.CORPSE, C.ROBOT]


def test_sight_and_own_state() -> None:
    rows = list(OPEN)
    rows[3] = "     #   1 "
    out = probe(at(rows, others=[(5, 7, "W", "Foe")]), lambda: (
        len(api.sight()), [len(r) for r in api.sight()], api.sight()[5][5].content[api.TYPE],
        api.sight()[3][5].content[api.TYPE], api.get_cell_in_sight((3, 5)).floor,
        api.get_cell_in_sight((11, 0)), api.flag_in_sight(), api.sense_flag(),
        api.sight()[5][7].content[api.NAME], api.sight()[5][7].content[api.FACING],
        api.life(), api.charges(), api.flags(), api.myself()[api.POSITION]))
    assert out[0] == (11, [11] * 11, api.ROBOT, api.WALL, api.EMPTY, None, (3, 9),
                      [api.AHEAD, api.RIGHT], "Foe", api.LEFT, 10, 1, 0, (5, 5))


def test_memory_persists_between_turns() -> None:
    def count():
        api.memory()["n"] = api.memory().get("n", 0) + 1
        return api.memory()["n"]
    assert probe(at(OPEN), count, turns=3) == [1, 2, 3]


def test_movement_predictions() -> None:
    rows = list(OPEN)
    rows[3] = "     #     "          # a wall two ahead
    rows[5] = "   &       "          # a pit two to the left
    rows[6] = "      }    "          # a right spinner behind-right
    out = probe(at(rows, others=[(4, 5, "N", "Foe"), (5, 4, "N", "Foe")]), lambda: (
        api.position_after_move(api.FORWARD), api.bumps_into_wall(api.FORWARD),
        api.position_after_move(api.SIDESTEP_LEFT), api.falls_into_pit(api.SIDESTEP_LEFT),
        api.position_after_move(api.REVERSE), api.direction_after_move(api.TURN_LEFT),
        api.position_after_move(api.LASER), api.falls_into_pit(api.FORWARD)))
    # FORWARD pushes the foe into the wall: bump, stay. SIDESTEP_LEFT pushes the other foe
    # into the pit and enters its tile.
    assert out[0] == ((5, 5), True, (5, 4), False, (6, 5), api.LEFT, (5, 5), False)


def test_spinner_counts_in_direction_after_move() -> None:
    rows = list(OPEN)
    rows[4] = "     {     "
    assert probe(at(rows), lambda: api.direction_after_move(api.FORWARD)) == [api.LEFT]


def test_shooting_and_shot_by() -> None:
    others = [(5, 8, "W", "Foe"),     # to my right, facing me
              (2, 5, "S", "Foe"),     # ahead, facing me, but behind a wall
              (8, 5, "N", "Foe")]     # behind, facing me
    rows = list(OPEN)
    rows[3] = "     #     "
    out = probe(at(rows, others=others), lambda: (
        api.shooting()[api.TYPE], api.shooting(api.TURN_RIGHT)[api.NAME],
        sorted(c[api.POSITION] for c in api.shot_by()),
        [c[api.POSITION] for c in api.shot_by(api.FORWARD)]))
    assert out[0] == (api.WALL, "Foe", [(5, 8), (8, 5)], [(8, 5)])


def test_geometry_helpers() -> None:
    assert api.direction_toward((5, 5), (-15, 3)) == [api.AHEAD]
    assert api.direction_toward((5, 5), (2, 3)) == [api.AHEAD, api.LEFT]
    assert api.moves_in_direction(api.LEFT) == [api.SIDESTEP_LEFT, api.TURN_LEFT]
    assert api.moves_in_direction(api.AHEAD, [api.FORWARD_TWO, api.LASER, api.FORWARD]) == \
        [api.FORWARD_TWO, api.FORWARD]
    assert api.moves_in_directions([api.BEHIND, api.RIGHT]) == [
        api.REVERSE, api.U_TURN, api.SIDESTEP_RIGHT, api.TURN_RIGHT]
    assert api.opposite_move(api.FORWARD_TWO) == api.REVERSE
    assert api.opposite_move(api.LASER) == api.LASER and api.opposite_move("x") is None
    assert api.opposite_move([1]) is None
    assert api.direction_of_move(api.SIDESTEP_RIGHT) == api.RIGHT
    assert api.direction_of_move(api.U_TURN) is None
    assert api.distance_between((2, 3)) == 5 and api.distance_between((0, 0), (1, 1)) == 2
    assert api.get_pos_in_direction((5, 5), api.LEFT, 3) == (5, 2)
    assert api.opposite_direction(api.AHEAD) == api.BEHIND
    assert api.turn_direction(api.AHEAD, True) == api.RIGHT
    assert api.turn_direction(api.AHEAD, False) == api.LEFT
    assert api.convert_direction(api.RIGHT, api.AHEAD) == api.LEFT
    assert api.convert_direction(api.BEHIND, api.LEFT) == api.RIGHT


@pytest.mark.parametrize("move", [m for m in api.MOVES])
def test_every_move_is_accepted(move) -> None:
    match, _ = scenario.build(at(OPEN))
    module = types.SimpleNamespace(move=lambda: move)
    robot = _arena.ArenaRuntime(module, {"names": ["Me"], "key": "0", "ai": 0},
                                runtime.NoGuard())
    reply = robot.handle(match.views()[0])
    assert match.decode_answer(0, reply["moves"]) == {0: C.MOVE_CODES[move.upper()]}
