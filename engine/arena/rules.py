"""The rules object: every number of the Robot Arena in one place, with presets."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.rules_base import RulesBase, preset_with

MOST = 1_000_000              # the largest count or life a rule may be (as --max-turns)


@dataclass(frozen=True)
class Rules(RulesBase):
    """Defaults follow the seed; see spec `arena.md`."""

    preset: str = "seed"
    robots_per_type: int = 40
    robot_life: int = 10
    robot_charges: int = 1
    corpse_life: int = 10
    wall_life: int = 50
    laser_life: int = 50
    charge_every: int = 10
    max_turns: int = 1000
    life_per_flag: int = 0
    # v1.1 random damage: from `random_damage_start`, every `random_damage_every` turns,
    # one robot (weight `random_damage_weight` - flags) takes (turn - start) / every.
    random_damage: bool = False
    random_damage_start: int = 301
    random_damage_every: int = 30
    random_damage_weight: int = 6

    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "robots_per_type": (1, 100_000), "robot_life": (1, MOST), "robot_charges": (0, MOST),
        "corpse_life": (1, MOST), "wall_life": (1, MOST), "laser_life": (1, MOST),
        "charge_every": (1, MOST), "max_turns": (1, MOST), "life_per_flag": (0, MOST),
        "random_damage_start": (0, MOST), "random_damage_every": (1, MOST),
        "random_damage_weight": (0, MOST)}


PRESETS: dict[str, Rules] = {
    "seed": Rules(),
    "v1.1": Rules(preset="v1.1", robots_per_type=30, robot_life=20, life_per_flag=10,
                  random_damage=True),
}


def rules_from(preset: str = "seed", **overrides: Any) -> Rules:
    """The named preset with overrides applied."""
    return preset_with(PRESETS, preset, **overrides)
