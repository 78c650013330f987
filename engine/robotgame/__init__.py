"""Robot Game: rgkit's rules (spec robotgame.md) on this project's engine protocol."""
from engine.robotgame import position, scenario
from engine.robotgame.game import RobotGame
from engine.robotgame.mapfile import RobotGameMap, load_map, parse_map
from engine.robotgame.rules import PRESETS, rules_from
from engine.rulebook import Rulebook


def _summary(board: RobotGameMap) -> dict[str, str]:
    size = board.board_size
    walkable = sum(board.walkable((x, y)) for x in range(size) for y in range(size))
    return {"size": f"{size}x{size}", "walkable": str(walkable),
            "spawn squares": str(len(board.spawn)), "obstacles": str(len(board.obstacles))}


RULEBOOK = Rulebook(load_map, parse_map, rules_from, tuple(PRESETS), RobotGame, _summary,
                    scenario.run, position=position.HOOKS)
