"""A Robot Game match driven through the engine protocol the orchestrator speaks.

Turns are numbered 0 to 99. On turns 0, 10, ..., 90 the robots standing on spawn
squares die and 5 new robots per player appear, at the end of the turn, so they act from
the next one. After turn 99 the player with more robots wins.
"""
from __future__ import annotations

import random
from array import array
from typing import Mapping, Sequence

from engine import InputError
from engine.robotgame.mapfile import Loc, RobotGameMap
from engine.robotgame.resolve import ATTACK, GUARD, MOVE, SUICIDE, Robot, around, resolve
from engine.robotgame.rules import Rules

# Action codes on the wire: three bytes per robot, (code, x, y).
CODE_GUARD, CODE_MOVE, CODE_ATTACK, CODE_SUICIDE, CODE_ERROR, CODE_TIMEOUT = range(6)
KINDS = {CODE_GUARD: GUARD, CODE_MOVE: MOVE, CODE_ATTACK: ATTACK, CODE_SUICIDE: SUICIDE,
         CODE_ERROR: GUARD, CODE_TIMEOUT: GUARD}
END_TURN_LIMIT = "turn_limit"


class BadAnswer(ValueError):
    """An answer that does not fit what was asked: a protocol violation."""


class RobotGameMatch:
    """The state of one match and the rules that advance it, one turn at a time."""

    first_turn = 0                      # turns are numbered from 0, as in rgkit

    def __init__(self, board: RobotGameMap, players: Sequence[str], seed: int,
                 rules: Rules) -> None:
        if len(players) != 2:
            raise InputError(f"Robot Game is for 2 players, not {len(players)}")
        if board.board_size != rules.board_size:
            raise InputError(f"{board.name}: a {board.board_size}-square board, but the rules "
                             f"say {rules.board_size}")
        if len(board.spawn) < 2 * rules.spawn_per_player:
            raise InputError(f"{board.name}: {len(board.spawn)} spawn squares cannot hold "
                             f"{rules.spawn_per_player} robots per player")
        self.board = board
        self.players = list(players)
        self.rules = rules
        self.seed = seed
        self.spawn_rng = random.Random(f"{seed}:spawn")
        self.attack_rng = random.Random(f"{seed}:attack")
        self.robots: list[Robot] = []
        self.turn = 0
        self.end: str | None = None
        self.next_id = 0
        self.spawned = [0] * 2
        self.decisions = [0] * 2
        self.overheats = [0] * 2
        self.timeouts = [0] * 2
        self.damage_dealt = [0] * 2
        self._asked: dict[int, list[Robot]] = {}
        self._faults: list[list] = []          # this turn's acts that raised or timed out
        self._spawn_squares = set(board.spawn)

    # -- the protocol the orchestrator drives ---------------------------------------------
    def start_info(self, ai: int) -> dict:
        """What a player's bot side needs once: the map and the settings `rg` exposes."""
        return {"map": self.board.to_data(), "settings": self.rules.rg_settings()}

    def views(self) -> dict[int, dict]:
        """Per player with robots, every robot on the board; robot ids only for its own."""
        by_ai: dict[int, list[Robot]] = {0: [], 1: []}
        for robot in self.robots:
            by_ai[robot.player].append(robot)
        self._asked = {ai: own for ai, own in by_ai.items() if own}
        views = {}
        for ai in self._asked:
            rows = array("h")
            for r in self.robots:
                rows.extend((r.loc[0], r.loc[1], r.hp, r.player, r.rid if r.player == ai
                             else -1))
            self.decisions[ai] += len(self._asked[ai])
            views[ai] = {"turn": self.turn, "robots": rows.tobytes()}
        return views

    def calls(self, ai: int) -> int:
        return len(self._asked.get(ai, ()))

    def decode_answer(self, ai: int, data: bytes) -> dict[Loc, tuple]:
        """One player's actions, three bytes per robot it was asked about.

        The bot side has validated them; an action that is still not legal here (a move
        or attack off the board, into an obstacle or not adjacent) becomes a guard.
        """
        robots = self._asked.get(ai, [])
        if not isinstance(data, bytes) or len(data) != 3 * len(robots):
            raise BadAnswer(f"expected {3 * len(robots)} action bytes, got {data!r:.80}")
        actions = {}
        for i, robot in enumerate(robots):
            code, x, y = data[3 * i:3 * i + 3]
            if code not in KINDS:
                raise BadAnswer(f"unknown action code {code}")
            kind = KINDS[code]
            if code == CODE_ERROR:
                self.overheats[ai] += 1
                self._faults.append([robot.rid, "error"])
            elif code == CODE_TIMEOUT:
                self.timeouts[ai] += 1
                self._faults.append([robot.rid, "timeout"])
            if kind in (MOVE, ATTACK):
                target = (x, y)
                if target not in around(robot.loc) or not self.board.walkable(target):
                    self.overheats[ai] += 1
                    actions[robot.loc] = (GUARD,)
                    continue
                actions[robot.loc] = (kind, target)
            else:
                actions[robot.loc] = (kind,)
        return actions

    def play_turn(self, actions: Mapping[Loc, tuple]) -> dict:
        """Resolve the turn's actions (missing: guard), spawn if it is time, advance.

        Returns the turn's actions by robot id, for replays."""
        rules = self.rules
        by_id = {r.loc: r.rid for r in self.robots}
        log = {"actions": sorted([by_id[loc], act[0], *(act[1] if len(act) > 1 else ())]
                                 for loc, act in actions.items() if loc in by_id),
               "faults": sorted(self._faults)}
        self._faults = []
        outcome = resolve(self.robots, dict(actions), collision_damage=rules.collision_damage,
                          suicide_damage=rules.suicide_damage,
                          attack_damage=lambda: self.attack_rng.randint(rules.attack_min,
                                                                        rules.attack_max))
        survivors = []
        for robot, (loc, hp) in zip(self.robots, outcome, strict=True):
            self.damage_dealt[1 - robot.player] += robot.hp - max(hp, 0)
            if hp > 0:
                survivors.append(Robot(loc, robot.player, hp, robot.rid))
        if self.turn % rules.spawn_every == 0:
            survivors = [r for r in survivors if r.loc not in self._spawn_squares]
            survivors += self._spawn()
        self.robots = survivors
        self.turn += 1
        if self.turn >= rules.max_turns:
            self.end = END_TURN_LIMIT
        return log

    def _spawn(self) -> list[Robot]:
        per, size = self.rules.spawn_per_player, self.board.board_size
        squares = self.board.spawn
        if self.rules.symmetric_spawn:
            first: list[Loc] = []
            taken: set[Loc] = set()
            while len(first) < per:
                loc = self.spawn_rng.choice(squares)
                mirror = (size - 1 - loc[0], size - 1 - loc[1])
                if loc not in taken and mirror not in taken:
                    first.append(loc)
                    taken.update((loc, mirror))
            places = [first, [(size - 1 - x, size - 1 - y) for x, y in first]]
        else:
            drawn = self.spawn_rng.sample(squares, 2 * per)
            places = [drawn[:per], drawn[per:]]
        born = []
        for i in range(per):
            for player in (0, 1):
                born.append(Robot(places[player][i], player, self.rules.robot_hp, self.next_id))
                self.next_id += 1
                self.spawned[player] += 1
        return born

    # -- results ---------------------------------------------------------------------------
    def stats(self, ai: int) -> dict[str, int]:
        return {"robots": sum(1 for r in self.robots if r.player == ai),
                "hp": sum(r.hp for r in self.robots if r.player == ai),
                "spawned": self.spawned[ai], "damage_dealt": self.damage_dealt[ai],
                "decisions": self.decisions[ai], "overheats": self.overheats[ai],
                "timeouts": self.timeouts[ai]}

    def scores(self) -> list[int]:
        return [sum(1 for r in self.robots if r.player == ai) for ai in (0, 1)]

    def ranking(self) -> list[int]:
        """More robots wins; equal counts are a draw (both rank 1)."""
        scores = self.scores()
        return [1 + sum(other > mine for other in scores) for mine in scores]

    # -- replays -------------------------------------------------------------------------
    def replay_static(self) -> dict:
        return {"size": self.board.board_size, **self.board.to_data()}

    def replay_frame(self) -> dict:
        """robots [id, player, x, y, hp]."""
        return {"robots": [[r.rid, r.player, r.loc[0], r.loc[1], r.hp] for r in self.robots]}

    def replay_events(self, log: dict) -> dict:
        return log

    def snapshot(self) -> tuple:
        return (self.turn, self.end, tuple((r.loc, r.player, r.hp, r.rid) for r in self.robots))
