"""Robot Game in the map editor (`arena maps edit`): obstacles and spawn squares on rgkit's
19 × 19 board."""
from __future__ import annotations

from pathlib import Path

from engine import InputError
from engine.robotgame.mapfile import RobotGameMap
from orchestrator.games.entry import Game
from orchestrator.web.map_editor import Palette, Sheet, Tool

PALETTE = Palette(kinds={" ": "floor", "#": "obstacle", "s": "spawn"},
                  where="location ({x}, {y})")       # as Robot Game bots see locations


class RobotGameSheet(Sheet):
    """A Robot Game grid: ' ' walkable, '#' obstacle, 's' spawn square; row y, column x.
    Spawn squares keep the loaded file's order, because a match's spawn draws follow it;
    new ones follow in (x, y) order."""

    tools = (Tool(" ", "walkable", "s"), Tool("#", "obstacle", "a"),
             Tool("s", "spawn square", "g"))
    palette = PALETTE
    SIDE = 19

    def __init__(self, game: Game, path: Path, board: RobotGameMap | None, new: bool
                 ) -> None:
        side = self.SIDE
        grid = [[" "] * side for _ in range(side)]
        self.order: tuple[tuple[int, int], ...] = ()
        if board is not None:
            for x, y in board.obstacles:
                grid[y][x] = "#"
            for x, y in board.spawn:
                grid[y][x] = "s"
            self.order = board.spawn
        super().__init__(game, path, ["".join(row) for row in grid], new)

    def check_rows(self, rows: list[str]) -> None:
        if len(rows) != self.SIDE or any(len(row) != self.SIDE or set(row) - set(" #s")
                                         for row in rows):
            raise InputError(f"the grid must be {self.SIDE} rows of {self.SIDE} of ' #s'")

    def _spawn(self, rows: list[str]) -> list[tuple[int, int]]:
        marked = {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "s"}
        kept = [loc for loc in self.order if loc in marked]
        return kept + sorted(marked - set(kept))

    def text(self, rows: list[str]) -> str:
        obstacles = frozenset((x, y) for y, row in enumerate(rows)
                              for x, ch in enumerate(row) if ch == "#")
        return RobotGameMap(self.path.stem, tuple(self._spawn(rows)), obstacles,
                            self.SIDE).to_text()

    def saved(self, rows: list[str]) -> None:
        self.order = tuple(self._spawn(rows))


def sheet(game: Game, path: Path, source: Path | None, side: int) -> Sheet:
    """The sheet of `path`, starting from `source`'s map (None: an empty board); rgkit's
    board has one size, so `side` is not used."""
    return RobotGameSheet(game, path, game.load_map(source) if source else None,
                          new=source != path)
