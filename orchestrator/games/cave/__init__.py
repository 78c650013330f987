"""Cave Rangers' entry: stdin/stdout bots in any language (engine/cave/)."""
from engine import InputError, cave
from engine.cave.generate import generate as _generate
from orchestrator.games.cave import turn as _turn
from orchestrator.games.entry import Check, Competition, Game, Options, ReplayShape, Shown
from sandbox.limits import Limits
from sandbox.programs import ELF, EXTENSIONS


def _draw(ais: int, robots: int, flags: int, bots: int, seed: int) -> tuple[str, str]:
    """`arena maps generate --game cave`: the cavern a match with that seed would draw."""
    if bots < 1:
        raise InputError(f"--bots must be at least 1, got {bots}")
    cavern = _generate(bots, seed)
    text = (f"# Cave Rangers cavern for {bots} bots, seed {seed}: "
            f"{cavern.side}x{cavern.side}\n" + "\n".join(cavern.rows()) + "\n")
    return text, f"{cavern.side}x{cavern.side} cavern for {bots} bots"


def _looks_like(bot) -> int:
    """A program in any language (a `.c` file is a sample's source, compiled on first use),
    or a Python script that reads its stdin."""
    if bot.source.startswith(ELF) or bot.suffix == ".c" or (
            bot.suffix in EXTENSIONS and bot.suffix not in (".py", ".rb")):
        return 4
    if bot.source.startswith(b"#!") and b"python" not in bot.source.split(b"\n", 1)[0]:
        return 4
    if bot.suffix == ".rb":
        return 1
    return 1 if bot.tree is not None and ("stdin" in bot.text or "input(" in bot.text) else 0


GAME = Game(
    "cave", "Cave Rangers, bots in any language",
    cave.RULEBOOK, "_cave", default_map="generated", map_suffix=".txt",
    check=Check("generated", ("forager.py", "miner.sh"), call="turn"),
    # The seed's controller: 1 s a turn. A persistent program's first turn gets 5 s.
    # Own time: 40 s a match, under the 50 turns' 50 s (an honest per-turn program takes
    # a few tens of ms a turn): a program that naps just under its second each turn is
    # erased before the match's end.
    limits=Limits(cpu_per_call_s=1.0, wall_per_call_s=1.0, watchdog_grace_s=5.0,
                  cpu_bank_s=60.0, output_bytes=16 << 10, own_per_turn_s=1.0,
                  own_bank_s=40.0),
    demo=("forager.py", "wanderer.py", "miner.sh", "scout.js", "digger.c", "thinker.py"),
    shown=Shown(columns=(("score", lambda s: str(s.get("score", "-"))),
                         ("gold", lambda s: str(s.get("gold", "-"))),
                         ("lasted", lambda s: str(s.get("turns", "-"))),
                         ("invalid", lambda s: str(s.get("invalid", "-")))),
                turn=_turn.tell),
    programs=True,
    competition=Competition(ranked_by="score",    # the seed's leaderboard: mean score
                            head_to_head=True, game_seconds=1.4),   # measured: 1.4 s
    options=Options(
        generate=_draw, generate_help="a fixed cavern for --bots bots",
        scenario_help="""A cave file (--game cave) gives a cavern, bots and their answers per turn:

  {"cavern": ["-----", "-G}--", "--P--"], "bots": [{"id": "a", "row": 2, "col": 1}],
   "turns": [{"a": "MNNANW"}], "creatures_move": false, "seed": 1}"""),
    looks_like=_looks_like,
    replay_shape=ReplayShape(tables={"bots": (int,) * 8, "creatures": (int, str, int, int),
                                     "nurse": (int, int, int), "squares": (int, str)},
                             names={"bots": ("index", "row", "col", "health", "gold", "alive",
                                             "poison", "stuck"),
                                    "creatures": ("index", "kind", "row", "col"),
                                    "nurse": ("id", "row", "col"), "squares": ("row", "symbols")}),
    memoryless=("forager.py", "miner.sh"),
    bot_modules=(),
    package=__name__)
