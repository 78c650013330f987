"""Where the tests keep a game's own data (scenario files, a hanging bot ...): the folder of
a game kept outside the package (its `home`: the toy game's tests/toy/), else tests/<game>/.
Tests that ask every game for such data look there, so a new game brings its own."""
from __future__ import annotations

from pathlib import Path

from orchestrator.games import GAMES

TESTS = Path(__file__).resolve().parent.parent


def game_tests(name: str) -> Path:
    return GAMES[name].home or TESTS / name
