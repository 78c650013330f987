"""Race some Robots' entry: RoboRally cards (engine/race/)."""
import ast

from engine import race
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
from orchestrator.games.race import turn as _turn
from sandbox.limits import Limits

RACE_ARGS = ("round", "order", "position", "score", "cards", "bots", "factory")


def _looks_like(bot) -> int:
    """A Python file with bot(), or a function of the seed's arguments."""
    if bot.tree is None:
        return 0
    return 2 if "bot" in bot.functions or any(
        tuple(a.arg for a in f.args.args) == RACE_ARGS for f in bot.functions.values()
        if isinstance(f, ast.FunctionDef)) else 0


GAME = Game(
    "race", "Race some Robots, RoboRally cards",
    race.RULEBOOK, "_race", default_map="seed", map_suffix=".json",
    check=Check("seed", ("random_bot.py", "planner.py"), turns=20, call="round"),
    # The seed gives no time; a round's choice gets 1 s, then random cards fill in.
    limits=Limits(cpu_per_call_s=2.0, act_soft_s=1.0, first_act_soft_s=1.0),
    demo=("planner.py", "random_bot.py", "cautious.py", "sprinter.py", "thinker.py"),
    shown=Shown(columns=(("C1", lambda s: "yes" if s.get("checkpoint") else "-"),
                         ("to go", lambda s: str(s.get("distance", "-"))),
                         ("reboots", lambda s: str(s.get("reboots", "-"))),
                         ("filled", lambda s: str(s.get("invalid", 0) + s.get("overheats", 0)
                                                  + s.get("timeouts", 0)))),
                turn=_turn.tell),
    competition=Competition(tournament=("combinations", 3, 6), ranked_by="points",
                            ladder=LadderRules(6, 2, ("seed",)),  # 6, or all when fewer
                            game_seconds=0.2),                    # measured: 0.18 s
    options=Options(scenario_help=(
        "A race file (--game race) gives a factory (null: the seed's), bots and their five\n"
        "registers per round:\n\n"
        '  {"factory": null, "bots": [{"id": "a", "x": 7, "y": 4, "d": "E"}],\n'
        '   "rounds": [{"a": ["M1", null, null, null, null]}], "seed": 1}')),
    looks_like=_looks_like,
    code_bot=CodeBot("bot", "function"),
    replay_shape=ReplayShape(map={"width": int, "height": int, "cells": [[str]]},
                             tables={"bots": (int, int, int, str, int, int, int)},
                             names={"bots": ("index", "x", "y", "facing", "checkpoint", "spam",
                                             "reboots")}),
    memoryless=("sprinter.py", "cautious.py", "planner.py", "random_bot.py"),
    bot_modules=("marks",),
    package=__name__)
