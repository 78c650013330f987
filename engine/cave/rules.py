"""Cave Rangers' tunable numbers: the seed's game has one, the turn limit."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cave.constants import MAX_TURNS
from engine.rules_base import RulesBase, preset_with


@dataclass(frozen=True)
class Rules(RulesBase):
    preset: str = "seed"
    max_turns: int = MAX_TURNS

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {"max_turns": (1, 1_000_000)}


PRESETS: dict[str, Rules] = {"seed": Rules()}


def rules_from(preset: str = "seed", **overrides: Any) -> Rules:
    return preset_with(PRESETS, preset, **overrides)
