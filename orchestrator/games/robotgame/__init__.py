"""Robot Game's entry: rgkit's rules, its bots unmodified, and bots in Ruby (seed 001)."""
import ast
from dataclasses import replace

from engine import InputError, robotgame
from engine.robotgame import scenario
from engine.robotgame.mapfile import RobotGameMap
from orchestrator.games.entry import Check, CodeBot, Competition, Game, Options, ReplayShape, Shown
from orchestrator.games.robotgame import turn as _turn
from sandbox.limits import Limits
from sandbox.paths import BOTLIB


def _looks_like(bot) -> int:
    """rgkit's shape: a Robot class with act() (in Python, or a Ruby bot)."""
    if bot.suffix == ".rb":
        return 3 if "class Robot" in bot.text and "def act" in bot.text else 0
    return 3 if bot.tree is not None and any(
        isinstance(node, ast.ClassDef) and node.name == "Robot" and any(
            isinstance(item, ast.FunctionDef) and item.name == "act" for item in node.body)
        for node in bot.tree.body) else 0


def _bundled_map(ref: str) -> RobotGameMap:
    """A scenario's map by name: a bundled map only (the file is untrusted, so it names
    no path to read)."""
    found = {path.stem: path for path in GAME.bundled_maps()}
    if ref not in found:
        raise InputError(f"map {ref!r:.40} is not a bundled Robot Game map (known: "
                         f"{', '.join(found)}); or give it as an object of 'spawn' and "
                         f"'obstacle' squares")
    return GAME.load_map(found[ref])


def _configure_api(modules: dict, match) -> None:
    """`rg` set up for the match's map, as at the match's start in the sandbox."""
    modules["rg"]._configure(match.start_info(0))


def _scenario(data, name: str) -> dict:
    return scenario.run(data, name, find_map=_bundled_map)


GAME = Game(
    "robotgame", "rgkit's Robot Game",
    replace(robotgame.RULEBOOK, scenario=_scenario), "_robotgame", default_map="default",
    map_suffix=".py", check=Check("default", ("example.py",), call="act"),
    failure="forfeit", players=2,
    # rgkit's server: 300 ms per act (1.5 s for the first); past that the robot guards.
    # Two turns of nothing but timeouts, or a 20 s bank, forfeit (docs/robotgame.md).
    # Own time: a turn of many robots at 300 ms each may take 10 s, the match 30 s (the
    # CPU bank and some), so a bot that naps in every act forfeits within 30 s.
    limits=Limits(cpu_per_call_s=2.0, act_soft_s=0.3, first_act_soft_s=1.5,
                  cpu_bank_s=20.0, own_per_turn_s=10.0, own_bank_s=30.0),
    demo=("coordinator.py", "thinker.py"),      # Thinker: the example, with its marks
    drivers=((".rb", str(BOTLIB / "ruby" / "driver.rb")),),
    shown=Shown(columns=(("robots", lambda s: str(s.get("robots", "-"))),
                         ("timeouts", lambda s: str(s.get("timeouts", "-")))),
                legend="robots: alive at the end (the score); ", called="Robot Game",
                turn=_turn.tell, score="robots", seen_turns=True),
    competition=Competition(head_to_head=True, game_seconds=0.2),   # measured: 0.18 s
    options=Options(robots_rule="spawn_per_player", random_spawn=True,
                    robots_help="spawned per player each time",
                    edit_help="obstacles and spawn squares",
                    scenario_help=(
        "A Robot Game file (--game robotgame) gives a position (the turn, robots with\n"
        "location, hp, player_id, robot_id; the default map unless it names another) and\n"
        "each turn's actions by robot_id, in rgkit's forms:\n\n"
        '  {"turn": 1, "robots": [{"location": [5, 5], "hp": 50, "player_id": 0,\n'
        '   "robot_id": 0}, {"location": [6, 5], "hp": 50, "player_id": 1, "robot_id": 1}],\n'
        '   "actions": [{"0": ["attack", [6, 5]], "1": ["guard"]}], "seed": 1}')),
    looks_like=_looks_like,
    code_bot=CodeBot("Robot", "class", "import rg\n"),
    replay_shape=ReplayShape(map={"spawn": [(int, int)], "obstacle": [(int, int)]},
                             tables={"robots": (int,) * 5},
                             names={"robots": ("id", "player", "x", "y", "hp")}),
    memoryless=("example.py", "rusher.py", "survivor.py", "coordinator.py"),
    bot_modules=("rg", "rgkit", "rgkit.rg", "rgkit.settings", "marks"),
    configure_api=_configure_api,
    package=__name__)
