"""Every rule of race.md as a scenario file, run through the real engine; and the rules a
scenario cannot script (dealing, play order ties, the round cap's ranking)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import InputError
from engine.race import RULEBOOK, scenario
from engine.race.factory import SEED_FACTORY, check_cells, parse_cell, seed_factory
from engine.race.game import check_picks
from engine.race.match import Bot, RaceMatch, new_deck
from engine.race.rules import rules_from
from tests.support.paths import ROOT
from tests.support.scenarios import check_expected

SCENARIOS = sorted((ROOT / "tests" / "race" / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    check_expected(scenario.run(data, path.name), data["expect"], "bots", ("round", "winner"))


def test_the_spec_example_runs() -> None:
    state = scenario.run({"factory": None, "bots": [{"id": "a", "x": 7, "y": 4, "d": "E",
                                                      "checkpoint": False, "spam": 0}],
                          "rounds": [{"a": ["M1", None, None, None, None]}], "seed": 1})
    assert state == {"round": 1, "winner": None, "bots": [
        {"id": "a", "x": 8, "y": 4, "d": "E", "checkpoint": False, "spam": 0}]}


def test_the_seeds_odd_corner_keeps_its_letter() -> None:
    """(9, 8) reads 'r^' though it is fed from the west: it turns a bot right, by its letter."""
    belt = seed_factory().belts[(9, 8)]
    assert (belt.heading, belt.double, belt.turn) == ("N", False, 1)
    assert parse_cell("R<").double and parse_cell("<<").double and not parse_cell("l<").double


def test_the_bundled_factory_is_the_seeds() -> None:
    bundled = RULEBOOK.load_map(ROOT / "maps" / "race" / "seed.json")
    assert bundled.cells == SEED_FACTORY
    assert bundled.starts == [(1, 1), (0, 3), (1, 4), (1, 5), (0, 6), (1, 8)]


def _match(squares: list[tuple[int, int]], seed: int = 1) -> RaceMatch:
    bots = [Bot(chr(97 + i), x, y) for i, (x, y) in enumerate(squares)]
    return RaceMatch(seed_factory(), bots, seed, 100)


def test_play_order_nearest_the_antenna_then_east_west_distance_then_a_seeded_coin() -> None:
    # distance to (0, 4) / east-west part: 5/5, 3/2, 3/3, 3/2, 3/0
    squares = [(5, 4), (2, 3), (3, 4), (2, 5), (0, 1)]
    order = _match(squares).play_order()
    assert order[0] == 2 and order[3:] == [4, 0]
    assert set(order[1:3]) == {1, 3}                 # an exact tie: the coin decides...
    flips = {tuple(_match(squares, seed).play_order()[1:3]) for seed in range(1, 30)}
    assert flips == {(1, 3), (3, 1)}                 # ...both ways over seeds
    assert order == _match(squares).play_order()     # and the same for the same seed


def test_a_round_is_played_in_the_order_the_bots_were_told() -> None:
    """The coin of an exact tie is drawn for the round about to be played, so the order
    shown to the bots before a round is the order its registers run in."""
    squares = [(2, 3), (2, 5), (3, 3), (3, 5)]       # two exact ties
    for seed in range(1, 30):
        match = _match(squares, seed)
        told = match.play_order()
        match.play_round({}, registers=1)
        assert list(match.log[0]["cards"]) == told, seed


def test_dealing_nine_and_filling_from_the_rest_of_the_deck() -> None:
    match = _match([(1, 1)])
    hand, rest = match.deal(0)
    assert len(hand) == 9 and sorted(hand + rest) == sorted(new_deck())
    program = RaceMatch.program(hand[:2], rest)
    assert program == hand[:2] + rest[:3]           # missing picks: cards not in the hand
    assert check_picks(hand[:5], hand) == hand[:5]
    assert check_picks(["M1"] * 4, ["M1", "M1", "M1", "RT"]) is None     # more than held
    assert check_picks(hand[:6], hand) is None and check_picks("M1", hand) is None
    assert check_picks(["XX"], hand) is None and check_picks([], hand) == []


def test_a_spam_drawn_by_a_spam_leaves_the_deck_too() -> None:
    """Spam draws again while it draws Spam; every Spam drawn leaves the deck for good."""
    left = set()
    for seed in range(40):
        match = RaceMatch(seed_factory(), [Bot("a", 6, 4, "N", deck=new_deck(15))], seed, 9)
        match.play_round({0: ["Sp", None, None, None, None]})
        left.add(match.bots[0].spam)
    assert max(left) == 14 and min(left) < 14        # the played one, and sometimes drawn ones


def test_the_round_cap_ranks_by_checkpoints_then_distance() -> None:
    match = _match([(10, 8), (3, 3), (5, 2)])
    match.bots[1].checkpoint = True                  # 3 + 3 from C2 (5, 0)
    match.bots[2].checkpoint = True                  # 2 from C2
    match.max_rounds = 1
    match.play_round({})
    assert match.end == "round_limit" and match.winner is None
    assert match.ranking() == [3, 2, 1]


def test_factory_files_are_checked() -> None:
    bad = [row[:] for row in SEED_FACTORY]
    bad[0][5] = " "                                    # no C2
    with pytest.raises(InputError, match="exactly one C2"):
        check_cells(bad, "f.json")
    bad = [row[:] for row in SEED_FACTORY]
    bad[3][3] = "x?"
    with pytest.raises(InputError, match=r"cell \(3, 3\): unknown cell"):
        check_cells(bad, "f.json")
    bad = [row[:] for row in SEED_FACTORY]
    bad[2][12], bad[6][12] = " ", "*v"                # 3 rows below it, not 5
    with pytest.raises(InputError, match="needs 5 squares of board"):
        check_cells(bad, "low.json")
    with pytest.raises(InputError, match="not JSON"):
        RULEBOOK.parse_map("[[", "f.json")


def test_rules_presets_and_overrides() -> None:
    assert rules_from().max_turns == 100
    assert rules_from("seed", max_turns=7).max_turns == 7
    with pytest.raises(InputError):
        rules_from("seed", max_turns="x")


def test_dealing_is_seeded_per_bot() -> None:
    assert len({tuple(_match([(1, 1)], 5).deal(0)[0]) for _ in range(3)}) == 1
    assert len({tuple(_match([(1, 1)], seed).deal(0)[0]) for seed in range(5)}) > 1
