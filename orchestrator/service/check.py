"""`arena check` and `api.check`: what a check is given, checked before it plays; the
check itself (the match against the game's lineup, and its verdict) is
orchestrator/runner/check.py's, which the ladder's check workers run too."""
from __future__ import annotations

from pathlib import Path

from orchestrator import arguments
from orchestrator.games import get_game
from orchestrator.options import Confinement
from orchestrator.runner.bots import read_bot
from orchestrator.runner.check import CheckVerdict, check_bot, check_strict
from orchestrator.service.values import game_limits
from sandbox import modes
from sandbox.limits import Limits

__all__ = ["CheckVerdict", "check_bot", "check_setup", "check_strict"]


def check_setup(path: str | Path, game: str, held: Confinement, *, seed: int | None = None,
                turns: int | None = None, max_overheats: float | None = None) -> Limits:
    """Check what a check is given before it plays (a missing or unreadable file fails
    here, first); the limits it plays with."""
    modes.for_check(held.sandbox)
    arguments.check(seed=seed, turns=turns, max_overheats=max_overheats)
    chosen = get_game(game)
    read_bot(path, chosen.name)          # a missing or unreadable file fails here, first
    return game_limits(chosen, held.cpu_limit, held.memory_mb)
