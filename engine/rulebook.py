"""What the engine offers of one game, the same for every game: its maps, its rules and
presets, a new match (a `Match`, engine/protocol.py), a scenario runner. Each game package
exports one as `RULEBOOK`; the orchestrator's registry (`orchestrator/games/`) adds how to
run it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from engine.position import PositionHooks
from engine.protocol import Match


@dataclass(frozen=True)
class Rulebook:
    load_map: Callable[[Path], Any]
    parse_map: Callable[[str, str], Any]     # (text, file name) -> map named after the file
    rules: Callable[..., Any]                # (preset, **overrides) -> rules object
    presets: tuple[str, ...]
    new_match: Callable[[Any, list[str], int, Any], Match]   # (map, names, seed, rules)
    summary: Callable[[Any], dict[str, str]] = lambda board: {}   # a map, for `arena maps`
    # (data, file name) -> final state
    scenario: Callable[[Any, str], dict[str, Any]] | None = None
    position: PositionHooks | None = None    # a match's state saved, and a match from one
