"""Every rule of cave.md as a scenario file, run through the real engine."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import InputError
from engine.cave import scenario
from tests.support.paths import ROOT
from tests.support.scenarios import check_expected

SCENARIOS = sorted((ROOT / "tests" / "cave" / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    check_expected(scenario.run(data, path.name), data["expect"], "bots",
                   ("turn", "end", "cavern"))


def test_the_spec_example() -> None:
    """cave.md's own example, output and all."""
    data = {"cavern": ["-----", "-G}--", "--P--", "-----", "----L"],
            "bots": [{"id": "a", "row": 2, "col": 1, "health": 20, "gold": 0, "poison": 0,
                      "stuck": 0, "revealer": False, "knife": False}],
            "creatures_move": False, "order": ["a", "b"], "turns": [{"a": "MNNANW"}],
            "seed": 1}
    state = scenario.run(data)
    assert state["turn"] == 1 and state["end"] is None
    assert {k: state["bots"][0][k] for k in ("row", "col", "health", "gold", "turns",
                                             "alive", "score")} == {
        "row": 1, "col": 1, "health": 20, "gold": 1, "turns": 1, "alive": True, "score": 2}
    assert state["cavern"] == ["-----", "-----"[:2] + "}--", "--P--", "-----", "----L"]


def _bats_walk(seed: int, bats: bool) -> tuple[int, int]:
    data = {"cavern": ["-----", "-----", "--B--" if bats else "-----", "-----", "-----"],
            "bots": [{"id": "a", "row": 2, "col": 2}], "creatures_move": False,
            "turns": [{"a": "MNNHNN"}], "seed": seed}
    bot = scenario.run(data)["bots"][0]
    return bot["row"], bot["col"]


def test_bats_turn_moves_random_and_the_seed_decides() -> None:
    with_bats = {_bats_walk(seed, True) for seed in range(40)}
    assert {_bats_walk(seed, False) for seed in range(40)} == {(1, 2)}
    assert len(with_bats) >= 5 and all(max(abs(r - 2), abs(c - 2)) == 1 for r, c in with_bats)
    assert [_bats_walk(s, True) for s in range(10)] == [_bats_walk(s, True) for s in range(10)]


def test_acting_order_is_drawn_from_the_seed() -> None:
    """Two bots reach for one gold piece: either may get it, the seed decides."""
    def winner(seed: int) -> str:
        state = scenario.run({"cavern": ["-G-"], "creatures_move": False, "seed": seed,
                              "bots": [{"id": "a", "row": 0, "col": 0},
                                       {"id": "b", "row": 0, "col": 2}],
                              "turns": [{"a": "MEEHNN", "b": "MWWHNN"}]})
        return next(b["id"] for b in state["bots"] if b["gold"] == 1)
    winners = [winner(seed) for seed in range(30)]
    assert set(winners) == {"a", "b"}
    assert winners == [winner(seed) for seed in range(30)]


@pytest.mark.parametrize("data, message", [
    ({"cavern": ["-X-"], "bots": []}, "unknown symbol 'X'"),
    ({"cavern": ["--", "-"], "bots": []}, "same length"),
    ({"cavern": ["--"], "bots": [{"id": "a", "row": 0, "col": 5}]}, "square of the cavern"),
    ({"cavern": ["--"], "bots": [{"id": "a", "row": 0, "col": 0, "health": "x"}]},
     "'health' must be int"),
    ({"cavern": ["NN"], "bots": []}, "second Nurse Nina"),
])
def test_bad_scenarios_are_one_input_error(data, message) -> None:
    with pytest.raises(InputError, match=message):
        scenario.run(data)
