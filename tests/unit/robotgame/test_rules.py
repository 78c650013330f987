"""Robot Game rules, one by one (spec robotgame.md), that need a whole match: spawning, the
wire's checks, the score, the length, the maps. One turn's moves, collisions, attacks,
guards and suicides are scenario files (tests/robotgame/scenarios/, test_scenarios.py)."""
from __future__ import annotations

import warnings

import pytest

from engine import InputError
from engine.robotgame.game import CODE_ATTACK, CODE_GUARD, CODE_MOVE, RobotGame
from engine.robotgame.mapfile import load_map, parse_map
from engine.robotgame.rules import rules_from
from tests.support.paths import ROOT

DEFAULT_MAP = ROOT / "maps" / "robotgame" / "default.py"


def new_match(seed: int = 1, **rules) -> RobotGame:
    return RobotGame(load_map(DEFAULT_MAP), ["A", "B"], seed, rules_from(**rules))


def test_the_default_map_is_rgkits() -> None:
    board = load_map(DEFAULT_MAP)
    walkable = sum(board.walkable((x, y)) for x in range(19) for y in range(19))
    assert (walkable, len(board.spawn), len(board.obstacles)) == (225, 48, 136)
    assert all((18 - x, 18 - y) in board.obstacles for x, y in board.obstacles)


def test_spawns_are_mirrored_five_per_player_every_ten_turns() -> None:
    match = new_match()
    assert match.robots == [] and match.views() == {}
    match.play_turn({})
    mine = [r.loc for r in match.robots if r.player == 0]
    theirs = [r.loc for r in match.robots if r.player == 1]
    assert len(mine) == len(theirs) == 5
    assert sorted(theirs) == sorted((18 - x, 18 - y) for x, y in mine)
    assert set(mine + theirs) <= set(match.board.spawn)
    for _ in range(9):                            # turns 1..9: no spawn
        match.play_turn({})
    assert len(match.robots) == 10


def test_random_spawn_draws_without_the_mirror() -> None:
    mirrored = 0
    for seed in range(20):
        match = new_match(seed, symmetric_spawn=False)
        match.play_turn({})
        mine = {r.loc for r in match.robots if r.player == 0}
        theirs = {r.loc for r in match.robots if r.player == 1}
        mirrored += theirs == {(18 - x, 18 - y) for x, y in mine}
        assert len(mine | theirs) == 10
    assert mirrored < 20


def test_robots_on_spawn_squares_die_at_a_spawn_turn() -> None:
    match = new_match()
    match.play_turn({})                            # spawn at the end of turn 0
    for _ in range(9):
        match.play_turn({})                        # everyone guards, on spawn squares
    old = {r.rid for r in match.robots}
    match.play_turn({})                            # turn 10: all 10 die, 10 are born
    assert len(match.robots) == 10 and not old & {r.rid for r in match.robots}


def test_new_robots_do_not_act_in_their_spawn_turn() -> None:
    match = new_match()
    views = match.views()
    assert views == {} and match.calls(0) == 0    # turn 0: nobody to ask
    match.play_turn({})
    assert set(match.views()) == {0, 1} and match.calls(0) == 5


def test_decoding_guards_illegal_targets_and_counts_them() -> None:
    match = new_match()
    match.play_turn({})
    match.views()
    robot = next(r for r in match.robots if r.player == 0)
    x, y = robot.loc
    answer = bytearray()
    for r in [r for r in match.robots if r.player == 0]:
        answer += bytes((CODE_MOVE, 0, 0) if r is robot else (CODE_GUARD, 0, 0))
    actions = match.decode_answer(0, bytes(answer))
    assert actions[robot.loc] == ("guard",) and match.overheats[0] == 1
    with pytest.raises(ValueError):
        match.decode_answer(0, b"\x00")
    assert CODE_ATTACK == 2 and (x, y) == robot.loc


def test_score_more_robots_wins_and_equal_is_a_draw() -> None:
    match = new_match()
    match.play_turn({})
    assert match.ranking() == [1, 1]               # 5 each: a draw
    match.robots = [r for r in match.robots if not (r.player == 1 and r.rid == 1)]
    assert match.scores() == [5, 4] and match.ranking() == [1, 2]


def test_a_match_lasts_100_turns() -> None:
    match = new_match()
    while match.end is None:
        match.play_turn({})
    assert match.turn == 100 and match.end == "turn_limit"


def test_bad_maps_are_input_errors() -> None:
    with pytest.raises(InputError, match="not a Python dict literal"):
        parse_map("__import__('os').system('true')", "evil.py")
    with pytest.raises(InputError, match="off the 19x19 board"):
        parse_map("{'spawn': [(20, 1)], 'obstacle': []}", "big.py")
    with pytest.raises(InputError, match="also an obstacle"):
        parse_map("{'spawn': [(1, 1)], 'obstacle': [(1, 1)]}", "clash.py")
    with pytest.raises(InputError, match="2 players"):
        RobotGame(load_map(DEFAULT_MAP), ["A"], 1, rules_from())
    # Python warns about "1if" as it compiles; the user gets our one error line only.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(InputError, match="not a Python dict literal"):
            parse_map("{'spawn': [(1, 2)], 'obstacle': [1if 1 else 2]}", "typo.py")
    assert caught == []
