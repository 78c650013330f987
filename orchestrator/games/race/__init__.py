"""Race some Robots' entry: RoboRally cards (engine/race/)."""
from engine import race
from orchestrator.games.entry import Game
from sandbox.limits import Limits

GAME = Game(
    "race", "Race some Robots, RoboRally cards",
    race.RULEBOOK, "_race", default_map="seed", map_suffix=".json",
    check_map="seed", check_opponents=("random_bot.py", "planner.py"),
    # The seed gives no time; a round's choice gets 1 s, then random cards fill in.
    limits=Limits(cpu_per_call_s=2.0, act_soft_s=1.0, first_act_soft_s=1.0),
    demo=("planner.py", "random_bot.py", "cautious.py", "sprinter.py"),
    columns=(("C1", lambda s: "yes" if s.get("checkpoint") else "-"),
             ("to go", lambda s: str(s.get("distance", "-"))),
             ("reboots", lambda s: str(s.get("reboots", "-"))),
             ("filled", lambda s: str(s.get("invalid", 0) + s.get("overheats", 0)
                                      + s.get("timeouts", 0)))),
    tournament=("combinations", 3, 6), ranked_by="points",
    package=__name__)
