"""The match result's declared type (orchestrator/results/match_result.py) is what a match
really returns, for every game of the registry and every mode: a key the match loop, a
jail or the worker sends that the type does not declare (or a declared key it never sends)
fails here, so the type checker's view of the result from the match loop to `--json`
stays the truth."""
from __future__ import annotations

from typing import get_type_hints

import pytest

from orchestrator.games import GAMES
from orchestrator.results.match_result import MatchData, Played, PlayerData
from orchestrator.runner import execute
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec
from sandbox.modes import MODES


def keys(kind: type) -> tuple[set[str], set[str]]:
    """(every key, the required ones) of a TypedDict."""
    get_type_hints(kind)                      # every annotation resolves
    return set(kind.__annotations__), set(kind.__required_keys__)


def assert_shaped(data: dict, kind: type) -> None:
    every, required = keys(kind)
    assert required <= set(data) <= every, (kind.__name__, set(data) ^ every)


@pytest.mark.parametrize("mode", ["standard", "off", "match"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_played_match_has_the_declared_shape(name: str, mode: str) -> None:
    if mode not in MODES:
        pytest.fail(f"no {mode} mode")
    game = GAMES[name]
    lineup = [read_bot(path) for path in game.demo_lineup()]
    preset = game.rules(game.presets[0])
    spec = MatchSpec(game.name, game.find_map(None), lineup, 7,
                     game.rules(game.presets[0], max_turns=min(5, preset.max_turns)),
                     sandbox=mode, replay=True)
    played = execute.play_planned(spec)          # as a batch worker plays it
    assert_shaped(dict(played), Played)
    assert "error" not in played and "replay" in played, played
    result = played["result"]
    assert_shaped(dict(result), MatchData)
    assert result["players"] and result["seed"] == 7
    for player in result["players"]:
        assert_shaped(dict(player), PlayerData)
