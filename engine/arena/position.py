"""Robot Arena's state between turns (engine/position.py): every robot (where, facing,
life, charges, flags, what it is now), each wall's and mounted laser's life, the shared
random generator, the turn and the counters. The map's floor and blocks come from the
map file beside it."""
from __future__ import annotations

from typing import Any

from engine import InputError
from engine.arena.board import Thing
from engine.arena.constants import ACTIVE, CORPSE, DEAD_CORPSE, EXPLODED, FALLEN, ROBOT
from engine.arena.game import ArenaGame
from engine.arena.mapfile import ArenaMap
from engine.arena.match import END_EXTINCTION, END_FLAGS, END_SURVIVOR, END_TURN_LIMIT
from engine.arena.rules import Rules
from engine.position import PositionHooks, State, rng_state

STATES = (ACTIVE, DEAD_CORPSE, FALLEN, EXPLODED)
KINDS = {ROBOT: "robot", CORPSE: "corpse"}
ENDS = {END_FLAGS, END_SURVIVOR, END_EXTINCTION, END_TURN_LIMIT}
# robots: [id, row, col, facing, life, charges, flags, state, owner, kind]
ROBOT_ROW = (int, int, int, int, int, int, int, str, int, str)


def save(game: ArenaGame) -> dict[str, Any]:
    rc = game.board.rc
    return {
        "turn": game.turn, "end": game.end, "rng": rng_state(game.rng),
        "robots": [[r.id, *rc(r.pos), r.facing, r.life, r.charges, r.flags, r.state,
                    r.owner, KINDS[r.kind]] for r in game.board.robots],
        "blocks": [b.life for b in game.board.blocks],
        "overheats": list(game.overheats), "last_alive": list(game.last_alive),
        "last_flag_ai": game.last_flag_ai, "decisions": list(game.decisions)}


def load(arena: ArenaMap, names: list[str], seed: int, rules: Rules,
         data: dict[str, Any]) -> ArenaGame:
    state = State(data)
    n = len(names)
    game = ArenaGame(arena, names, seed, rules, place=False)
    board = game.board
    game.turn = state.int("turn", 0, rules.max_turns)
    game.end = state.str("end", ENDS, optional=True)
    game.rng = state.rng("rng")
    game.overheats = state.ints("overheats", n)
    game.last_alive = state.ints("last_alive", n)
    game.last_flag_ai = state.optional_int("last_flag_ai", 0, n - 1)
    game.decisions = state.ints("decisions", n)
    lives = state.ints("blocks", len(board.blocks), -1_000_000, 1_000_000)
    for block, life in zip(board.blocks, lives, strict=True):
        block.life = life
        if life <= 0:
            board.cells[block.pos] = None
    edge = board.pad
    for i, row in enumerate(state.rows("robots", ROBOT_ROW)):
        rid, r, c, facing, life, charges, flags, status, owner, kind = row
        where = f"state.robots[{i}]"
        if rid != i:
            raise InputError(f"{where}: robot ids are 0, 1, 2... in order")
        if not (-edge <= r < arena.size + edge and -edge <= c < arena.size + edge
                and 0 <= facing < 4 and 0 <= owner < n and 0 <= flags <= len(arena.flags)
                and 0 <= charges <= 1_000_000 and abs(life) <= 1_000_000
                and status in STATES and kind in KINDS.values()):
            raise InputError(f"{where}: a value out of range (row, col on the board, facing "
                             f"0-3, an owner of 0-{n - 1}, a state of {', '.join(STATES)})")
        robot = Thing(rid, ROBOT if kind == "robot" else CORPSE, board.at(r, c), life,
                      facing, owner, charges)
        robot.flags, robot.state = flags, status
        board.robots.append(robot)
        if status in (ACTIVE, DEAD_CORPSE):
            pos = robot.pos
            if not 0 <= r < arena.size or not 0 <= c < arena.size or \
                    board.cells[pos] is not None:
                raise InputError(f"{where}: a robot standing off the board or on another "
                                 f"robot, a wall or a laser")
            board.cells[pos] = robot
    return game


HOOKS = PositionHooks(save, load)
