"""Scripted positions (docs/robotgame.md, "Scenario files"): a Robot Game position (the
turn, every robot's location, hp, player and id) on a map, and the robots' actions per
turn in rgkit's forms, played through the real engine; the final state.

A scenario is untrusted input: every number is bounded here before the engine sees it
(a robot's hp and id travel as 16-bit numbers in a turn's view, a target's x and y as one
byte each), so a bad file is one InputError, never a traceback.
"""
from __future__ import annotations

from typing import Any, Callable

from engine import InputError
from engine.robotgame.game import (
    CODE_ATTACK,
    CODE_ERROR,
    CODE_GUARD,
    CODE_MOVE,
    CODE_SUICIDE,
    RobotGame,
)
from engine.robotgame.mapfile import RobotGameMap, map_from_data
from engine.robotgame.resolve import ATTACK, GUARD, MOVE, SUICIDE, Loc, Robot, around
from engine.robotgame.rules import MAX_NUMBER, Rules, rules_from

MAX_TURNS = 200             # scripted turns in one file (a match is 100)
DEFAULT_TURN = 1            # turn 0, 10, 20 ... end with a spawn; turn 1 does not
CODES = {GUARD: CODE_GUARD, MOVE: CODE_MOVE, ATTACK: CODE_ATTACK, SUICIDE: CODE_SUICIDE}
ACTION_FORMS = '["move", [x, y]], ["attack", [x, y]], ["guard"] or ["suicide"]'

FindMap = Callable[[str], RobotGameMap]


def _short(message: str, most: int = 300) -> str:
    """An error that quotes what the file holds, cut to a line's worth."""
    return message if len(message) <= most else message[:most] + "..."


def _int(value: Any, low: int, high: int, where: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise InputError(f"{where} must be a whole number from {low} to {high}")
    return value


def read_rules(data: Any, name: str) -> Rules:
    """The rules: rgkit's, with the scenario's `"rules"` overrides, each within the range
    the rules allow (engine/robotgame/rules.py)."""
    overrides = data.get("rules", {})
    if not isinstance(overrides, dict):
        raise InputError(f"{name}: 'rules' must be an object of rule: value")
    overrides = dict(overrides)
    preset = overrides.pop("preset", "rgkit")
    try:
        rules = rules_from(preset if isinstance(preset, str) else repr(preset), **overrides)
    except InputError as exc:
        raise InputError(_short(f"{name}: {exc}")) from None
    return rules


def read_map(data: Any, name: str, rules: Rules, find_map: FindMap | None) -> RobotGameMap:
    """The scenario's `"map"`: a bundled map's name (default "default") or rgkit's map
    as an object, {"spawn": [[x, y], ...], "obstacle": [[x, y], ...]}."""
    ref = data.get("map", "default")
    if isinstance(ref, dict):
        try:
            return map_from_data(ref, f"{name} map", rules.board_size)
        except InputError as exc:
            raise InputError(_short(str(exc))) from None
    if not isinstance(ref, str):
        raise InputError(f"{name}: 'map' must be a bundled map's name or an object of "
                         f"'spawn' and 'obstacle' squares")
    if find_map is None:
        raise InputError(f"{name}: give the map as an object of 'spawn' and 'obstacle' "
                         f"squares (no bundled maps here)")
    return find_map(ref)


def read_robots(robots: Any, board: RobotGameMap, rules: Rules, name: str) -> list[Robot]:
    """A position's robots, `[{"location": [x, y], "hp": n, "player_id": 0 or 1,
    "robot_id": n}, ...]`: each on an open square of its own, with a unique id."""
    size = board.board_size
    if not isinstance(robots, list) or len(robots) > size * size:
        raise InputError(f"{name}: 'robots' must be a list of at most {size * size} robots")
    out: list[Robot] = []
    squares: set[tuple[int, int]] = set()
    ids: set[int] = set()
    for n, spec in enumerate(robots):
        where = f"{name}: robot {n + 1}"
        if not isinstance(spec, dict):
            raise InputError(f"{where}: must be an object of location, hp, player_id, "
                             f"robot_id")
        unknown = sorted(set(spec) - {"location", "hp", "player_id", "robot_id"})
        if unknown:
            raise InputError(f"{where}: unknown field {unknown[0]!r:.40}")
        loc = spec.get("location")
        if not (isinstance(loc, list) and len(loc) == 2 and all(type(v) is int for v in loc)):
            raise InputError(f"{where}: 'location' must be [x, y]")
        loc = (loc[0], loc[1])
        if not board.walkable(loc):
            raise InputError(f"{where}: {list(loc)} is off the {size}x{size} board or an "
                             f"obstacle")
        if loc in squares:
            raise InputError(f"{where}: {list(loc)} already holds a robot")
        hp = _int(spec.get("hp", rules.robot_hp), 1, rules.robot_hp, f"{where}: 'hp'")
        player = _int(spec.get("player_id"), 0, 1, f"{where}: 'player_id'")
        rid = _int(spec.get("robot_id"), 0, MAX_NUMBER, f"{where}: 'robot_id'")
        if rid in ids:
            raise InputError(f"{where}: robot_id {rid} is used twice")
        squares.add(loc)
        ids.add(rid)
        out.append(Robot(loc, player, hp, rid))
    return out


def robots_data(robots: list[Robot]) -> list[dict[str, Any]]:
    """Robots in the position's shape (what `read_robots` reads)."""
    return [{"location": list(r.loc), "hp": r.hp, "player_id": r.player, "robot_id": r.rid}
            for r in robots]


def build(data: Any, name: str = "<scenario>",
          find_map: FindMap | None = None) -> RobotGame:
    """The match at the scenario's position: its map, rules, seed, turn and robots."""
    if not isinstance(data, dict):
        raise InputError(f"{name}: a scenario is a JSON object")
    rules = read_rules(data, name)
    board = read_map(data, name, rules, find_map)
    seed = data.get("seed", 0)
    if type(seed) is not int:
        raise InputError(f"{name}: 'seed' must be an integer")
    match = RobotGame(board, ["player 0", "player 1"], seed, rules)
    match.turn = _int(data.get("turn", DEFAULT_TURN), 0, rules.max_turns - 1,
                      f"{name}: 'turn'")
    match.robots = read_robots(data.get("robots", []), board, rules, name)
    match.next_id = max((r.rid for r in match.robots), default=-1) + 1
    return match


def _action(value: Any, where: str) -> tuple[str, tuple[int, int] | None]:
    """One action in rgkit's form, as (kind, target or None)."""
    kind = value[0] if isinstance(value, list) and 1 <= len(value) <= 2 else None
    if not isinstance(kind, str) or kind not in CODES:
        raise InputError(f"{where}: an action is {ACTION_FORMS}")
    if kind in (MOVE, ATTACK):
        target = value[1] if len(value) == 2 else None
        if not (isinstance(target, list) and len(target) == 2 and
                all(type(v) is int for v in target)):
            raise InputError(f"{where}: {kind} needs a location [x, y]")
        return kind, (target[0], target[1])
    if len(value) != 1:
        raise InputError(f"{where}: {kind} takes no location")
    return kind, None


def _answer(match: RobotGame, own: list[Robot], scripted: dict[int, tuple[Any, ...]]) -> bytes:
    """A player's answer on the wire, as its bot side sends it: three bytes a robot; a
    move or attack that is not to an adjacent open square is an invalid action (it
    guards, and counts as one), an unscripted robot guards."""
    out = bytearray()
    for robot in own:
        kind, target = scripted.get(robot.rid, (GUARD, None))
        if target is None:
            out += bytes((CODES[kind], 0, 0))
        elif target in around(robot.loc) and match.board.walkable(target):
            out += bytes((CODES[kind], *target))
        else:
            out += bytes((CODE_ERROR, 0, 0))
    return bytes(out)


def play(match: RobotGame, turns: Any, name: str) -> dict[int, tuple[Robot, bool]]:
    """Play the scripted turns, `[{robot_id: action}, ...]`, or until the match ends;
    every robot's last state by id, and whether it is alive."""
    if not isinstance(turns, list) or len(turns) > MAX_TURNS:
        raise InputError(f"{name}: 'actions' must be a list of at most {MAX_TURNS} turns")
    seen = {r.rid: (r, True) for r in match.robots}
    for t, turn in enumerate(turns):
        if match.end is not None:
            break
        where = f"{name}: actions[{t}] (turn {match.turn})"
        if not isinstance(turn, dict):
            raise InputError(f"{where}: must be an object of robot_id: action")
        on_board = {str(r.rid): r.rid for r in match.robots}
        scripted = {}
        for key, value in turn.items():
            if key not in on_board:
                raise InputError(f"{where}: no robot {key!r:.40} is on the board")
            scripted[on_board[key]] = _action(value, f"{where}, robot {key}")
        if match.turn % match.rules.spawn_every == 0 and \
                match.next_id + 2 * match.rules.spawn_per_player - 1 > MAX_NUMBER:
            raise InputError(f"{where}: its spawn would number robots past {MAX_NUMBER}")
        match.views()                     # whom the turn asks, as a real turn does
        actions: dict[Loc, tuple[Any, ...]] = {}
        for ai in (0, 1):
            own = [r for r in match.robots if r.player == ai]
            if own:
                actions.update(match.decode_answer(ai, _answer(match, own, scripted)))
        match.play_turn(actions)
        seen.update({r.rid: (r, False) for r in match.died})
        seen.update({r.rid: (r, True) for r in match.robots})
    return seen


def run(data: Any, name: str = "<scenario>", find_map: FindMap | None = None) -> dict[str, Any]:
    """Play the scenario; its final state (docs/robotgame.md gives the shape)."""
    match = build(data, name, find_map)
    return state(match, play(match, data.get("actions", []), name))


def state(match: RobotGame, seen: dict[int, tuple[Robot, bool]]) -> dict[str, Any]:
    """The turn to play next, the end (or None), every robot that was on the board (a
    dead one where it died, with hp 0), and each player's robots and invalid actions."""
    robots = [{"id": str(rid), **robots_data([robot])[0], "alive": alive}
              for rid, (robot, alive) in seen.items()]
    for robot in robots:
        if not robot["alive"]:
            robot["hp"] = 0
    players = [{"player_id": ai, "robots": match.scores()[ai],
                "invalid": match.overheats[ai]} for ai in (0, 1)]
    return {"turn": match.turn, "end": match.end, "robots": robots, "players": players}
