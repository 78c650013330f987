"""Ratings from finished matches, recomputed from scratch in schedule order, so the same
results always give the same table.

- Elo: every player starts at 1200 (rgkit's default rating) with K = 32. A match of n
  players counts as a game between every pair, scored 1, 0.5 or 0 by rank, each pair's
  change scaled by 1 / (n - 1), all from the ratings before the match.
- openskill: the Plackett-Luce model (mu 25, sigma 25/3), for matches of any size. The
  table shows mu, sigma and the conservative ordinal mu - 3 sigma.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Mapping, Sequence, TypedDict

if TYPE_CHECKING:     # openskill itself is imported where it is used (its import is slow)
    from openskill.models import PlackettLuceRating

ELO_INITIAL = 1200.0
ELO_K = 32.0

Match = list[tuple[Hashable, int]]        # (player, rank) for each participant


class Ratings:
    """Both ratings, updated one match at a time in the order the matches finished.

    `elo` and `openskill` below fold a list of matches through it, and the ladder server
    feeds it live, so a recomputation from stored matches equals the live values.
    """

    def __init__(self, initial: float = ELO_INITIAL, k: float = ELO_K) -> None:
        from openskill.models import PlackettLuce

        self.initial, self.k = initial, k
        self.elo: dict[Hashable, float] = {}
        self.model = PlackettLuce()
        self.skill: dict[Hashable, PlackettLuceRating] = {}

    def add(self, match: Match) -> None:
        self.add_elo(match)
        self.add_openskill(match)

    def add_elo(self, match: Match) -> None:
        before = {player: self.elo.get(player, self.initial) for player, _ in match}
        scale = self.k / max(1, len(match) - 1)
        change = dict.fromkeys(before, 0.0)
        for i, (a, rank_a) in enumerate(match):
            for b, rank_b in match[i + 1:]:
                expected = 1.0 / (1.0 + 10 ** ((before[b] - before[a]) / 400.0))
                score = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
                change[a] += scale * (score - expected)
                change[b] -= scale * (score - expected)
        for player in before:
            self.elo[player] = before[player] + change[player]

    def add_openskill(self, match: Match) -> None:
        teams = [[self.skill.get(player) or self.model.rating(name=str(player))]
                 for player, _ in match]
        rated = self.model.rate(teams, ranks=[rank for _, rank in match])
        for (player, _), team in zip(match, rated, strict=True):
            self.skill[player] = team[0]

    def elo_of(self, player: Hashable) -> float:
        return self.elo.get(player, self.initial)

    def mu_sigma(self, player: Hashable) -> tuple[float, float]:
        rating = self.skill.get(player) or self.model.rating()
        return rating.mu, rating.sigma


def elo(matches: list[Match], initial: float = ELO_INITIAL, k: float = ELO_K
        ) -> dict[Hashable, float]:
    ratings = Ratings(initial, k)
    for match in matches:
        ratings.add_elo(match)
    return ratings.elo


def openskill(matches: list[Match]) -> dict[Hashable, tuple[float, float]]:
    """(mu, sigma) per player after the matches, by Plackett-Luce."""
    ratings = Ratings()
    for match in matches:
        ratings.add_openskill(match)
    return {player: ratings.mu_sigma(player) for player in ratings.skill}


class RatingsRow(TypedDict):
    """One player's ratings: Elo, and openskill's mu, sigma and ordinal (mu - 3 sigma)."""

    elo: float
    mu: float
    sigma: float
    ordinal: float


def table(matches: Sequence[Mapping[str, Any]],
          key: Callable[[Mapping[str, Any]], Hashable]) -> dict[Hashable, RatingsRow]:
    """Both ratings per player from stored matches (each with its `players`)."""
    games: list[Match] = [[(key(p), p["rank"]) for p in sorted(m["players"],
                                                                key=lambda p: p["seat"])]
                          for m in matches]
    elos = elo(games)
    skills = openskill(games)
    return {player: RatingsRow(elo=round(elos[player], 1), mu=round(skills[player][0], 3),
                               sigma=round(skills[player][1], 3),
                               ordinal=round(skills[player][0] - 3 * skills[player][1], 3))
            for player in elos}
