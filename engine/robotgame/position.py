"""Robot Game's state between turns (engine/position.py): every robot (id, player,
square, hp), the next robot id, the spawn and attack random generators, the turn and the
counters. The board (spawn squares, obstacles) comes from the map file beside it.
(A scenario, a position with scripted actions, is engine/robotgame/scenario.py's.)"""
from __future__ import annotations

from typing import Any

from engine import InputError
from engine.position import PositionHooks, State, rng_state
from engine.robotgame.game import RobotGame
from engine.robotgame.mapfile import RobotGameMap
from engine.robotgame.match import END_TURN_LIMIT
from engine.robotgame.resolve import Robot
from engine.robotgame.rules import Rules

COUNTERS = ("spawned", "decisions", "overheats", "timeouts", "damage_dealt")


def save(game: RobotGame) -> dict[str, Any]:
    return {"turn": game.turn, "end": game.end, "next_id": game.next_id,
            "spawn_rng": rng_state(game.spawn_rng), "attack_rng": rng_state(game.attack_rng),
            "robots": [[r.rid, r.player, r.loc[0], r.loc[1], r.hp] for r in game.robots],
            **{key: list(getattr(game, key)) for key in COUNTERS}}


def load(board: RobotGameMap, names: list[str], seed: int, rules: Rules,
         data: dict[str, Any]) -> RobotGame:
    state = State(data)
    game = RobotGame(board, names, seed, rules)
    game.turn = state.int("turn", 0, rules.max_turns)
    game.end = state.str("end", {END_TURN_LIMIT}, optional=True)
    game.next_id = state.int("next_id", 0, 1_000_000)
    game.spawn_rng, game.attack_rng = state.rng("spawn_rng"), state.rng("attack_rng")
    for key in COUNTERS:
        setattr(game, key, state.ints(key, 2, 0, 1 << 40))
    robots, ids, squares = [], set(), set()
    for i, (rid, player, x, y, hp) in enumerate(state.rows("robots", (int,) * 5)):
        if not (0 <= rid < game.next_id and player in (0, 1) and 0 < hp <= 1_000_000
                and board.walkable((x, y))) or rid in ids or (x, y) in squares:
            raise InputError(f"state.robots[{i}]: [id, player, x, y, hp] with an id below "
                             f"next_id and not used twice, player 0 or 1, a free walkable "
                             f"square, hp above 0")
        ids.add(rid)
        squares.add((x, y))
        robots.append(Robot((x, y), player, hp, rid))
    game.robots = robots
    return game


HOOKS = PositionHooks(save, load)
