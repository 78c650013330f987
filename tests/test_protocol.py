"""The match protocol (engine/protocol.py) is what every registered game's `new_match`
returns, and the orchestrator drives it without probing for members: generated from the
registry, so a new game is held to the same contract."""
from __future__ import annotations

import inspect
import json

import pytest

import orchestrator.match
from engine.protocol import Match
from orchestrator.games import GAMES


def _new(game):
    names = [f"p{i}" for i in range(game.players or 2)]
    board = game.load_map(game.find_map(None))
    return game.new_match(board, names, 3, game.rules(game.presets[0])), names


@pytest.mark.parametrize("name", sorted(GAMES))
def test_new_match_speaks_the_protocol(name: str) -> None:
    game = GAMES[name]
    match, names = _new(game)
    assert isinstance(match, Match), f"{name}: new_match's result lacks a Match member"
    assert match.turn == 0 and match.end is None and match.first_turn in (0, 1)
    for ai in range(len(names)):
        json.dumps(match.start_info(ai))           # plain data, or None
    json.dumps(match.replay_static())
    frame = match.replay_frame()
    assert all(isinstance(row, list) and row for rows in frame.values() for row in rows)
    views = match.views()
    assert set(views) <= set(range(len(names)))
    assert all(match.calls(ai) >= 0 for ai in views)
    log = match.play_turn({})                      # nobody answered: the game's default
    json.dumps(match.replay_events(log))
    assert match.turn in (0, 1)                    # Race's round 0 does not count
    assert len(match.ranking()) == len(names)
    assert all(isinstance(match.stats(ai), dict) for ai in range(len(names)))
    assert match.snapshot() == match.snapshot()


def test_the_orchestrator_never_probes_a_match() -> None:
    source = inspect.getsource(orchestrator.match)
    assert "hasattr(match" not in source and "getattr(match" not in source
