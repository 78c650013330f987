"""Per-AI views: every robot's 11x11 sight, built at once with numpy, packed as bytes.

The payload of one AI for one turn (all little-endian machine order, decoded by
`sandbox/botlib/_arena.py`):
- `turn`: the turn about to be played (1-based);
- `ids`: int32 robot ids, one per robot, in the order the answer must follow;
- `own`: int16 rows of (life, charges, flags, sense bits) per robot;
- `floor`: 121 bytes per robot, row-major, already turned so the robot faces up;
- `count`: int16 number of visible things per robot (the robot itself included);
- `things`: int16 rows of (cell, kind, life, relative facing, owner) for them.
Sense bits: 1 AHEAD, 2 RIGHT, 4 BEHIND, 8 LEFT.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.arena.constants import (
    ACTIVE,
    DEAD_CORPSE,
    EMPTY,
    FLAG,
    FLAG_BASE,
    OUTSIDE,
    PIT,
    SIGHT,
    SIGHT_RADIUS,
)
from engine.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np

    from engine.arena.board import Board, Thing
    from engine.arena.match import ArenaMatch
else:
    np = lazy_import("numpy")        # loaded on first use: `arena` starts without it

SENSE_AHEAD, SENSE_RIGHT, SENSE_BEHIND, SENSE_LEFT = 1, 2, 4, 8


def sight_offsets(width: int) -> np.ndarray:
    """(4, 121) flat offsets: entry [f, i*11+j] is sight cell (i, j) for a robot facing f."""
    offsets = np.empty((4, SIGHT * SIGHT), dtype=np.int64)
    for facing, ((ar, ac), (rr, rc)) in enumerate(
            [((-1, 0), (0, 1)), ((0, 1), (1, 0)), ((1, 0), (0, -1)), ((0, -1), (-1, 0))]):
        for i in range(SIGHT):
            for j in range(SIGHT):
                ahead, right = SIGHT_RADIUS - i, j - SIGHT_RADIUS
                dr, dc = ahead * ar + right * rr, ahead * ac + right * rc
                offsets[facing, i * SIGHT + j] = dr * width + dc
    return offsets


class ViewCache:
    """What never changes during a match: the sight offsets and the floor as robots see it."""

    def __init__(self, board: "Board") -> None:
        self.offsets = sight_offsets(board.width)
        floor = np.array(board.floor, dtype=np.int16)
        floor[floor == OUTSIDE] = PIT
        self.floor = floor
        self.flag_rc = np.array([divmod(p, board.width) for p in board.flag_pos] + [(0, 0)],
                                dtype=np.int64)


def sense_bits(ahead: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The 4x rule, vectorised: bit set for each relative direction toward the target."""
    a_abs, r_abs = np.abs(ahead), np.abs(right)
    bits = np.zeros(ahead.shape, dtype=np.int16)
    bits |= np.where((ahead > 0) & (r_abs < 4 * a_abs), SENSE_AHEAD, 0).astype(np.int16)
    bits |= np.where((ahead < 0) & (r_abs < 4 * a_abs), SENSE_BEHIND, 0).astype(np.int16)
    bits |= np.where((right > 0) & (a_abs < 4 * r_abs), SENSE_RIGHT, 0).astype(np.int16)
    bits |= np.where((right < 0) & (a_abs < 4 * r_abs), SENSE_LEFT, 0).astype(np.int16)
    return bits


def build_views(match: "ArenaMatch", cache: ViewCache, by_ai: dict[int, list["Thing"]]
                ) -> dict[int, dict[str, Any]]:
    """One payload per AI in `by_ai`, covering all of its robots (see the module doc)."""
    board = match.board
    # One snapshot of every thing on the board; index 0 means "nothing".
    live = [t for t in board.robots if t.state == ACTIVE or t.state == DEAD_CORPSE]
    live += [b for b in board.blocks if b.life > 0]
    table = np.array([(0, 0, 0, 0, -1)] + [(t.pos, t.kind, t.life, t.facing, t.owner)
                                          for t in live], dtype=np.int64)
    grid = np.zeros(len(board.floor), dtype=np.int32)
    grid[table[1:, 0]] = np.arange(1, len(table), dtype=np.int32)
    views = {}
    width = board.width
    for ai, robots in by_ai.items():
        pos = np.array([r.pos for r in robots], dtype=np.int64)
        facing = np.array([r.facing for r in robots], dtype=np.int64)
        flags = np.array([r.flags for r in robots], dtype=np.int64)
        idx = pos[:, None] + cache.offsets[facing]
        floor = cache.floor[idx]
        # Only the robot's next flag shows as FLAG; every other flag tile is EMPTY.
        next_flag = (FLAG_BASE + 1 + flags)[:, None]
        floor = np.where(floor >= FLAG_BASE, np.where(floor == next_flag, FLAG, EMPTY), floor)
        ids = grid[idx]
        rows, cells = np.nonzero(ids)
        obj = table[ids[rows, cells]]
        things = np.stack([cells, obj[:, 1], obj[:, 2], (obj[:, 3] - facing[rows]) % 4,
                           obj[:, 4]], axis=1).astype(np.int16)
        count = np.bincount(rows, minlength=len(robots)).astype(np.int16)
        # Flag sense in the robot's own frame.
        target = cache.flag_rc[np.minimum(flags, len(board.flag_pos))]
        dr = target[:, 0] - pos // width
        dc = target[:, 1] - pos % width
        ahead = np.choose(facing, [-dr, dc, dr, -dc])
        right = np.choose(facing, [dc, dr, -dc, -dr])
        sense = sense_bits(ahead, right)
        sense[flags >= len(board.flag_pos)] = 0
        own = np.stack([[r.life for r in robots], [r.charges for r in robots], flags,
                        sense], axis=1).astype(np.int16)
        views[ai] = {
            "turn": match.turn + 1,
            "ids": np.array([r.id for r in robots], dtype=np.int32).tobytes(),
            "own": own.tobytes(),
            "floor": floor.astype(np.uint8).tobytes(),
            "count": count.tobytes(),
            "things": things.tobytes(),
        }
    return views
