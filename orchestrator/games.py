"""The games the orchestrator can run: one entry each, all driven the same way."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from engine import InputError
from engine.arena.mapfile import load_map as load_arena_map
from engine.arena.match import ArenaMatch
from engine.arena.rules import PRESETS as ARENA_PRESETS
from engine.arena.rules import rules_from as arena_rules
from orchestrator.bots import PROJECT


@dataclass(frozen=True)
class Game:
    """How to load a game's maps and rules, and start a match of it."""

    name: str
    load_map: Callable[[Path], Any]
    rules: Callable[..., Any]          # (preset, **overrides) -> rules object
    presets: tuple[str, ...]
    new_match: Callable[..., Any]      # (map, names, seed, rules) -> match
    default_map: str
    map_suffix: str
    check_map: str                     # where `arena check` plays a submission
    check_opponents: tuple[str, ...]   # sample bots it plays against

    def check_lineup(self) -> list[Path]:
        return [PROJECT / "bots" / self.name / bot for bot in self.check_opponents]

    @property
    def maps_dir(self) -> Path:
        return PROJECT / "maps" / self.name

    def bundled_maps(self) -> list[Path]:
        return sorted(self.maps_dir.glob(f"*{self.map_suffix}"))

    def find_map(self, ref: str | None) -> Path:
        """A map file path from a path or a bundled map's name."""
        ref = ref or self.default_map
        path = Path(ref)
        if path.is_file():
            return path
        bundled = self.maps_dir / f"{ref}{self.map_suffix}"
        if bundled.is_file():
            return bundled
        names = ", ".join(p.stem for p in self.bundled_maps())
        raise InputError(f"{ref}: map not found (not a file, nor a bundled {self.name} map: "
                         f"{names})")


GAMES: dict[str, Game] = {
    "arena": Game("arena", load_arena_map, arena_rules, tuple(ARENA_PRESETS), ArenaMatch,
                  default_map="quad", map_suffix=".txt", check_map="skirmish",
                  check_opponents=("hunter.py", "beeline.py")),
}


def get_game(name: str) -> Game:
    if name not in GAMES:
        raise InputError(f"unknown game {name!r} (available: {', '.join(GAMES)})")
    return GAMES[name]
