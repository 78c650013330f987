"""Who plays next on a ladder: a pure function of the bots' standing and a seeded random
generator, so the ladder's database replays to the same choices.

The bot with the fewest rated games (counting those queued or in flight) plays first,
ties going to the one that waited longest since its last match. Its opponents are drawn
at random, weighted towards the bots closest to it in Elo: a bot 200 points away is half
as likely as an equal one, 400 points away a fifth, but never impossible, so that over
time everyone meets everyone.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from orchestrator.games.entry import LadderRules


@dataclass(frozen=True)
class Standing:
    """What matchmaking knows of an active bot."""

    id: int
    elo: float
    games: int                  # rated games played, plus those queued or in flight
    last: int                   # the number of its latest match (0: none yet)


def pick(standings: list[Standing], rules: LadderRules, rng: random.Random
         ) -> list[int] | None:
    """The bot ids of the next match, in seat order; None if too few bots are active."""
    if len(standings) < rules.minimum:
        return None
    first = min(standings, key=lambda s: (s.games, s.last, s.id))
    others = sorted((s for s in standings if s.id != first.id), key=lambda s: s.id)
    # Weighted sampling without replacement (Efraimidis and Spirakis): the largest keys.
    keyed = sorted(others, reverse=True, key=lambda s: rng.random() ** (
        1.0 + ((s.elo - first.elo) / 200.0) ** 2))
    lineup = [first.id] + [s.id for s in keyed[:rules.size - 1]]
    rng.shuffle(lineup)
    return lineup
