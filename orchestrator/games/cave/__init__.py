"""Cave Rangers' entry: stdin/stdout bots in any language (engine/cave/)."""
from engine import cave
from orchestrator.games.entry import Game
from sandbox.limits import Limits

GAME = Game(
    "cave", "Cave Rangers, bots in any language",
    cave.RULEBOOK, "_keeper", default_map="generated", map_suffix=".txt",
    check_map="generated", check_opponents=("forager.py", "miner.sh"),
    # The seed's controller: 1 s a turn. A persistent program's first turn gets 5 s.
    limits=Limits(cpu_per_call_s=1.0, wall_per_call_s=1.0, watchdog_grace_s=5.0,
                  cpu_bank_s=60.0, output_bytes=16 << 10),
    demo=("forager.py", "wanderer.py", "miner.sh", "scout.js", "digger.c"),
    columns=(("score", lambda s: str(s.get("score", "-"))),
             ("gold", lambda s: str(s.get("gold", "-"))),
             ("lasted", lambda s: str(s.get("turns", "-"))),
             ("invalid", lambda s: str(s.get("invalid", "-")))), programs=True,
    ranked_by="score",        # the seed's leaderboard: mean score
    package=__name__)
