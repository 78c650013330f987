"""The toy game's rules, pure (no processes, no I/O beyond the text handed in): two
players on a small grid of walls (`#`) and coins (`$`), starting on `1` and `2`. Each turn
both say a step (N, E, S, W, or `.` to stay); they move one after the other, in an order
drawn from the seed each turn, onto free squares only, and a coin stepped on is theirs.
The game ends when the coins run out or at the turn cap; most coins wins."""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from engine import InputError
from engine.rules_base import RulesBase, preset_with

STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0), ".": (0, 0)}
SYMBOLS = "#$ 12."
MAX_SIDE = 40
COMMENT = "%"                  # a comment line starts with it


@dataclass(frozen=True)
class Rules(RulesBase):
    preset: str = "toy"
    max_turns: int = 30

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {"max_turns": (1, 1_000_000)}


PRESETS: dict[str, Rules] = {"toy": Rules()}


def rules_from(preset: str = "toy", **overrides: Any) -> Rules:
    return preset_with(PRESETS, preset, **overrides)


@dataclass(frozen=True)
class Board:
    """A map: its rows (walls and floor only), the start squares and the coins."""

    name: str
    rows: tuple[str, ...]
    starts: tuple[tuple[int, int], ...]
    coins: frozenset[tuple[int, int]]

    def free(self, x: int, y: int) -> bool:
        return 0 <= y < len(self.rows) and 0 <= x < len(self.rows[y]) and self.rows[y][x] != "#"


def parse_map(text: str, filename: str) -> Board:
    """A map from its text (comment lines, `%`, skipped); a bad one is one InputError."""
    lines = [(n, line.rstrip("\n")) for n, line in enumerate(text.split("\n"), 1)
             if line.strip() and not line.startswith(COMMENT)]
    if not lines:
        raise InputError(f"{filename}: empty map")
    width = len(lines[0][1])
    if len(lines) > MAX_SIDE or width > MAX_SIDE:
        raise InputError(f"{filename}: more than {MAX_SIDE} rows or columns")
    starts: dict[str, tuple[int, int]] = {}
    coins = set()
    rows = []
    for y, (n, line) in enumerate(lines):
        if len(line) != width:
            raise InputError(f"{filename}:{n}:1: every row must be {width} wide")
        for x, symbol in enumerate(line):
            if symbol not in SYMBOLS:
                raise InputError(f"{filename}:{n}:{x + 1}: unknown square {symbol!r}")
            if symbol in "12":
                if symbol in starts:
                    raise InputError(f"{filename}:{n}:{x + 1}: a second start {symbol}")
                starts[symbol] = (x, y)
            elif symbol == "$":
                coins.add((x, y))
        rows.append("".join("#" if s == "#" else "." for s in line))
    if sorted(starts) != ["1", "2"]:
        raise InputError(f"{filename}: the map needs the start squares 1 and 2")
    return Board(Path(filename).stem, tuple(rows), (starts["1"], starts["2"]),
                 frozenset(coins))


def load_map(path: Path) -> Board:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the map ({exc})") from None
    return parse_map(text, str(path))


def summary(board: Board) -> dict[str, str]:
    return {"size": f"{len(board.rows[0])}x{len(board.rows)}", "coins": str(len(board.coins))}


class Match:
    """The state of one match: positions, scores, coins left, the turn."""

    def __init__(self, board: Board, players: int, seed: int, max_turns: int) -> None:
        self.board = board
        self.seed = seed
        self.max_turns = max_turns
        self.at = [board.starts[i % 2] for i in range(players)]
        self.score = [0] * players
        self.coins = set(board.coins)
        self.turn = 0
        self.end: str | None = None

    def play(self, steps: dict[int, str]) -> list[list]:
        """One turn; the events: [player, step, x, y, coin taken]."""
        order = list(range(len(self.at)))
        random.Random(f"{self.seed}:{self.turn}").shuffle(order)
        events = []
        for ai in order:
            step = steps.get(ai, ".")
            dx, dy = STEPS.get(step, (0, 0)) if isinstance(step, str) else (0, 0)
            x, y = self.at[ai][0] + dx, self.at[ai][1] + dy
            if (dx or dy) and self.board.free(x, y) and (x, y) not in self.at:
                self.at[ai] = (x, y)
            taken = self.at[ai] in self.coins
            if taken:
                self.coins.discard(self.at[ai])
                self.score[ai] += 1
            events.append([ai, step if step in STEPS else ".", *self.at[ai], taken])
        self.turn += 1
        if not self.coins:
            self.end = "coins"
        elif self.turn >= self.max_turns:
            self.end = "turns"
        return events

    def ranking(self) -> list[int]:
        """Each player's rank (1: best), ties sharing one."""
        return [1 + sum(other > mine for other in self.score) for mine in self.score]
