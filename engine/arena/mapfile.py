"""Robot Arena map files: the seed's text format, parsed with errors that point at the spot."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine import InputError
from engine.arena.constants import EMPTY, FLAG_BASE, LEFT_SPINNER, PIT, RIGHT_SPINNER, E, N, S, W
from engine.textfile import map_text

LASER_SYMBOLS = {"^": N, ">": E, "v": S, "<": W}
MAX_SIDE = 512         # an arena's side, as a replay's board (64 AIs x 40 robots fill 216)
FLOOR_SYMBOLS = {" ": EMPTY, "{": LEFT_SPINNER, "}": RIGHT_SPINNER, "&": PIT, "#": EMPTY}


class MapError(InputError):
    """A map that cannot be loaded; the message names file, line and column."""


@dataclass
class ArenaMap:
    """A parsed arena. Positions are (row, col); row 0 is north."""

    name: str
    size: int
    floor: list[list[int]]                      # floor codes; flags are FLAG_BASE + n
    walls: list[tuple[int, int]] = field(default_factory=list)
    lasers: list[tuple[int, int, int]] = field(default_factory=list)   # row, col, facing
    flags: list[tuple[int, int]] = field(default_factory=list)         # flags[n-1] = (r, c)

    def free_tiles(self) -> list[tuple[int, int]]:
        """Tiles a robot may start on: EMPTY floor and no content, row-major."""
        blocked = set(self.walls) | {(r, c) for r, c, _ in self.lasers}
        return [(r, c) for r in range(self.size) for c in range(self.size)
                if self.floor[r][c] == EMPTY and (r, c) not in blocked]

    def to_text(self) -> str:
        """The map back in the seed's format."""
        rows = [[" "] * self.size for _ in range(self.size)]
        back = {EMPTY: " ", LEFT_SPINNER: "{", RIGHT_SPINNER: "}", PIT: "&"}
        for r in range(self.size):
            for c in range(self.size):
                code = self.floor[r][c]
                rows[r][c] = str(code - FLAG_BASE) if code > FLAG_BASE else back[code]
        for r, c in self.walls:
            rows[r][c] = "#"
        for r, c, facing in self.lasers:
            rows[r][c] = "^>v<"[facing]
        return "\n".join("".join(row).rstrip() for row in rows) + "\n"


def map_lines(text: str) -> list[str]:
    """The map's rows as written: any line ending, trailing empty lines dropped."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_map(text: str, name: str = "<map>") -> ArenaMap:
    """Parse map text. `name` is used in error messages (usually the file path)."""
    lines = map_lines(text)
    if not any(lines):
        raise MapError(f"{name}: the map is empty")
    size = max(len(lines), max(len(line) for line in lines))
    if size > MAX_SIDE:
        # The floor is size x size: a map of one line 50,000 spaces long (50 KB) was a
        # floor of 2.5 billion tiles, and ran the machine out of memory.
        raise MapError(f"{name}: the map is {size} tiles wide or high; at most {MAX_SIDE}")
    floor = [[EMPTY] * size for _ in range(size)]
    walls: list[tuple[int, int]] = []
    lasers: list[tuple[int, int, int]] = []
    flag_at: dict[int, tuple[int, int]] = {}
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            where = f"{name}:{r + 1}:{c + 1}"
            if ch in LASER_SYMBOLS:
                lasers.append((r, c, LASER_SYMBOLS[ch]))
            elif ch in FLOOR_SYMBOLS:
                floor[r][c] = FLOOR_SYMBOLS[ch]
                if ch == "#":
                    walls.append((r, c))
            elif ch in "123456789":
                n = int(ch)
                if n in flag_at:
                    pr, pc = flag_at[n]
                    raise MapError(f"{where}: flag {n} appears twice (first at line {pr + 1}, "
                                   f"column {pc + 1})")
                flag_at[n] = (r, c)
                floor[r][c] = FLAG_BASE + n
            else:
                raise MapError(f"{where}: unknown map symbol {ch!r} (allowed: space, 1-9, "
                               f"#, ^ > v <, {{ }}, &)")
    for n in range(1, max(flag_at, default=0) + 1):
        if n not in flag_at:
            raise MapError(f"{name}: flag {n} is missing (flags must be 1..{max(flag_at)} "
                           f"with no gaps)")
    flags = [flag_at[n] for n in range(1, len(flag_at) + 1)]
    return ArenaMap(name=name, size=size, floor=floor, walls=walls, lasers=lasers, flags=flags)


def load_map(path: str | Path) -> ArenaMap:
    """Read and parse a map file; a missing or unreadable file is a MapError."""
    path = Path(path)
    try:
        text = map_text(path)
    except FileNotFoundError:
        raise MapError(f"{path}: map file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(f"{path}: cannot read map ({exc})") from None
    arena = parse_map(text, str(path))
    arena.name = path.stem
    return arena
