"""Robot Arena's entry: flags, lasers, 40 robots per AI (engine/arena/)."""
from engine import arena
from orchestrator.games.entry import Game

GAME = Game(
    "arena", "Robot Arena",
    arena.RULEBOOK, "_arena", default_map="quad", map_suffix=".txt",
    check_map="skirmish", check_opponents=("hunter.py", "beeline.py"),
    columns=(("flags", lambda s: f"{s.get('max_flags', 0)}/{s.get('total_flags', 0)}"),
             ("alive", lambda s: str(s.get("alive", "-")))),
    package=__name__)
