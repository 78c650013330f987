"""Robot Game's entry: rgkit's rules, its bots unmodified, and bots in Ruby (seed 001)."""
import ast

from engine import robotgame
from orchestrator.games.entry import Check, CodeBot, Competition, Game, Options, Shown
from orchestrator.replay_shape import ReplayShape
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


GAME = Game(
    "robotgame", "rgkit's Robot Game",
    robotgame.RULEBOOK, "_robotgame", default_map="default",
    map_suffix=".py", check=Check("default", ("example.py",)),
    failure="forfeit", players=2,
    # rgkit's server: 300 ms per act (1.5 s for the first); past that the robot guards.
    # Two turns of nothing but timeouts, or a 20 s bank, forfeit (docs/robotgame.md).
    limits=Limits(cpu_per_call_s=2.0, act_soft_s=0.3, first_act_soft_s=1.5,
                  cpu_bank_s=20.0),
    demo=("coordinator.py", "example.py"),
    drivers=((".rb", str(BOTLIB / "ruby" / "driver.rb")),),
    shown=Shown(columns=(("robots", lambda s: str(s.get("robots", "-"))),
                         ("timeouts", lambda s: str(s.get("timeouts", "-")))),
                legend="robots: alive at the end (the score); ", called="Robot Game"),
    competition=Competition(head_to_head=True),
    options=Options(robots_rule="spawn_per_player", random_spawn=True,
                    robots_help="spawned per player each time",
                    edit_help="obstacles and spawn squares"),
    looks_like=_looks_like,
    code_bot=CodeBot("Robot", "class", "import rg\n"),
    replay_shape=ReplayShape(map={"spawn": [(int, int)], "obstacle": [(int, int)]},
                             tables={"robots": (int,) * 5},
                             names={"robots": ("id", "player", "x", "y", "hp")}),
    memoryless=("example.py", "rusher.py", "survivor.py", "coordinator.py"),
    package=__name__)
