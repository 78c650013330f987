"""Robot Arena behind the match protocol (engine/protocol.py): one view per AI covering
all of its robots, one move code per robot back, and replays; `ArenaMatch` holds the
rules."""
from __future__ import annotations

from typing import Any, Sequence

from engine.arena import view
from engine.arena.board import Thing
from engine.arena.constants import ACTIVE, MOVE_NAMES, NO_MOVE, OVERHEAT, SIGHT, WALL
from engine.arena.mapfile import ArenaMap
from engine.arena.match import ArenaMatch, TurnLog
from engine.arena.rules import Rules
from engine.protocol import MatchBase

VALID_CODES = frozenset(range(1, len(MOVE_NAMES) + 1)) | {NO_MOVE, OVERHEAT}
STATES = (ACTIVE, "corpse", "fallen", "exploded")     # a robot's state in replay rows


class BadAnswer(ValueError):
    """An AI's answer does not have the shape its view asked for."""


class ArenaGame(ArenaMatch, MatchBase):
    """One match of Robot Arena between the AIs `players`, in that order."""

    def __init__(self, arena: ArenaMap, players: Sequence[str], seed: int, rules: Rules,
                 place: bool = True) -> None:
        super().__init__(arena, players, seed, rules, place)
        self._asked: dict[int, list[Thing]] = {}
        self._view_cache: view.ViewCache | None = None

    # -- a turn ----------------------------------------------------------------------------
    def views(self) -> dict[int, dict[str, Any]]:
        """Per AI with robots left, one msgpack-ready payload covering all of its robots."""
        by_ai: dict[int, list[Thing]] = {}
        for robot in self.board.robots:
            if robot.state == ACTIVE:
                by_ai.setdefault(robot.owner, []).append(robot)
        self._asked = by_ai
        for ai, robots in by_ai.items():
            self.decisions[ai] += len(robots)
        if self._view_cache is None:
            self._view_cache = view.ViewCache(self.board)
        return view.build_views(self, self._view_cache, by_ai)

    def calls(self, ai: int) -> int:
        """How many bot calls the last view of `ai` asks for: one per robot."""
        return len(self._asked.get(ai, ()))

    def decode_answer(self, ai: int, codes: bytes) -> dict[int, int]:
        """Check one AI's answer against what its view asked: one move code per robot."""
        robots = self._asked.get(ai, [])
        if not isinstance(codes, bytes) or len(codes) != len(robots):
            raise BadAnswer(f"expected {len(robots)} move codes, got {codes!r:.80}")
        if not VALID_CODES.issuperset(codes):
            raise BadAnswer(f"unknown move code in {codes!r:.80}")
        return {robot.id: code for robot, code in zip(robots, codes, strict=True)}

    def kept_answer(self, ai: int, codes: bytes) -> bytes:
        """The move codes `decode_answer` accepted, one byte per robot."""
        return bytes(codes)

    # -- debug marks ------------------------------------------------------------------------
    def mark_square(self, ai: int, call: int, a: int, b: int) -> tuple[int, int] | None:
        """A square of the robot's 11x11 sight, (row, col) with the robot at (5, 5) facing
        up, as (col, row) of the board."""
        robots = self._asked.get(ai, [])
        if not 0 <= call < len(robots) or not (0 <= a < SIGHT and 0 <= b < SIGHT) \
                or self._view_cache is None:
            return None
        robot = robots[call]
        offsets = self._view_cache.offsets[robot.facing]
        row, col = self.board.rc(robot.pos + int(offsets[a * SIGHT + b]))
        size = self.arena.size
        return (col, row) if 0 <= row < size and 0 <= col < size else None

    def mark_piece(self, ai: int, call: int) -> Any:
        robots = self._asked.get(ai, [])
        return robots[call].id if 0 <= call < len(robots) else None

    # -- replays ---------------------------------------------------------------------------
    def replay_static(self) -> dict[str, Any]:
        """What never changes: the map as text rows, and who owns each robot."""
        board = self.board
        return {"size": self.arena.size, "rows": self.arena.to_text().split("\n")[:-1],
                "flags": len(self.arena.flags), "sight": 11,
                "owners": [[r.id, r.owner] for r in board.robots],
                "blocks": [[i, *board.rc(b.pos), "wall" if b.kind == WALL else "laser",
                            b.facing] for i, b in enumerate(board.blocks)]}

    def replay_frame(self) -> dict[str, Any]:
        """The state as keyed rows: robots [id, row, col, facing, life, charges, flags,
        state], blocks (walls and mounted lasers) [index, life]."""
        rc = self.board.rc
        robots = [[r.id, *rc(r.pos), r.facing, r.life, r.charges, r.flags,
                   STATES.index(r.state)] for r in self.board.robots]
        blocks = [[i, b.life] for i, b in enumerate(self.board.blocks)]
        return {"robots": robots, "blocks": blocks}

    def replay_events(self, log: TurnLog) -> dict[str, Any]:
        """One turn's events: moves by code, overheats, shots (from, to), what the beams hit
        (ids; -1 for a wall or laser), pushes, falls, corpses that exploded, flags scored."""
        rc = self.board.rc
        return {"moves": sorted([rid, code] for rid, code in log.moves.items()),
                "overheats": sorted(log.overheats),
                "shots": [[*rc(a), *rc(b)] for a, b in log.shots],
                "exploded": sorted(log.exploded), "scored": [list(x) for x in log.scored],
                "hits": sorted(log.hits), "pushed": sorted(log.pushed),
                "fell": sorted(log.fell)}
