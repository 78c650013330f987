"""Race some Robots: RoboRally cards, belts and checkpoints (seed 003, spec/race.md)."""
from engine.race import position, scenario
from engine.race.factory import Factory, load_factory, parse_factory
from engine.race.game import RaceGame
from engine.race.rules import PRESETS, rules_from
from engine.rulebook import Rulebook


def _summary(factory: Factory) -> dict[str, str]:
    return {"size": f"{factory.width}x{factory.height}", "belts": str(len(factory.belts)),
            "C1": str(factory.c1), "C2": str(factory.c2), "start squares":
            str(len(factory.starts))}


RULEBOOK = Rulebook(load_factory, parse_factory, rules_from, tuple(PRESETS), RaceGame, _summary,
                    scenario.run, position.HOOKS)
