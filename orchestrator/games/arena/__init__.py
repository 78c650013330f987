"""Robot Arena's entry: flags, lasers, 40 robots per AI (engine/arena/)."""
from engine import InputError, arena
from engine.arena.generate import generate as _generate
from orchestrator.games.arena import turn as _turn
from orchestrator.games.entry import (
    Check,
    CodeBot,
    Competition,
    Game,
    LadderRules,
    Options,
    ReplayShape,
    Shown,
)


def _draw(ais: int, robots: int, flags: int, bots: int, seed: int) -> tuple[str, str]:
    """`arena maps generate`: an arena at the seed's robot density."""
    if robots < 1:
        raise InputError(f"--robots must be at least 1, got {robots}")
    drawn = _generate(ais, seed, robots, flags)
    return drawn.to_text(), (f"{drawn.size}x{drawn.size}, {len(drawn.flags)} flags, fits "
                             f"{ais} AIs x {robots} robots")


def _looks_like(bot) -> int:
    """A Python file with a top-level move()."""
    return 2 if bot.tree is not None and "move" in bot.functions else 0


GAME = Game(
    "arena", "Robot Arena",
    arena.RULEBOOK, "_arena", default_map="quad", map_suffix=".txt",
    check=Check("skirmish", ("hunter.py", "beeline.py"), turns=50),
    competition=Competition(
        ladder=LadderRules(4, 4, ("quad",)),      # free-for-alls of 4 on the 4-AI map
        game_seconds=2.0),     # compare's 4 samples on quad: 1.8 s (a heavy bot: 6 s)
    shown=Shown(
        columns=(("flags", lambda s: f"{s.get('max_flags', 0)}/{s.get('total_flags', 0)}"),
                 ("alive", lambda s: str(s.get("alive", "-")))),
        legend="flags: best robot / all robots; ", turn=_turn.tell),
    options=Options(
        generate=_draw, generate_help=("an arena at the seed's 5-6 % robot density, with walls, "
                                       "lasers, spinners and pits, for --ais AIs of --robots "
                                       "robots"),
        presets_help="seed follows the seed document, v1.1 the original game's later release",
        edit_help="walls, pits, lasers, spinners and flags",
        scenario_help="""An arena file gives a map, robots and moves per turn, for example:

  {"map": ["#####", "#1  #", "#   #", "#####"],
   "robots": [{"id": "a", "ai": "A", "row": 1, "col": 2, "facing": "N"}],
   "moves": [{"a": "FORWARD"}, {"a": "LASER"}], "seed": 1}"""),
    looks_like=_looks_like,
    code_bot=CodeBot("move", "function", "from roborally.api import *\n"),
    replay_shape=ReplayShape(
        map={"rows": [str], "flags": int, "sight": int, "owners": [(int, int)],
             "blocks": [(int, int, int, str, int)]},
        tables={"robots": (int,) * 8, "blocks": (int, int)},
        names={"robots": ("id", "row", "col", "facing", "life", "charges", "flags", "state"),
               "blocks": ("index", "life")}),
    memoryless=("hunter.py", "beeline.py", "randy.py", "turtle.py"),
    bot_modules=("roborally", "roborally.api", "marks"),
    package=__name__)
