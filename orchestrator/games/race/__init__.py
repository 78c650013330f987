"""Race some Robots' entry: RoboRally cards (engine/race/)."""
import ast

from engine import race
from orchestrator.games.entry import CodeBot, Game
from orchestrator.ladder.matchmaking import LadderRules
from orchestrator.replay_shape import ReplayShape
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
    check_map="seed", check_opponents=("random_bot.py", "planner.py"),
    # The seed gives no time; a round's choice gets 1 s, then random cards fill in.
    limits=Limits(cpu_per_call_s=2.0, act_soft_s=1.0, first_act_soft_s=1.0),
    demo=("planner.py", "random_bot.py", "cautious.py", "sprinter.py"),
    columns=(("C1", lambda s: "yes" if s.get("checkpoint") else "-"),
             ("to go", lambda s: str(s.get("distance", "-"))),
             ("reboots", lambda s: str(s.get("reboots", "-"))),
             ("filled", lambda s: str(s.get("invalid", 0) + s.get("overheats", 0)
                                      + s.get("timeouts", 0)))),
    tournament=("combinations", 3, 6), ranked_by="points", check_turns=20,
    ladder=LadderRules(6, 2, ("seed",)),           # 6, or every bot when fewer
    looks_like=_looks_like,
    code_bot=CodeBot("bot", "function"),
    replay_shape=ReplayShape(map={"width": int, "height": int, "cells": [[str]]},
                             tables={"bots": (int, int, int, str, int, int, int)}),
    package=__name__)
