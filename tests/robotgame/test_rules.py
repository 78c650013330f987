"""Robot Game rules, one by one (spec robotgame.md), on the pure turn resolution."""
from __future__ import annotations

import warnings

import pytest

from engine import InputError
from engine.robotgame.game import CODE_ATTACK, CODE_GUARD, CODE_MOVE, RobotGame
from engine.robotgame.mapfile import load_map, parse_map
from engine.robotgame.resolve import Robot, resolve
from engine.robotgame.rules import rules_from
from tests.conftest import ROOT

DEFAULT_MAP = ROOT / "maps" / "robotgame" / "default.py"


def turn(robots: list[tuple], actions: dict, damage: int = 9) -> dict:
    """Resolve one turn; robots are (x, y, player, hp). Returns {start loc: (end loc, hp)}."""
    bots = [Robot((x, y), p, hp, i) for i, (x, y, p, hp) in enumerate(robots)]
    out = resolve(bots, actions, collision_damage=5, suicide_damage=15,
                  attack_damage=lambda: damage)
    return {bot.loc: end for bot, end in zip(bots, out, strict=True)}


def test_a_chain_moves_when_its_head_moves() -> None:
    got = turn([(5, 5, 0, 50), (6, 5, 0, 50), (7, 5, 0, 50)],
               {(5, 5): ("move", (6, 5)), (6, 5): ("move", (7, 5)), (7, 5): ("move", (8, 5))})
    assert got == {(5, 5): ((6, 5), 50), (6, 5): ((7, 5), 50), (7, 5): ((8, 5), 50)}


def test_a_blocked_head_stops_the_whole_chain_and_only_enemies_hurt() -> None:
    # Friends A -> B -> (8,5), and an enemy C also wants (8,5).
    got = turn([(6, 5, 0, 50), (7, 5, 0, 50), (9, 5, 1, 50)],
               {(6, 5): ("move", (7, 5)), (7, 5): ("move", (8, 5)), (9, 5): ("move", (8, 5))})
    assert got[(6, 5)] == ((6, 5), 50)          # stayed; bumped only a friend
    assert got[(7, 5)] == ((7, 5), 45)          # stayed; bumped the enemy
    assert got[(9, 5)] == ((9, 5), 45)


def test_a_cycle_of_four_all_move() -> None:
    square = [(5, 5), (6, 5), (6, 6), (5, 6)]
    robots = [(x, y, i % 2, 50) for i, (x, y) in enumerate(square)]
    actions = {square[i]: ("move", square[(i + 1) % 4]) for i in range(4)}
    got = turn(robots, actions)
    assert got == {square[i]: (square[(i + 1) % 4], 50) for i in range(4)}


@pytest.mark.parametrize("players,hp", [((0, 1), 45), ((0, 0), 50)])
def test_a_direct_swap_fails_and_hurts_only_enemies(players, hp) -> None:
    got = turn([(5, 5, players[0], 50), (6, 5, players[1], 50)],
               {(5, 5): ("move", (6, 5)), (6, 5): ("move", (5, 5))})
    assert got == {(5, 5): ((5, 5), hp), (6, 5): ((6, 5), hp)}


def test_collision_damage_counts_each_enemy() -> None:
    # Three robots want (6, 6): one of player 0, two of player 1.
    got = turn([(5, 6, 0, 50), (7, 6, 1, 50), (6, 7, 1, 50)],
               {(5, 6): ("move", (6, 6)), (7, 6): ("move", (6, 6)), (6, 7): ("move", (6, 6))})
    assert got[(5, 6)] == ((5, 6), 40)          # two enemies: 2 x 5
    assert got[(7, 6)] == ((7, 6), 45) and got[(6, 7)] == ((6, 7), 45)


def test_moving_into_a_robot_that_stays_bumps_it_but_a_guard_takes_nothing() -> None:
    got = turn([(5, 5, 0, 50), (6, 5, 1, 50)], {(5, 5): ("move", (6, 5)), (6, 5): ("guard",)})
    assert got == {(5, 5): ((5, 5), 45), (6, 5): ((6, 5), 50)}
    got = turn([(5, 5, 0, 50), (6, 5, 1, 50)],
               {(5, 5): ("move", (6, 5)), (6, 5): ("attack", (6, 6))})
    assert got == {(5, 5): ((5, 5), 45), (6, 5): ((6, 5), 45)}


def test_attacks_land_on_final_positions_and_guard_halves_them() -> None:
    # The enemy steps into the attacked square: hit. The other attack hits the square its
    # target left: miss.
    got = turn([(5, 5, 0, 50), (7, 5, 1, 50), (5, 7, 0, 50), (5, 8, 1, 50)],
               {(5, 5): ("attack", (6, 5)), (7, 5): ("move", (6, 5)),
                (5, 7): ("attack", (5, 8)), (5, 8): ("move", (5, 9))})
    assert got[(7, 5)] == ((6, 5), 41) and got[(5, 8)] == ((5, 9), 50)
    got = turn([(5, 5, 0, 50), (6, 5, 1, 50)], {(5, 5): ("attack", (6, 5)), (6, 5): ("guard",)})
    assert got[(6, 5)] == ((6, 5), 46)           # 9 // 2


def test_suicide_kills_itself_and_hurts_adjacent_enemies_only() -> None:
    got = turn([(5, 5, 0, 50), (6, 5, 1, 50), (5, 6, 1, 50), (4, 5, 0, 50), (5, 4, 1, 50)],
               {(5, 5): ("suicide",), (5, 6): ("guard",), (6, 5): ("attack", (7, 5)),
                (5, 4): ("attack", (5, 3))})      # a missing action would be a guard
    assert got[(5, 5)][1] == 0
    assert got[(6, 5)] == ((6, 5), 35)
    assert got[(5, 6)] == ((5, 6), 43)           # guarding: 15 // 2
    assert got[(4, 5)] == ((4, 5), 50)           # a friend: nothing
    assert got[(5, 4)] == ((5, 4), 35)


def test_no_friendly_fire_from_attacks() -> None:
    got = turn([(5, 5, 0, 50), (6, 5, 0, 50)], {(5, 5): ("attack", (6, 5))})
    assert got[(6, 5)] == ((6, 5), 50)


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
