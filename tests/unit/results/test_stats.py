"""The Wilson interval of a rate (orchestrator/results/stats.py)."""
from __future__ import annotations

import pytest

from orchestrator.results.stats import wilson


@pytest.mark.parametrize("successes, n, low, high", [
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
    (1, 1, 0.2065, 1.0),
])
def test_known_intervals(successes: float, n: int, low: float, high: float) -> None:
    found = wilson(successes, n)
    assert found == pytest.approx((low, high), abs=1e-4)


def test_no_games_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(3, -1) == (0.0, 1.0)


@pytest.mark.parametrize("n", [1, 2, 7, 40, 1000])
def test_the_interval_holds_the_rate_within_zero_and_one(n: int) -> None:
    for successes in [0, 0.5, n / 3, n - 0.5, n]:
        low, high = wilson(successes, n)
        assert 0.0 <= low <= successes / n <= high <= 1.0


def test_the_interval_narrows_with_more_games_and_is_symmetric() -> None:
    widths = [high - low for low, high in (wilson(n / 2, n) for n in (10, 100, 1000))]
    assert widths[0] > widths[1] > widths[2]
    low, high = wilson(3, 10)
    mirror_low, mirror_high = wilson(7, 10)
    assert (low, high) == pytest.approx((1 - mirror_high, 1 - mirror_low))


def test_a_draw_counts_half_and_a_wider_z_widens() -> None:
    low, high = wilson(2.5, 5)                  # five draws: a rate of one half
    assert low == pytest.approx(1 - high) and high - low > wilson(5, 10)[1] - wilson(5, 10)[0]
    narrow, wide = wilson(5, 10, z=1.0), wilson(5, 10, z=2.58)
    assert wide[0] < narrow[0] and wide[1] > narrow[1]
