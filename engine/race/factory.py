"""The factory: the seed's 13 x 10 board as data, other boards from a file, and what each
cell string means.

Cells are 2-character strings, indexed `factory[y][x]`, (0, 0) the north-west corner:
blank, `C1`/`C2` checkpoints, `PA` the priority antenna, `*v` the reboot square (facing
its arrow), and belts: `d ` single, `dd` double, `rd`/`ld` single corners that turn a bot
right/left, `Rd` a double right-turn corner, where `d` is one of `^>v<`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import InputError
from engine.textfile import map_text

# The seed's factory, as it wrote it (blank cells are one space there).
SEED_FACTORY: list[list[str]] = [
    [' ', ' ', '> ', ' ', 'vv', 'C2', ' ', ' ', ' ', ' ', '^^', ' ', ' '],
    [' ', ' ', ' ', ' ', 'vv', ' ', 'lv', '< ', 'l<', ' ', 'R^', '<<', '<<'],
    [' ', ' ', ' ', '<<', 'R<', ' ', 'v ', ' ', '^ ', ' ', ' ', ' ', '*v'],
    [' ', ' ', ' ', ' ', ' ', 'lv', 'r<', ' ', 'r^', '< ', '< ', 'l<', ' '],
    ['PA', ' ', ' ', ' ', 'lv', 'r<', ' ', ' ', ' ', ' ', ' ', '^ ', ' '],
    [' ', ' ', ' ', ' ', 'v ', ' ', ' ', ' ', ' ', ' ', 'r>', 'l^', ' '],
    [' ', ' ', ' ', ' ', 'l>', '> ', '> ', 'rv', ' ', 'r>', 'l^', ' ', ' '],
    [' ', ' ', ' ', ' ', ' ', ' ', ' ', 'v ', ' ', '^ ', ' ', 'R>', '>>'],
    [' ', ' ', ' ', '>>', '>>', 'Rv', ' ', 'l>', '> ', 'r^', ' ', '^^', ' '],
    [' ', ' ', '> ', ' ', ' ', 'vv', ' ', ' ', ' ', ' ', 'C1', '^^', ' '],
]
# The seed's six start squares (x, y), handed out in a seeded order.
SEED_STARTS: list[tuple[int, int]] = [(1, 1), (0, 3), (1, 4), (1, 5), (0, 6), (1, 8)]

HEADINGS = "NESW"                                      # clockwise, as the bot sees them
ARROWS = {"^": "N", ">": "E", "v": "S", "<": "W"}
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
CHAIN_ROOM = 5        # free squares south of the reboot square: a chain of six bots fits


@dataclass(frozen=True)
class Belt:
    """A belt cell: where it carries, whether it is double, and the turn it gives a bot
    carried onto it (+1 right, -1 left, 0 none)."""

    heading: str
    double: bool
    turn: int


def right(heading: str, quarters: int = 1) -> str:
    return HEADINGS[(HEADINGS.index(heading) + quarters) % 4]


def parse_cell(cell: str) -> Belt | str | None:
    """A Belt, 'C1', 'C2', 'PA', 'reboot', or None for a blank; ValueError otherwise."""
    text = cell.strip()
    if not text:
        return None
    if text in ("C1", "C2", "PA"):
        return text
    if len(text) == 2 and text[0] == "*" and text[1] in ARROWS:
        return "reboot"
    if len(text) == 1 and text in ARROWS:
        return Belt(ARROWS[text], False, 0)
    if len(text) == 2 and text[1] in ARROWS:
        heading = ARROWS[text[1]]
        if text[0] == text[1]:
            return Belt(heading, True, 0)
        if text[0] in "rl":
            return Belt(heading, False, 1 if text[0] == "r" else -1)
        if text[0] == "R":
            return Belt(heading, True, 1)
    raise ValueError(f"unknown cell {cell!r}")


class Factory:
    """A checked board: its cells parsed once, with the squares the rules look up."""

    def __init__(self, cells: list[list[str]], name: str = "factory",
                 starts: list[tuple[int, int]] | None = None) -> None:
        self.name = name
        self.cells = [list(row) for row in cells]
        self.height = len(cells)
        self.width = len(cells[0]) if cells else 0
        self.belts: dict[tuple[int, int], Belt] = {}
        self.marks: dict[str, list[tuple[int, int]]] = {"C1": [], "C2": [], "PA": [],
                                                         "reboot": []}
        self.reboot_heading = "S"
        for y, row in enumerate(cells):
            for x, cell in enumerate(row):
                kind = parse_cell(cell)
                if isinstance(kind, Belt):
                    self.belts[(x, y)] = kind
                elif kind is not None:
                    self.marks[kind].append((x, y))
                    if kind == "reboot":
                        self.reboot_heading = ARROWS[cell.strip()[1]]
        self.c1, self.c2 = self.marks["C1"][0], self.marks["C2"][0]
        self.antenna = self.marks["PA"][0]
        self.reboot = self.marks["reboot"][0]
        self.starts = list(starts or SEED_STARTS)

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def to_data(self) -> list[list[str]]:
        return [list(row) for row in self.cells]


def check_cells(cells: Any, where: str, starts: Any = None) -> Factory:
    """A Factory from a 2-D list of cell strings, or an InputError naming the problem."""
    if not isinstance(cells, list) or not cells or not all(isinstance(r, list) for r in cells):
        raise InputError(f"{where}: a factory is a non-empty list of rows (lists of cells)")
    width = len(cells[0])
    for y, row in enumerate(cells):
        if len(row) != width:
            raise InputError(f"{where}: row {y} has {len(row)} cells, row 0 has {width}")
        for x, cell in enumerate(row):
            if not isinstance(cell, str) or len(cell) > 2:
                raise InputError(f"{where}: cell ({x}, {y}) must be a string of 1-2 characters")
            try:
                parse_cell(cell)
            except ValueError as exc:
                raise InputError(f"{where}: cell ({x}, {y}): {exc}") from None
    counts = {mark: sum(cell.strip() == mark for row in cells for cell in row)
              for mark in ("C1", "C2", "PA")}
    counts["reboot"] = sum(cell.strip()[:1] == "*" for row in cells for cell in row)
    for mark, n in counts.items():
        if n != 1:
            label = "reboot square (*v)" if mark == "reboot" else mark
            raise InputError(f"{where}: the factory needs exactly one {label}, found {n}")
    factory = Factory(cells, where, _check_starts(starts, where) if starts else None)
    dx, dy = STEP[factory.reboot_heading]
    x, y = factory.reboot
    for k in range(1, CHAIN_ROOM + 1):
        square = (x + dx * k, y + dy * k)
        if not factory.inside(*square) or square == factory.antenna:
            raise InputError(f"{where}: the reboot square needs {CHAIN_ROOM} squares of board "
                             f"past it (facing {factory.reboot_heading}) for a chain of pushed "
                             f"bots; {square} is not one")
    for square in factory.starts:
        if not factory.inside(*square):
            raise InputError(f"{where}: start square {square} is off the board")
        if square in (factory.antenna, factory.reboot) or square in factory.belts:
            raise InputError(f"{where}: start square {square} must be a plain square")
    if len(set(factory.starts)) != len(factory.starts):
        raise InputError(f"{where}: two start squares are the same")
    return factory


def _check_starts(starts: Any, where: str) -> list[tuple[int, int]]:
    if not isinstance(starts, list) or not 1 <= len(starts) <= 6 or not all(
            isinstance(s, list) and len(s) == 2 and all(type(v) is int for v in s)
            for s in starts):
        raise InputError(f"{where}: 'starts' must be a list of 1 to 6 [x, y] squares")
    return [(x, y) for x, y in starts]


def parse_factory(text: str, name: str) -> Factory:
    """A factory file: JSON, either a 2-D list of cells or {"factory": [...], "starts":
    [[x, y], ...]}."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not JSON ({exc.msg}, line {exc.lineno})") from None
    starts = None
    if isinstance(data, dict):
        cells, starts = data.get("factory"), data.get("starts")
    else:
        cells = data
    factory = check_cells(cells, name, starts)
    factory.name = Path(name).stem
    return factory


def load_factory(path: Path) -> Factory:
    try:
        text = map_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the factory ({exc})") from None
    return parse_factory(text, Path(path).name)


def seed_factory() -> Factory:
    return check_cells(SEED_FACTORY, "seed")
