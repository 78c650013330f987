"""Every number of Robot Game in one place. The defaults are rgkit's settings."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.rules_base import RulesBase, preset_with


@dataclass(frozen=True)
class Rules(RulesBase):
    preset: str = "rgkit"
    board_size: int = 19
    spawn_every: int = 10
    spawn_per_player: int = 5
    robot_hp: int = 50
    attack_min: int = 8
    attack_max: int = 10
    collision_damage: int = 5
    suicide_damage: int = 15
    max_turns: int = 100
    symmetric_spawn: bool = True      # player 2 gets (18-x, 18-y) of player 1's squares

    def rg_settings(self) -> dict[str, Any]:
        """What bots see as `rg.settings` (rgkit's names)."""
        return {"spawn_every": self.spawn_every, "spawn_per_player": self.spawn_per_player,
                "board_size": self.board_size, "robot_hp": self.robot_hp,
                "attack_range": (self.attack_min, self.attack_max),
                "collision_damage": self.collision_damage,
                "suicide_damage": self.suicide_damage, "max_turns": self.max_turns}


PRESETS: dict[str, Rules] = {"rgkit": Rules()}


def rules_from(preset: str = "rgkit", **overrides: Any) -> Rules:
    return preset_with(PRESETS, preset, **overrides)
