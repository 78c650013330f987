"""Tournament formats and match ids, worked out by hand."""
from __future__ import annotations

import dataclasses

import pytest

from engine import InputError
from orchestrator.games import get_game
from orchestrator.runner.bots import read_bot
from orchestrator.runner.schedule import Setup, plan_batch, plan_tournament
from sandbox.limits import Limits
from tests.support.paths import BOTS, ROOT

ARENA = [read_bot(BOTS / name) for name in ("beeline.py", "hunter.py", "turtle.py", "randy.py")]


def setup(game="arena", map_ref="tiny", **rules) -> Setup:
    found = get_game(game)
    return Setup.make(found, map_ref, found.rules(found.presets[0], **rules), found.limits,
                      "standard")


def lineups(planned) -> list[tuple[list[str], int]]:
    return [([b.name for b in p.spec.bots], p.spec.seed) for p in planned]


def test_round_robin_plays_every_pair_with_sides_swapped() -> None:
    got = lineups(plan_tournament(setup(), ARENA[:3], "round-robin", 2, 10))
    assert got == [(["Beeline", "Hunter"], 10), (["Hunter", "Beeline"], 10),
                   (["Beeline", "Turtle"], 10), (["Turtle", "Beeline"], 10),
                   (["Hunter", "Turtle"], 10), (["Turtle", "Hunter"], 10)]


def test_ffa_rotates_the_seats() -> None:
    got = lineups(plan_tournament(setup(), ARENA[:3], "ffa", 4, 1))
    assert got == [(["Beeline", "Hunter", "Turtle"], 1), (["Hunter", "Turtle", "Beeline"], 2),
                   (["Turtle", "Beeline", "Hunter"], 3), (["Beeline", "Hunter", "Turtle"], 4)]


def test_combinations_of_k_with_g_games_each() -> None:
    # The seed's format, scaled down: every combination of 3 of 4 bots, 2 games each.
    got = lineups(plan_tournament(setup(), ARENA, "combinations", 2, 1, size=3))
    assert len(got) == 4 * 2
    assert got[:2] == [(["Beeline", "Hunter", "Turtle"], 1), (["Beeline", "Hunter", "Turtle"], 2)]
    assert {tuple(names) for names, _ in got} == {
        ("Beeline", "Hunter", "Turtle"), ("Beeline", "Hunter", "Randy"),
        ("Beeline", "Turtle", "Randy"), ("Hunter", "Turtle", "Randy")}


def test_match_ids_depend_on_everything_a_match_is_a_function_of() -> None:
    base = plan_batch(setup(), ARENA[:2], [1, 2])
    assert [p.match_id for p in base] == [p.match_id for p in plan_batch(setup(), ARENA[:2],
                                                                         [1, 2])]
    assert base[0].match_id != base[1].match_id                       # the seed
    assert plan_batch(setup(), ARENA[1::-1], [1])[0].match_id != base[0].match_id   # seats
    assert plan_batch(setup(max_turns=99), ARENA[:2], [1])[0].match_id != base[0].match_id
    assert plan_batch(setup(map_ref="duel"), ARENA[:2], [1])[0].match_id != base[0].match_id
    found = get_game("arena")
    tighter = Setup.make(found, "tiny", found.rules("seed"), Limits(memory_mb=128), "standard")
    assert plan_batch(tighter, ARENA[:2], [1])[0].match_id != base[0].match_id


def test_bad_tournaments_are_input_errors() -> None:
    with pytest.raises(InputError, match="unknown --format"):
        plan_tournament(setup(), ARENA, "swiss", 1, 1)
    with pytest.raises(InputError, match="given twice"):
        plan_tournament(setup(), [ARENA[0], ARENA[0]], "ffa", 1, 1)
    copy = dataclasses.replace(ARENA[0], path="elsewhere/copy.py")
    with pytest.raises(InputError, match="elsewhere/copy.py have the same content"):
        plan_tournament(setup(), [ARENA[0], copy], "ffa", 1, 1)
    rg = [read_bot(ROOT / "bots" / "robotgame" / n) for n in ("example.py", "rusher.py",
                                                                "survivor.py")]
    with pytest.raises(InputError, match="2 players, not 3"):
        plan_tournament(setup("robotgame", None), rg, "ffa", 1, 1)
    assert len(plan_tournament(setup("robotgame", None), rg, "round-robin", 2, 1)) == 6
