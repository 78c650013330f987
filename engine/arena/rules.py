"""The rules object: every number of the Robot Arena in one place, with presets."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from engine import InputError


@dataclass(frozen=True)
class Rules:
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
    random_damage_start: int = 300
    random_damage_every: int = 30
    random_damage_weight: int = 6

    def replace(self, **overrides: Any) -> "Rules":
        """A copy with overrides; unknown names or wrong types are an InputError."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        clean = {}
        for key, value in overrides.items():
            if key not in fields:
                raise InputError(f"unknown rule {key!r} (known: {', '.join(sorted(fields))})")
            kind = type(getattr(self, key))
            if kind is int and isinstance(value, bool) or not isinstance(value, kind):
                raise InputError(f"rule {key!r} must be {kind.__name__}, got {value!r}")
            clean[key] = value
        return dataclasses.replace(self, **clean)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


PRESETS: dict[str, Rules] = {
    "seed": Rules(),
    "v1.1": Rules(preset="v1.1", robots_per_type=30, robot_life=20, life_per_flag=10,
                  random_damage=True),
}


def rules_from(preset: str = "seed", **overrides: Any) -> Rules:
    """The named preset with overrides applied."""
    if preset not in PRESETS:
        raise InputError(f"unknown rules preset {preset!r} (known: {', '.join(PRESETS)})")
    return PRESETS[preset].replace(**overrides) if overrides else PRESETS[preset]
