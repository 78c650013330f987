"""Every rule of arena.md as a scenario file, run through the real engine."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.arena import scenario
from tests.support.paths import ROOT
from tests.support.scenarios import check_expected

SCENARIOS = sorted((ROOT / "tests" / "arena" / "scenarios").glob("*.json"))


def check(state: dict, expect: dict) -> None:
    check_expected(state, expect, "robots", ("turn", "end", "objects"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    check(scenario.run(data, path.name), data["expect"])


def test_random_order_is_seeded() -> None:
    """Conflicting moves go in a random order: the seed decides, and decides the same way."""
    data = {"map": ["     "] * 5, "robots": [
        {"id": "a", "ai": "A", "row": 2, "col": 0, "facing": "E"},
        {"id": "b", "ai": "A", "row": 2, "col": 2, "facing": "W"}],
        "moves": [{"a": "FORWARD", "b": "FORWARD"}]}
    outcomes = set()
    for seed in range(12):
        first = scenario.run(dict(data, seed=seed))
        again = scenario.run(dict(data, seed=seed))
        assert first == again
        outcomes.add(tuple((r["row"], r["col"]) for r in first["robots"]))
    # a first: a enters (2,1), then b pushes it back. b first: the mirror image.
    assert outcomes == {((2, 0), (2, 1)), ((2, 1), (2, 2))}


def test_v11_random_damage() -> None:
    """The v1.1 preset: on turns 301, 331, ... one robot takes (turn - 301) / 30."""
    data = {"map": ["     "] * 5, "rules": {"preset": "v1.1", "max_turns": 400},
            "robots": [{"id": "a", "ai": "A", "row": 0, "col": 0, "facing": "N"}],
            "moves": [{}] * 331, "seed": 5}
    state = scenario.run(data)
    assert state["robots"][0]["life"] == 20 - 1      # turn 301 deals 0, turn 331 deals 1
    data["moves"] = [{}] * 330
    assert scenario.run(data)["robots"][0]["life"] == 20


def test_v11_flag_bonus() -> None:
    data = {"map": ["1    ", "2    ", "     ", "     ", "     "], "rules": {"preset": "v1.1"},
            "robots": [{"id": "a", "ai": "A", "row": 0, "col": 0, "facing": "E"}], "moves": [{}]}
    robot = scenario.run(data)["robots"][0]
    assert (robot["flags"], robot["life"]) == (1, 30)
