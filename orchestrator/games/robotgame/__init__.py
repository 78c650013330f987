"""Robot Game's entry: rgkit's rules, its bots unmodified, and bots in Ruby (seed 001)."""
from engine import robotgame
from orchestrator.games.entry import Game
from sandbox.limits import Limits
from sandbox.paths import BOTLIB

GAME = Game(
    "robotgame", "rgkit's Robot Game",
    robotgame.RULEBOOK, "_robotgame", default_map="default",
    map_suffix=".py", check_map="default", check_opponents=("example.py",),
    failure="forfeit", players=2,
    # rgkit's server: 300 ms per act (1.5 s for the first); past that the robot guards.
    # Two turns of nothing but timeouts, or a 20 s bank, forfeit (docs/robotgame.md).
    limits=Limits(cpu_per_call_s=2.0, act_soft_s=0.3, first_act_soft_s=1.5,
                  cpu_bank_s=20.0),
    demo=("coordinator.py", "example.py"),
    drivers=((".rb", str(BOTLIB / "ruby" / "driver.rb")),),
    columns=(("robots", lambda s: str(s.get("robots", "-"))),
             ("timeouts", lambda s: str(s.get("timeouts", "-")))),
    package=__name__)
