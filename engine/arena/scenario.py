"""Scripted positions: a hand-made map, robots and moves, run through the real engine."""
from __future__ import annotations

from typing import Any

from engine import InputError
from engine.arena.constants import (
    COMPASS,
    EMPTY,
    FLAG_BASE,
    KIND_NAMES,
    LEFT_SPINNER,
    MOVE_CODES,
    OVERHEAT,
    RIGHT_SPINNER,
    ROBOT,
)
from engine.arena.game import ArenaGame
from engine.arena.mapfile import parse_map
from engine.arena.rules import MOST, rules_from

MAX_ROBOTS = 1000            # robots of one scenario (a match: 8 AIs x 40)
MAX_MOVES = 2000             # scripted turns of one file (a match: 1000)


def _need(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise InputError(f"{where}: missing {key!r}")
    if not isinstance(data[key], kind) or isinstance(data[key], bool) and kind is int:
        raise InputError(f"{where}: {key!r} must be a {kind.__name__}")
    return data[key]


def build(data: Any, name: str = "<scenario>") -> tuple[ArenaGame, dict[str, Any]]:
    """The match of a scenario (views and answers work on it too), and its robots by
    scenario id."""
    if not isinstance(data, dict):
        raise InputError(f"{name}: a scenario is a JSON object")
    lines = _need(data, "map", list, name)
    if not all(isinstance(line, str) for line in lines):
        raise InputError(f"{name}: 'map' must be a list of strings")
    arena = parse_map("\n".join(lines), f"{name} map")
    overrides = data.get("rules") or {}
    if not isinstance(overrides, dict):
        raise InputError(f"{name}: 'rules' must be an object")
    overrides = dict(overrides)
    try:
        rules = rules_from(str(overrides.pop("preset", "seed")), **overrides)
    except InputError as exc:
        raise InputError(f"{name}: {exc}") from None
    robots = _need(data, "robots", list, name)
    if len(robots) > MAX_ROBOTS:
        raise InputError(f"{name}: 'robots' must be at most {MAX_ROBOTS} robots")
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 63:
        raise InputError(f"{name}: 'seed' must be an integer from 0 to 2^63 - 1")
    ais: list[Any] = []              # as the scenario names them (any JSON value)
    for robot in robots:
        if isinstance(robot, dict) and robot.get("ai") not in ais:
            ais.append(robot.get("ai"))
    match = ArenaGame(arena, [str(a) for a in ais], seed, rules, place=False)
    by_id: dict[str, Any] = {}
    for n, robot in enumerate(robots):
        where = f"{name}: robot {n + 1}"
        if not isinstance(robot, dict):
            raise InputError(f"{where}: must be an object")
        rid = str(_need(robot, "id", str, where))
        row, col = _need(robot, "row", int, where), _need(robot, "col", int, where)
        facing = _need(robot, "facing", str, where)
        if rid in by_id:
            raise InputError(f"{where}: id {rid!r} is used twice")
        if facing not in COMPASS or len(facing) != 1:
            raise InputError(f"{where}: facing must be one of N, E, S, W")
        if not (0 <= row < arena.size and 0 <= col < arena.size):
            raise InputError(f"{where}: ({row}, {col}) is outside the {arena.size}x"
                             f"{arena.size} map")
        pos = match.board.at(row, col)
        if match.board.cells[pos] is not None:
            raise InputError(f"{where}: ({row}, {col}) is already occupied")
        if match.board.floor[pos] not in (EMPTY, LEFT_SPINNER, RIGHT_SPINNER) and \
                match.board.floor[pos] < FLAG_BASE:
            raise InputError(f"{where}: ({row}, {col}) is a pit")
        extra = {k: robot[k] for k in ("life", "charges", "flags") if k in robot}
        for key, value in extra.items():
            low = 1 if key == "life" else 0
            if not isinstance(value, int) or isinstance(value, bool) or \
                    not low <= value <= MOST:
                raise InputError(f"{where}: {key!r} must be an integer from {low} to {MOST}")
        by_id[rid] = match.board.add_robot(row, col, COMPASS.index(facing),
                                           ais.index(robot.get("ai")), **extra)
    return match, by_id


def run(data: Any, name: str = "<scenario>") -> dict[str, Any]:
    """Play the scenario's moves; return the final state in the cli.md shape."""
    match, by_id = build(data, name)
    moves = data.get("moves", [])
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        # robots x turns is the cost: 1 MiB of 8,000 robots and 170,000 empty turns ran
        # over an hour; at most 1,000 x 2,000 plays in seconds.
        raise InputError(f"{name}: 'moves' must be a list of at most {MAX_MOVES} turns")
    for t, turn_moves in enumerate(moves):
        if match.end is not None:
            break
        if not isinstance(turn_moves, dict):
            raise InputError(f"{name}: moves[{t}] must be an object of id: MOVE")
        codes = {}
        for rid, move in turn_moves.items():
            if rid not in by_id:
                raise InputError(f"{name}: moves[{t}] names unknown robot {rid!r}")
            codes[by_id[rid].id] = MOVE_CODES.get(move, OVERHEAT) if isinstance(move, str) \
                else OVERHEAT
        match.play_turn(codes)
    return state(match, by_id)


def state(match: ArenaGame, by_id: dict[str, Any]) -> dict[str, Any]:
    board = match.board
    robots = []
    for rid, robot in by_id.items():
        row, col = board.rc(robot.pos)
        robots.append({"id": rid, "row": row, "col": col, "facing": COMPASS[robot.facing],
                       "life": robot.life, "charges": robot.charges, "flags": robot.flags,
                       "state": robot.state})
    objects = []
    for pos, thing in enumerate(board.cells):       # row-major, by construction
        if thing is not None and thing.kind != ROBOT:
            row, col = board.rc(pos)
            objects.append({"row": row, "col": col, "type": KIND_NAMES[thing.kind],
                            "life": thing.life})
    return {"turn": match.turn, "end": match.end, "robots": robots, "objects": objects}
