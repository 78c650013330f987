"""Cave Rangers: gold, creatures and bots in any language (spec/cave.md)."""
from engine.cave import position, scenario
from engine.cave.game import CaveGame
from engine.cave.mapfile import CaveMap, load_map, parse_map
from engine.cave.rules import PRESETS, rules_from
from engine.rulebook import Rulebook


def _summary(cave_map: CaveMap) -> dict[str, str]:
    if cave_map.rows is None:
        return {"size": "30 + 10 x bots", "cavern": "drawn from the match seed"}
    cavern = cave_map.cavern()
    return {"size": f"{cavern.side}x{cavern.side}", "cavern": "fixed",
            "creatures": str(len(cavern.creatures))}


RULEBOOK = Rulebook(load_map, parse_map, rules_from, tuple(PRESETS), CaveGame, _summary,
                    scenario.run, position.HOOKS)
