"""Every number of Robot Game in one place. The defaults are rgkit's settings."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.rules_base import RulesBase, preset_with

MAX_NUMBER = 32767          # hp, ids and damage: a turn's view holds them as 16-bit numbers
MAX_SIDE = 19               # the board's side: rgkit's (map files are read as 19)


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

    # hp, ids and damage travel as 16-bit numbers in a turn's view; the board is rgkit's
    # side at most (map files are read as 19).
    RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "board_size": (2, MAX_SIDE), "spawn_every": (1, MAX_NUMBER),
        "spawn_per_player": (0, MAX_NUMBER), "robot_hp": (1, MAX_NUMBER),
        "attack_min": (0, MAX_NUMBER), "attack_max": (0, MAX_NUMBER),
        "collision_damage": (0, MAX_NUMBER), "suicide_damage": (0, MAX_NUMBER),
        "max_turns": (1, 1_000_000)}

    def conflict(self) -> str | None:
        if self.attack_min > self.attack_max:
            return (f"rule 'attack_min' is over 'attack_max' ({self.attack_min} > "
                    f"{self.attack_max}: an attack's damage is drawn between them)")
        return None

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
