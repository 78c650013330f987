"""Matchmaking: who plays first, who meets whom, and that a seed gives the same choices."""
from __future__ import annotations

import itertools
import random
from collections import Counter

from orchestrator.games import GAMES
from orchestrator.web.ladder.matchmaking import LadderRules, Standing, pick

LADDERS = {name: game.ladder_rules for name, game in GAMES.items()}

DUEL = LadderRules(2, 2, ("default",))


def test_too_few_active_bots_play_nothing() -> None:
    assert pick([Standing(1, 1200, 0, 0)], DUEL, random.Random(1)) is None
    arena = [Standing(i, 1200, 0, 0) for i in range(3)]
    assert pick(arena, LADDERS["arena"], random.Random(1)) is None
    race = [Standing(i, 1200, 0, 0) for i in range(3)]
    assert sorted(pick(race, LADDERS["race"], random.Random(1))) == [0, 1, 2]


def test_the_bot_with_fewest_games_plays_then_the_longest_waiting() -> None:
    bots = [Standing(1, 1300, 10, 50), Standing(2, 1200, 3, 40), Standing(3, 1100, 3, 20),
            Standing(4, 1000, 9, 10)]
    for seed in range(20):
        assert 3 in pick(bots, DUEL, random.Random(seed))


def test_opponents_are_mostly_close_in_rating_yet_everyone_meets_everyone() -> None:
    bots = [Standing(i, 1000 + 100 * i, 0, 0) for i in range(6)]
    met = Counter()
    rng = random.Random(7)
    for _ in range(600):
        first = rng.randrange(6)
        table = [Standing(b.id, b.elo, 0 if b.id == first else 1, 0) for b in bots]
        a, b = pick(table, DUEL, rng)
        met[frozenset((a, b))] += 1
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(6), 2)}
    assert met[frozenset((2, 3))] > met[frozenset((0, 5))]


def test_the_same_seed_picks_the_same_lineups() -> None:
    bots = [Standing(i, 1200 + 7 * i, i % 3, i) for i in range(8)]
    rules = LADDERS["arena"]
    assert [pick(bots, rules, random.Random(f"5/{n}")) for n in range(30)] == \
        [pick(bots, rules, random.Random(f"5/{n}")) for n in range(30)]
