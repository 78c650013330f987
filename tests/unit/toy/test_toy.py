"""The toy game's own rules: its scenarios, a seed's determinism, and its map errors."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import InputError
from tests.support.paths import TOY
from tests.support.scenarios import check_expected
from tests.toy import GAME, scenario
from tests.toy.match import parse_map

HERE = TOY
SCENARIOS = sorted((HERE / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    check_expected(scenario.run(data, path.name), data["expect"], "players", ("turn", "coins"))


def _played(seed: int) -> list:
    board = GAME.load_map(GAME.find_map(None))
    match = GAME.new_match(board, ["a", "b"], seed, GAME.rules("toy", max_turns=12))
    steps = "NESW."
    frames = []
    while match.end is None:
        views = match.views()
        answers = {ai: steps[(match.turn + ai) % 5] for ai in views}
        frames.append(match.play_turn(answers))
    return [frames, match.stats(0), match.stats(1), match.ranking()]


def test_a_seed_plays_the_same_match_and_another_may_not() -> None:
    assert _played(3) == _played(3)
    assert any(_played(3) != _played(seed) for seed in range(4, 12))


def test_a_bad_answer_is_a_protocol_error_or_an_invalid_step() -> None:
    board = GAME.load_map(GAME.find_map(None))
    match = GAME.new_match(board, ["a", "b"], 1, GAME.rules("toy"))
    with pytest.raises(ValueError):
        match.decode_answer(0, ["N"])
    assert match.decode_answer(1, {"step": "?"}) == {1: "."}
    assert match.stats(1)["invalid"] == 1


@pytest.mark.parametrize("text, problem", [
    ("", "empty map"), ("#1#\n#2", "every row must be 3 wide"), ("#1x2#", "unknown square"),
    ("#1$#", "start squares 1 and 2"), ("#11#", "a second start 1")])
def test_a_bad_map_is_one_input_error(text: str, problem: str) -> None:
    with pytest.raises(InputError, match=problem):
        parse_map(text, "bad.txt")
