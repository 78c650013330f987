"""The rules of one Robot Arena match: placement, the nine-step turn, the end check and
the ranking. `engine/arena/game.py` puts them behind the match protocol."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from engine import InputError
from engine.arena.board import Board, Thing
from engine.arena.constants import (
    ACTIVE,
    FLAG_BASE,
    FORWARD,
    FORWARD_TWO,
    LASER,
    LEFT_SPINNER,
    NO_MOVE,
    OVERHEAT,
    PRIORITY_MOVES,
    REVERSE,
    RIGHT_SPINNER,
    SIDESTEP_LEFT,
    SIDESTEP_RIGHT,
    TURN_MOVES,
)
from engine.arena.mapfile import ArenaMap
from engine.arena.rules import Rules
from engine.streams import stream

# How each stepping move steps, in quarter turns clockwise from the robot's facing.
STEP_TURNS = {FORWARD: 0, FORWARD_TWO: 0, REVERSE: 2, SIDESTEP_LEFT: 3, SIDESTEP_RIGHT: 1}

END_FLAGS, END_SURVIVOR, END_EXTINCTION, END_TURN_LIMIT = (
    "flags", "survivor", "extinction", "turn_limit")


@dataclass
class TurnLog:
    """What happened in one turn, for results and replays."""

    turn: int
    moves: dict[int, int] = field(default_factory=dict)       # robot id -> move code
    overheats: list[int] = field(default_factory=list)        # robot ids
    shots: list[tuple[int, int]] = field(default_factory=list)  # (shooter pos, target pos)
    exploded: list[int] = field(default_factory=list)         # robot ids of exploded corpses
    scored: list[tuple[int, int]] = field(default_factory=list)  # (robot id, flag number)
    hits: list[int] = field(default_factory=list)             # ids hit by a beam (-1: a block)
    pushed: list[int] = field(default_factory=list)           # robot/corpse ids pushed
    fell: list[int] = field(default_factory=list)             # robot/corpse ids that fell


class ArenaMatch:
    """The state of one match and the rules that advance it, one turn at a time."""

    def __init__(self, arena: ArenaMap, players: Sequence[str], seed: int, rules: Rules,
                 place: bool = True) -> None:
        self.arena = arena
        self.players = list(players)
        self.rules = rules
        self.seed = seed
        self.rng = stream(seed, "arena")
        self.board = Board(arena, rules)
        self.turn = 0
        self.end: str | None = None
        self.flag_count = len(arena.flags)
        self.overheats = [0] * len(self.players)
        self.last_alive = [0] * len(self.players)
        self.last_flag_ai: int | None = None
        self.decisions = [0] * len(self.players)     # bot calls, counted by the views
        self._log = TurnLog(0)
        if place:
            self._place_robots()

    def _place_robots(self) -> None:
        free = self.arena.free_tiles()
        need = self.rules.robots_per_type * len(self.players)
        if need > len(free):
            raise InputError(f"{self.arena.name}: map too small: {len(self.players)} AIs x "
                             f"{self.rules.robots_per_type} robots need {need} free tiles, "
                             f"the map has {len(free)}")
        spots = self.rng.sample(free, need)
        for i, (r, c) in enumerate(spots):
            self.board.add_robot(r, c, self.rng.randrange(4), i // self.rules.robots_per_type)

    # -- a turn ---------------------------------------------------------------------------
    def play_turn(self, moves: Mapping[int, int]) -> TurnLog:
        """Advance one turn. `moves` maps robot id to a move code (missing: no move)."""
        board, rules, rng = self.board, self.rules, self.rng
        self.turn += 1
        log = TurnLog(self.turn)
        self._log = log
        board.pushed, board.fallen = log.pushed, log.fell
        robots = [r for r in board.robots if r.state == ACTIVE]
        # 1. Decide: overheats take 1 damage and make no move.
        chosen: dict[int, int] = {}
        for robot in robots:
            code = moves.get(robot.id, NO_MOVE)
            if code == OVERHEAT:
                robot.life -= 1
                self.overheats[robot.owner] += 1
                log.overheats.append(robot.id)
            elif code != NO_MOVE:
                chosen[robot.id] = code
        log.moves = chosen
        if log.overheats:
            log.exploded += self._destroy()
        # 2. Priority moves, in a random order: each moves, then pays a charge or 1 life
        # (not if it fell). One that pays its last life has moved, and becomes a corpse
        # where it stands when destruction is resolved after the step.
        priority = [r for r in robots if chosen.get(r.id) in PRIORITY_MOVES]
        if priority:
            rng.shuffle(priority)
            for robot in priority:
                if robot.state != ACTIVE:
                    continue
                self._walk(robot, chosen[robot.id])
                if robot.state != ACTIVE:
                    continue
                if robot.charges > 0:
                    robot.charges -= 1
                else:
                    robot.life -= 1
            log.exploded += self._destroy()
        # 3. Laser moves fire once, together.
        gunners = [r for r in robots if r.state == ACTIVE and chosen.get(r.id) == LASER]
        if gunners:
            log.shots += self._fire(gunners)
            log.exploded += self._destroy()
        # 4. Normal moves: turns first, then steps in a random order.
        steppers = []
        for robot in robots:
            move = chosen.get(robot.id)
            if move in TURN_MOVES and robot.state == ACTIVE:
                robot.facing = (robot.facing + TURN_MOVES[move]) % 4
            elif move == FORWARD or move == REVERSE:
                steppers.append(robot)
        rng.shuffle(steppers)
        for robot in steppers:
            if robot.state == ACTIVE:
                self._walk(robot, chosen[robot.id])
        # 5. Spinners.
        floor = board.floor
        active = [r for r in robots if r.state == ACTIVE]
        for robot in active:
            spin = floor[robot.pos]
            if spin == LEFT_SPINNER:
                robot.facing = (robot.facing + 3) % 4
            elif spin == RIGHT_SPINNER:
                robot.facing = (robot.facing + 1) % 4
        # 6. Every robot and mounted laser fires.
        shooters = active + [b for b in board.lasers_alive()]
        log.shots += self._fire(shooters)
        log.exploded += self._destroy()
        # The v1.1 preset's random damage comes here, as in the original engine.
        if rules.random_damage:
            self._random_damage(log)
        # 7. Flags.
        for robot in robots:
            if robot.state == ACTIVE and floor[robot.pos] == FLAG_BASE + robot.flags + 1:
                robot.flags += 1
                robot.life += rules.life_per_flag
                log.scored.append((robot.id, robot.flags))
                if robot.flags == self.flag_count:
                    self.last_flag_ai = robot.owner
        # 8. Charges.
        if self.turn % rules.charge_every == 0:
            for robot in robots:
                if robot.state == ACTIVE:
                    robot.charges += 1
        # 9. End check.
        self._check_end()
        return log

    # -- steps ---------------------------------------------------------------------------
    def _walk(self, robot: Thing, code: int) -> None:
        direction = (robot.facing + STEP_TURNS[code]) % 4
        if self.board.step(robot, direction) and code == FORWARD_TWO and robot.state == ACTIVE:
            self.board.step(robot, direction)

    def _fire(self, shooters: list[Thing]) -> list[tuple[int, int]]:
        pairs = self.board.fire(shooters)
        self._log.hits += [t.id for _, t in pairs]
        return [(s.pos, t.pos) for s, t in pairs]

    def _destroy(self) -> list[int]:
        return [corpse.id for corpse in self.board.resolve_destruction()]

    def _random_damage(self, log: TurnLog) -> None:
        rules = self.rules
        since = self.turn - rules.random_damage_start
        if since < 0 or since % rules.random_damage_every:
            return
        damage = since // rules.random_damage_every
        robots = [r for r in self.board.robots if r.state == ACTIVE]
        weights = [max(0, rules.random_damage_weight - r.flags) for r in robots]
        if damage <= 0 or not any(weights):
            return
        victim = self.rng.choices(robots, weights)[0]
        victim.life -= damage
        log.exploded += self._destroy()

    def _check_end(self) -> None:
        alive = set()
        for robot in self.board.robots:
            if robot.state == ACTIVE:
                alive.add(robot.owner)
        for ai in alive:
            self.last_alive[ai] = self.turn
        if self.last_flag_ai is not None:
            self.end = END_FLAGS
        elif not alive:
            self.end = END_EXTINCTION
        elif len(alive) == 1 and len(self.players) > 1:
            self.end = END_SURVIVOR
        elif self.turn >= self.rules.max_turns:
            self.end = END_TURN_LIMIT

    # -- results -------------------------------------------------------------------------
    def stats(self, ai: int) -> dict[str, int]:
        """The game-specific numbers of one AI, as reported in results."""
        mine = [r for r in self.board.robots if r.owner == ai]
        alive = [r for r in mine if r.state == ACTIVE]
        return {
            "max_flags": max((r.flags for r in mine), default=0),
            "total_flags": sum(r.flags for r in mine),
            "alive": len(alive),
            "last_alive_turn": self.last_alive[ai],
            "total_life": sum(r.life for r in alive),
            "overheats": self.overheats[ai],
            "decisions": self.decisions[ai],
        }

    def snapshot(self) -> tuple[Any, ...]:
        """The whole state as plain data: equal snapshots mean equal matches."""
        board = self.board
        return (self.turn, self.end,
                tuple((r.pos, r.kind, r.facing, r.life, r.charges, r.flags, r.state)
                      for r in board.robots),
                tuple((b.pos, b.life) for b in board.blocks))

    def ranking(self) -> list[int]:
        """Competition ranks (1, 1, 3, ...) of the players, best first, by the end rules."""
        keys = [self._rank_key(ai) for ai in range(len(self.players))]
        return [1 + sum(other > key for other in keys) for key in keys]

    def _rank_key(self, ai: int) -> tuple[int, ...]:
        s = self.stats(ai)
        if self.end == END_FLAGS:
            return (self.last_flag_ai == ai, s["max_flags"], s["total_flags"],
                    s["last_alive_turn"], s["alive"])
        if self.end == END_SURVIVOR:
            return (s["alive"] > 0, s["last_alive_turn"], s["max_flags"], s["total_flags"])
        if self.end == END_EXTINCTION:
            return (s["last_alive_turn"], s["max_flags"], s["total_flags"])
        return (s["max_flags"], s["alive"], s["total_flags"], s["total_life"])
