"""The toy game: a fifth game that lives only in tests/, the proof that a game is one
folder and one registry entry. Registered through `ARENA_GAMES` (tests/conftest.py
names this folder), it runs through every command the conformance matrix plays.

The folder holds what any game has: the rules (`match.py`), the protocol class the
orchestrator drives (`game.py`), the bot side (`_toy.py`, whose source the sandbox child
gets in its load frame), a scenario runner, two sample bots (`bots/`), one map (`maps/`),
and the per-game data the tests ask of every game (`scenarios/`, `hang.py`)."""
from pathlib import Path

from engine.rulebook import Rulebook
from orchestrator.games.entry import Check, Competition, Game, Shown

from . import position, scenario, turn
from .game import ToyGame
from .match import PRESETS, load_map, parse_map, rules_from, summary

HOME = Path(__file__).resolve().parent
RULEBOOK = Rulebook(load_map, parse_map, rules_from, tuple(PRESETS), ToyGame, summary,
                    scenario.run, position.HOOKS)


def _looks_like(bot) -> int:
    """A Python file with a top-level step()."""
    return 2 if bot.tree is not None and "step" in bot.functions else 0


GAME = Game(
    "toy", "the toy game of tests/", RULEBOOK, str(HOME / "_toy.py"), default_map="plain",
    map_suffix=".txt", check=Check("plain", ("wanderer.py",), turns=10), players=2,
    shown=Shown(columns=(("coins", lambda s: str(s.get("coins", "-"))),
                         ("invalid", lambda s: str(s.get("invalid", "-")))),
                legend="coins: taken; ", turn=turn.tell),
    competition=Competition(head_to_head=True, game_seconds=0.05), home=HOME,
    looks_like=_looks_like,
    memoryless=("greedy.py", "wanderer.py"))
