"""Ratings and intervals against values worked out by hand."""
from __future__ import annotations

import math

import pytest

from orchestrator.results.ratings import elo, openskill
from orchestrator.results.stats import wilson


def test_elo_two_players_by_hand() -> None:
    # A beats B from 1200 each, K 32: +-16. Then B beats A: B's expected score is
    # 1 / (1 + 10 ** (32 / 400)) = 0.454078, so B gains 32 * 0.545922 = 17.4695.
    assert elo([[("A", 1), ("B", 2)]]) == {"A": 1216.0, "B": 1184.0}
    after = elo([[("A", 1), ("B", 2)], [("A", 2), ("B", 1)]])
    assert after["A"] == pytest.approx(1198.5305, abs=1e-4)
    assert after["B"] == pytest.approx(1201.4695, abs=1e-4)


def test_elo_three_players_is_every_pair_at_half_k() -> None:
    # Each pair moves 32 / 2 * 0.5 = 8: A wins both (+16), B one of two (0), C none (-16).
    assert elo([[("A", 1), ("B", 2), ("C", 3)]]) == {"A": 1216.0, "B": 1200.0, "C": 1184.0}
    # A draw between equals changes nothing.
    assert elo([[("A", 1), ("B", 1)]]) == {"A": 1200.0, "B": 1200.0}


def test_openskill_two_players_by_hand() -> None:
    # Plackett-Luce with mu 25, sigma 25/3, beta 25/6, tau 25/300:
    # sigma^2 -> 69.4444 + 0.00694 = 69.4514; c = sqrt(2 (69.4514 + 17.3611)) = 13.1767;
    # both quotients 1/2, so the winner gains 0.5 * 69.4514 / 13.1767 = 2.63539 and
    # sigma becomes sqrt(69.4514) * sqrt(1 - 0.25 * (8.33375 / 13.1767) * 69.4514 / 173.625).
    rated = openskill([[("A", 1), ("B", 2)]])
    assert rated["A"][0] == pytest.approx(27.63539, abs=1e-5)
    assert rated["B"][0] == pytest.approx(22.36461, abs=1e-5)
    assert rated["A"][1] == rated["B"][1] == pytest.approx(8.06590, abs=1e-5)


def plackett_luce(ratings: dict, ranks: dict, beta=25 / 6, tau=25 / 300, kappa=1e-4) -> dict:
    """The Weng-Lin Plackett-Luce update, written out from the paper."""
    sigma2 = {p: s * s + tau * tau for p, (_, s) in ratings.items()}
    c = math.sqrt(sum(v + beta * beta for v in sigma2.values()))
    mu = {p: m for p, (m, _) in ratings.items()}
    sum_q = {q: sum(math.exp(mu[i] / c) for i in ratings if ranks[i] >= ranks[q])
             for q in ratings}
    ties = {q: sum(1 for i in ratings if ranks[i] == ranks[q]) for q in ratings}
    out = {}
    for i in ratings:
        omega = delta = 0.0
        for q in ratings:
            if ranks[q] > ranks[i]:
                continue
            quotient = math.exp(mu[i] / c) / sum_q[q]
            omega += ((1 - quotient) if q == i else -quotient) / ties[q]
            delta += quotient * (1 - quotient) / ties[q]
        gamma = math.sqrt(sigma2[i]) / c
        out[i] = (mu[i] + omega * sigma2[i] / c,
                  math.sqrt(sigma2[i]) * math.sqrt(max(1 - delta * gamma * sigma2[i] / c ** 2,
                                                       kappa)))
    return out


def test_openskill_three_players_follows_the_formula() -> None:
    matches = [[("A", 1), ("B", 2), ("C", 3)], [("C", 1), ("A", 2), ("B", 2)]]
    expected = {p: (25.0, 25 / 3) for p in "ABC"}
    for match in matches:
        expected = plackett_luce(expected, dict(match))
    got = openskill(matches)
    for player in "ABC":
        assert got[player] == pytest.approx(expected[player], abs=1e-9)


def test_wilson_interval_by_hand() -> None:
    # 61 wins in 200 (cli.md's example): p = 0.305, z = 1.96; centre
    # (0.305 + 0.009604) / 1.019208 = 0.308675, half-width 1.96 * 0.0329225 / 1.019208
    # = 0.063312, so (0.2454, 0.3720).
    low, high = wilson(61, 200)
    assert low == pytest.approx(0.2454, abs=1e-4) and high == pytest.approx(0.3720, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0 and wilson(10, 10)[0] == pytest.approx(0.7225, abs=1e-4)
