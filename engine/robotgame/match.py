"""The rules of one Robot Game match; `engine/robotgame/game.py` puts them behind the match
protocol.

Turns are numbered 0 to 99. On turns 0, 10, ..., 90 the robots standing on spawn
squares die and 5 new robots per player appear, at the end of the turn, so they act from
the next one. After turn 99 the player with more robots wins.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine import InputError
from engine.robotgame.mapfile import Loc, RobotGameMap
from engine.robotgame.resolve import Robot, resolve
from engine.robotgame.rules import Rules
from engine.streams import stream

END_TURN_LIMIT = "turn_limit"
SPAWN_TRIES = 1000          # draws per robot a spawn may take (an honest one: a few)


class RobotGameMatch:
    """The state of one match and the rules that advance it, one turn at a time."""

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
        size = board.board_size
        pairs = {frozenset({loc, (size - 1 - loc[0], size - 1 - loc[1])})
                 for loc in board.spawn}
        if rules.symmetric_spawn and len(pairs) < rules.spawn_per_player:
            raise InputError(f"{board.name}: its spawn squares make {len(pairs)} mirrored "
                             f"pairs, too few for {rules.spawn_per_player} robots per player")
        self.board = board
        self.players = list(players)
        self.rules = rules
        self.seed = seed
        self.spawn_rng = stream(seed, "spawn")
        self.attack_rng = stream(seed, "attack")
        self.robots: list[Robot] = []
        self.turn = 0
        self.end: str | None = None
        self.next_id = 0
        self.spawned = [0] * 2
        self.decisions = [0] * 2
        self.overheats = [0] * 2
        self.timeouts = [0] * 2
        self.damage_dealt = [0] * 2
        self._faults: list[list[Any]] = []          # this turn's acts that raised or timed out
        self.died: list[Robot] = []            # last turn's dead, where they ended (hp <= 0
                                               # when damage killed them)
        self._spawn_squares = set(board.spawn)

    # -- a turn ---------------------------------------------------------------------------
    def play_turn(self, actions: Mapping[Loc, tuple[Any, ...]]) -> dict[str, Any]:
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
        survivors: list[Robot] = []
        died: list[Robot] = []
        for robot, (loc, hp) in zip(self.robots, outcome, strict=True):
            self.damage_dealt[1 - robot.player] += robot.hp - max(hp, 0)
            (survivors if hp > 0 else died).append(Robot(loc, robot.player, hp, robot.rid))
        if self.turn % rules.spawn_every == 0:
            died += [r for r in survivors if r.loc in self._spawn_squares]
            survivors = [r for r in survivors if r.loc not in self._spawn_squares]
            survivors += self._spawn()
        self.died = died
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
            # The draws end: every pick is possible (__init__ counted the pairs), and a
            # generator that draws no free square in this many tries is no honest one
            # (a forged position's state): one error, never a loop without end.
            for _ in range(SPAWN_TRIES * max(1, per)):
                if len(first) >= per:
                    break
                loc = self.spawn_rng.choice(squares)
                mirror = (size - 1 - loc[0], size - 1 - loc[1])
                if loc not in taken and mirror not in taken:
                    first.append(loc)
                    taken.update((loc, mirror))
            else:
                if len(first) < per:
                    raise RuntimeError(f"the spawn's random generator drew no free square "
                                       f"in {SPAWN_TRIES * per} tries: its state is not "
                                       f"one a match reaches")
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

    def snapshot(self) -> tuple[Any, ...]:
        return (self.turn, self.end, tuple((r.loc, r.player, r.hp, r.rid) for r in self.robots))
