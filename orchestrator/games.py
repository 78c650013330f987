"""The games the orchestrator can run: one entry each, all driven the same way."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from engine import InputError
from engine.arena import scenario as arena_scenario
from engine.arena.generate import TARGET_DENSITY
from engine.arena.mapfile import load_map as load_arena_map
from engine.arena.mapfile import parse_map as parse_arena_map
from engine.arena.match import ArenaMatch
from engine.arena.rules import PRESETS as ARENA_PRESETS
from engine.arena.rules import rules_from as arena_rules
from engine.cave import scenario as cave_scenario
from engine.cave.game import CaveGame
from engine.cave.mapfile import load_map as load_cave_map
from engine.cave.mapfile import parse_map as parse_cave_map
from engine.cave.rules import PRESETS as CAVE_PRESETS
from engine.cave.rules import rules_from as cave_rules
from engine.robotgame.mapfile import load_map as load_robotgame_map
from engine.robotgame.mapfile import parse_map as parse_robotgame_map
from engine.robotgame.match import RobotGameMatch
from engine.robotgame.rules import PRESETS as ROBOTGAME_PRESETS
from engine.robotgame.rules import rules_from as robotgame_rules
from orchestrator.bots import PROJECT, BotFile, sample_bots
from sandbox.host import BotSpec
from sandbox.limits import Limits
from sandbox.programs import describe


@dataclass(frozen=True)
class Game:
    """How to load a game's maps and rules, and start a match of it."""

    name: str
    load_map: Callable[[Path], Any]
    parse_map: Callable[[str, str], Any]   # (text, file name) -> map named after the file
    rules: Callable[..., Any]          # (preset, **overrides) -> rules object
    presets: tuple[str, ...]
    new_match: Callable[..., Any]      # (map, names, seed, rules) -> match
    default_map: str
    map_suffix: str
    check_map: str                     # where `arena check` plays a submission
    check_opponents: tuple[str, ...]   # sample bots it plays against
    failure: str = "erase"             # a dead AI is erased and the match replayed, or
                                       # "forfeit": the match ends and it loses
    limits: Limits = Limits()          # the game's default limits
    demo: tuple[str, ...] = ()         # `arena run` with no bots: these (default: all)
    columns: tuple[tuple[str, Callable[[dict], str]], ...] = ()   # result table columns
    summary: Callable[[Any], dict[str, str]] = lambda board: {}    # a map, for `arena maps`
    scenario: Callable[[Any, str], dict] | None = None   # (data, file name) -> final state
    programs: bool = False             # bots are programs in any language, not Python modules

    def bot_spec(self, bot: BotFile, scratch: dict | None = None) -> BotSpec:
        """What the sandbox needs to run `bot` (a program: how, and its scratch files)."""
        name = Path(bot.path).name
        if not self.programs:
            return BotSpec(filename=name, source=bot.source)
        return BotSpec(name, bot.source, describe(name, bot.source), scratch or {})

    def check_lineup(self) -> list[Path]:
        return [PROJECT / "bots" / self.name / bot for bot in self.check_opponents]

    def demo_lineup(self) -> list[Path]:
        if self.demo:
            return [PROJECT / "bots" / self.name / bot for bot in self.demo]
        return sample_bots(self.name)

    @property
    def maps_dir(self) -> Path:
        return PROJECT / "maps" / self.name

    def bundled_maps(self) -> list[Path]:
        return sorted(self.maps_dir.glob(f"*{self.map_suffix}"))

    def find_map(self, ref: str | None) -> Path:
        """A map file path from a path or a bundled map's name."""
        ref = ref or self.default_map
        path = Path(ref)
        if path.is_file():
            return path
        bundled = self.maps_dir / f"{ref}{self.map_suffix}"
        if bundled.is_file():
            return bundled
        names = ", ".join(p.stem for p in self.bundled_maps())
        raise InputError(f"{ref}: map not found (not a file, nor a bundled {self.name} map: "
                         f"{names})")


def _parse_arena(text: str, name: str):
    arena = parse_arena_map(text, name)
    arena.name = Path(name).stem
    return arena


def _arena_summary(arena) -> dict[str, str]:
    return {"size": f"{arena.size}x{arena.size}", "flags": str(len(arena.flags)),
            "free tiles": str(len(arena.free_tiles())),
            "AIs x 40 at 5.5 %": f"{arena.size * arena.size * TARGET_DENSITY / 40:.1f}"}


def _cave_summary(cave_map) -> dict[str, str]:
    if cave_map.rows is None:
        return {"size": "30 + 10 x bots", "cavern": "drawn from the match seed"}
    cavern = cave_map.cavern()
    return {"size": f"{cavern.side}x{cavern.side}", "cavern": "fixed",
            "creatures": str(len(cavern.creatures))}


def _robotgame_summary(board) -> dict[str, str]:
    size = board.board_size
    walkable = sum(board.walkable((x, y)) for x in range(size) for y in range(size))
    return {"size": f"{size}x{size}", "walkable": str(walkable),
            "spawn squares": str(len(board.spawn)), "obstacles": str(len(board.obstacles))}


GAMES: dict[str, Game] = {
    "arena": Game(
        "arena", load_arena_map, _parse_arena, arena_rules, tuple(ARENA_PRESETS), ArenaMatch,
        default_map="quad", map_suffix=".txt", check_map="skirmish",
        check_opponents=("hunter.py", "beeline.py"),
        columns=(("flags", lambda s: f"{s.get('max_flags', 0)}/{s.get('total_flags', 0)}"),
                 ("alive", lambda s: str(s.get("alive", "-")))),
        summary=_arena_summary, scenario=arena_scenario.run),
    "robotgame": Game(
        "robotgame", load_robotgame_map, parse_robotgame_map, robotgame_rules,
        tuple(ROBOTGAME_PRESETS), RobotGameMatch, default_map="default", map_suffix=".py",
        check_map="default",
        check_opponents=("example.py",), failure="forfeit",
        # rgkit's server: 300 ms per act (1.5 s for the first); past that the robot guards.
        limits=Limits(cpu_per_call_s=2.0, act_soft_s=0.3, first_act_soft_s=1.5),
        demo=("coordinator.py", "example.py"),
        columns=(("robots", lambda s: str(s.get("robots", "-"))),
                 ("timeouts", lambda s: str(s.get("timeouts", "-")))),
        summary=_robotgame_summary),
    "cave": Game(
        "cave", load_cave_map, parse_cave_map, cave_rules, tuple(CAVE_PRESETS), CaveGame,
        default_map="generated", map_suffix=".txt", check_map="generated",
        check_opponents=("forager.py", "miner.sh"),
        # The seed's controller: 1 s a turn. A persistent program's first turn gets 5 s.
        limits=Limits(cpu_per_call_s=1.0, wall_per_call_s=1.0, watchdog_grace_s=5.0,
                      cpu_bank_s=60.0, output_bytes=16 << 10),
        demo=("forager.py", "wanderer.py", "miner.sh", "scout.js", "digger"),
        columns=(("score", lambda s: str(s.get("score", "-"))),
                 ("gold", lambda s: str(s.get("gold", "-"))),
                 ("lasted", lambda s: str(s.get("turns", "-"))),
                 ("invalid", lambda s: str(s.get("invalid", "-")))),
        summary=_cave_summary, scenario=cave_scenario.run, programs=True),
}


def get_game(name: str) -> Game:
    if name not in GAMES:
        raise InputError(f"unknown game {name!r} (available: {', '.join(GAMES)})")
    return GAMES[name]
