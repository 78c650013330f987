"""Robot Game behind the match protocol (engine/protocol.py): the map and settings once,
every robot on the board as a view, three bytes per own robot back, and replays;
`RobotGameMatch` holds the rules."""
from __future__ import annotations

from array import array
from typing import Any, Sequence

from engine.protocol import MatchBase
from engine.robotgame.mapfile import Loc, RobotGameMap
from engine.robotgame.match import RobotGameMatch
from engine.robotgame.resolve import ATTACK, GUARD, MOVE, SUICIDE, Robot, around
from engine.robotgame.rules import Rules

# Action codes on the wire: three bytes per robot, (code, x, y).
CODE_GUARD, CODE_MOVE, CODE_ATTACK, CODE_SUICIDE, CODE_ERROR, CODE_TIMEOUT = range(6)
KINDS = {CODE_GUARD: GUARD, CODE_MOVE: MOVE, CODE_ATTACK: ATTACK, CODE_SUICIDE: SUICIDE,
         CODE_ERROR: GUARD, CODE_TIMEOUT: GUARD}


class BadAnswer(ValueError):
    """An answer that does not fit what was asked: a protocol violation."""


class RobotGame(RobotGameMatch, MatchBase):
    """One match of Robot Game between the two players `players`."""

    first_turn = 0                      # turns are numbered from 0, as in rgkit

    def __init__(self, board: RobotGameMap, players: Sequence[str], seed: int,
                 rules: Rules) -> None:
        super().__init__(board, players, seed, rules)
        self._asked: dict[int, list[Robot]] = {}

    # -- a turn ---------------------------------------------------------------------------
    def start_info(self, ai: int) -> dict[str, Any]:
        """What a player's bot side needs once: the map and the settings `rg` exposes."""
        return {"map": self.board.to_data(), "settings": self.rules.rg_settings()}

    def views(self) -> dict[int, dict[str, Any]]:
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

    def decode_answer(self, ai: int, data: bytes) -> dict[Loc, tuple[Any, ...]]:
        """One player's actions, three bytes per robot it was asked about.

        The bot side has validated them; an action that is still not legal here (a move
        or attack off the board, into an obstacle or not adjacent) becomes a guard.
        """
        robots = self._asked.get(ai, [])
        if not isinstance(data, bytes) or len(data) != 3 * len(robots):
            raise BadAnswer(f"expected {3 * len(robots)} action bytes, got {data!r:.80}")
        actions: dict[Loc, tuple[Any, ...]] = {}
        for i, robot in enumerate(robots):
            code, x, y = data[3 * i:3 * i + 3]
            if code not in KINDS:
                raise BadAnswer(f"unknown action code {code}")
            kind = KINDS[code]
            if kind not in (MOVE, ATTACK) and (x, y) != (0, 0):
                raise BadAnswer(f"action code {code} takes no location, got ({x}, {y})")
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

    def kept_answer(self, ai: int, data: bytes) -> bytes:
        """The action bytes `decode_answer` accepted, three per robot."""
        return bytes(data)

    # -- debug marks ------------------------------------------------------------------------
    def mark_square(self, ai: int, call: int, a: int, b: int) -> tuple[int, int] | None:
        """rgkit's (x, y), as the board is drawn."""
        size = self.board.board_size
        return (a, b) if 0 <= a < size and 0 <= b < size else None

    def mark_piece(self, ai: int, call: int) -> Any:
        robots = self._asked.get(ai, [])
        return robots[call].rid if 0 <= call < len(robots) else None

    # -- replays -------------------------------------------------------------------------
    def replay_static(self) -> dict[str, Any]:
        return {"size": self.board.board_size, **self.board.to_data()}

    def replay_frame(self) -> dict[str, Any]:
        """robots [id, player, x, y, hp]."""
        return {"robots": [[r.rid, r.player, r.loc[0], r.loc[1], r.hp] for r in self.robots]}
