"""A Robot Game match played in this process, for the tests of its bots and its hangs."""
from __future__ import annotations

from engine.robotgame.rules import rules_from
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from tests.support.paths import ROOT

MAP = ROOT / "maps" / "robotgame" / "default.py"
SAMPLES = ROOT / "bots" / "robotgame"


def play(a, b, *, seed=1, turns=100, limits=None, sandbox="standard", trace=None) -> dict:
    spec = MatchSpec("robotgame", MAP, [read_bot(a), read_bot(b)], seed,
                     rules_from(max_turns=turns), limits, sandbox)
    return run_match(spec, trace=trace)


def player(result: dict, bot) -> dict:
    return next(p for p in result["players"] if p["bot"] == str(bot))
