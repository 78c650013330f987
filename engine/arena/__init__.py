"""Robot Arena: flags, lasers and 40 robots per AI (spec/arena.md)."""
from pathlib import Path

from engine.arena import position, scenario
from engine.arena.game import ArenaGame
from engine.arena.generate import TARGET_DENSITY
from engine.arena.mapfile import ArenaMap, load_map, parse_map
from engine.arena.rules import PRESETS, rules_from
from engine.rulebook import Rulebook


def _parse(text: str, name: str) -> ArenaMap:
    arena = parse_map(text, name)
    arena.name = Path(name).stem
    return arena


def _summary(arena: ArenaMap) -> dict[str, str]:
    return {"size": f"{arena.size}x{arena.size}", "flags": str(len(arena.flags)),
            "free tiles": str(len(arena.free_tiles())),
            "AIs x 40 at 5.5 %": f"{arena.size * arena.size * TARGET_DENSITY / 40:.1f}"}


RULEBOOK = Rulebook(load_map, _parse, rules_from, tuple(PRESETS), ArenaGame, _summary,
                    scenario.run, position.HOOKS)
