"""Robot Game maps: rgkit's format, a Python dict literal read with ast.literal_eval."""
from __future__ import annotations

import ast
import functools
import pprint
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import InputError
from engine.textfile import map_text

Loc = tuple[int, int]


class MapError(InputError):
    """A map file that cannot be used; the message names the file."""


@dataclass(frozen=True)
class RobotGameMap:
    name: str
    spawn: tuple[Loc, ...]            # in the file's order: spawn draws depend on it
    obstacles: frozenset[Loc]
    board_size: int = 19

    def walkable(self, loc: Loc) -> bool:
        x, y = loc
        return 0 <= x < self.board_size and 0 <= y < self.board_size \
            and loc not in self.obstacles

    def to_data(self) -> dict[str, Any]:
        return {"spawn": [list(loc) for loc in self.spawn],
                "obstacle": sorted(list(loc) for loc in self.obstacles)}

    def to_text(self) -> str:
        """The map in rgkit's format, a dict literal; spawn squares keep their order."""
        data = {"spawn": list(self.spawn), "obstacle": sorted(self.obstacles)}
        return pprint.pformat(data, width=100, compact=True, sort_dicts=False) + "\n"


def _locs(data: dict[str, Any], key: str, name: str, size: int) -> list[Loc]:
    raw = data.get(key)
    if not isinstance(raw, (list, tuple)):
        raise MapError(f"{name}: '{key}' must be a list of (x, y) pairs")
    locs = []
    for item in raw:
        if not (isinstance(item, (list, tuple)) and len(item) == 2
                and all(type(v) is int for v in item)):
            raise MapError(f"{name}: '{key}' holds {item!r}, not an (x, y) pair of ints")
        if not all(0 <= v < size for v in item):
            raise MapError(f"{name}: '{key}' location {tuple(item)} is off the {size}x{size} "
                           f"board")
        locs.append((item[0], item[1]))
    return locs


MAX_TEXT = 64 << 10         # a map's text: every square listed twice, spaced, is ~20 KB


# A batch parses the same map for every game; the result is frozen, so it can be shared.
@functools.lru_cache(maxsize=16)
def parse_map(text: str, name: str = "<map>", board_size: int = 19) -> RobotGameMap:
    """Parse rgkit's dict-literal format, never executing it."""
    if len(text) > MAX_TEXT:
        # ast.literal_eval costs some 400 bytes of memory a byte (3.5 MB of pairs: 10 s
        # and 1.5 GiB), so a text this long is refused before it is parsed.
        raise MapError(f"{name}: {len(text):,} characters; a map of a board of at most "
                       f"19x19 squares is at most {MAX_TEXT:,}")
    try:
        with warnings.catch_warnings():     # "1if": Python warns beside the error we give
            warnings.simplefilter("ignore", SyntaxWarning)
            data = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise MapError(f"{name}: not a Python dict literal ({type(exc).__name__})") from None
    return map_from_data(data, name, board_size)


def map_from_data(data: object, name: str = "<map>", board_size: int = 19) -> RobotGameMap:
    """A map from rgkit's dict, {'spawn': [(x, y), ...], 'obstacle': [...]} (lists or
    tuples: a scenario file gives it as JSON), checked as a map file is."""
    if not isinstance(data, dict):
        raise MapError(f"{name}: the map must be a dict with 'spawn' and 'obstacle' lists")
    spawn = _locs(data, "spawn", name, board_size)
    obstacles = frozenset(_locs(data, "obstacle", name, board_size))
    clash = sorted(set(spawn) & obstacles)
    if clash:
        raise MapError(f"{name}: spawn square {clash[0]} is also an obstacle")
    if len(set(spawn)) != len(spawn):
        raise MapError(f"{name}: a spawn square is listed twice")
    return RobotGameMap(Path(name).stem, tuple(spawn), obstacles, board_size)


def load_map(path: Path) -> RobotGameMap:
    try:
        text = map_text(path)
    except OSError as exc:
        raise MapError(f"{path}: cannot read the map ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise MapError(f"{path}: cannot read the map (not UTF-8 text)") from None
    return parse_map(text, str(path))
