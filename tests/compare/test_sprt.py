"""The SPRT's statistics apart from any game: simulated tests of known Elo difference.

For a true difference at elo0 (then at elo1), 2,000 simulated SPRTs (make bench; make test
runs 500 with wider bounds, below), each evaluated after
every observation as `arena compare` evaluates it, must accept H1 at a rate within 0.02
of alpha (then of 1 - beta), and their mean length must be within 10 % of Wald's
approximation (`sprt.expected_length`: the LLR as a Brownian motion). Real tests stop
past the bound (the last step overshoots it), which makes them a little longer and their
errors a little rarer than the approximation says; 10 % covers that and the sampling
error of 2,000 lengths (about 2 %). The RNG is seeded: the same numbers every run.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from orchestrator.options import CompareBounds
from orchestrator.results import sprt

ALPHA = BETA = 0.05
PAIRS = [0.05, 0.2, 0.5, 0.2, 0.05]        # a pentanomial with many draws and split pairs
GAMES = [0.3, 0.2, 0.5]                    # a trinomial (loss, draw, win)
CASES = [("normalized", 0.0, 40.0, PAIRS), ("logistic", 0.0, 25.0, PAIRS),
         ("normalized", 0.0, 40.0, GAMES), ("logistic", -5.0, 15.0, [0.4, 0.2, 0.4])]


# 2,000 runs a case (about 4 CPU-minutes for all eight) are a soak for `make bench`. make
# test's 500 have a rate's standard error near 0.01 (0.0097 at 0.05) and a mean length's
# near 4 %: their bounds widen to 0.03 (three standard errors) and 15 %, which still fail
# an LLR or a bound that is wrong (a doubled error rate, a length a third off).
SIZES = [pytest.param(2000, 0.02, 0.10, marks=pytest.mark.slow, id="2000"),
         pytest.param(500, 0.03, 0.15, id="500")]


@pytest.mark.parametrize(("runs", "rate_tolerance", "length_tolerance"), SIZES)
@pytest.mark.parametrize("model,elo0,elo1,base", CASES,
                         ids=[f"{m}-{len(b)}-{e0:g}..{e1:g}" for m, e0, e1, b in CASES])
@pytest.mark.parametrize("at", ["elo0", "elo1"])
def test_error_rates_and_mean_length_match_the_theory(model, elo0, elo1, base, at, runs,
                                                      rate_tolerance,
                                                      length_tolerance) -> None:
    true = elo0 if at == "elo0" else elo1
    pdf = sprt.shifted(base, true, model)
    test = CompareBounds(elo0=elo0, elo1=elo1, alpha=ALPHA, beta=BETA, model=model)
    h1, length = sprt.simulate(pdf, test, runs=runs, rng=np.random.default_rng(27))
    assert length.max() < 100_000                        # every test decided
    expected_h1 = ALPHA if at == "elo0" else 1 - BETA
    assert abs(h1.mean() - expected_h1) <= rate_tolerance, (h1.mean(), expected_h1)
    t, t0, t1 = (sprt.t_value(pdf, e, model) for e in (true, elo0, elo1))
    theory = sprt.expected_length(t, t0, t1, ALPHA, BETA)
    assert abs(length.mean() / theory - 1) <= length_tolerance, (length.mean(), theory)


def test_the_constrained_estimates_meet_their_constraints() -> None:
    a = sprt.scores(5)
    p = np.array([10, 40, 100, 42, 9]) / 201
    q = sprt.mle_expected(a, p, 0.53)
    assert q.sum() == pytest.approx(1) and (q * a).sum() == pytest.approx(0.53)
    q = sprt.mle_t_value(a, p, 0.07)
    mu = (q * a).sum()
    assert q.sum() == pytest.approx(1)
    assert (mu - 0.5) / math.sqrt((q * (a - mu) ** 2).sum()) == pytest.approx(0.07)


def test_the_llr_points_the_right_way_and_grows_with_evidence() -> None:
    better = [5, 20, 50, 30, 15]
    worse = better[::-1]
    for model in sprt.MODELS:
        assert sprt.llr(better, 0, 10, model) > 0 > sprt.llr(worse, 0, 10, model)
        tenfold = [10 * c for c in better]
        assert sprt.llr(tenfold, 0, 10, model) > 5 * sprt.llr(better, 0, 10, model)
    one = sprt.llr(np.array([better, worse]), 0, 10)          # a batch of tests at once
    assert one[0] == pytest.approx(sprt.llr(better, 0, 10))


def test_bounds_estimate_and_verdict() -> None:
    lower, upper = sprt.bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    assert sprt.verdict(3.0, 0.05, 0.05) == "H1" and sprt.verdict(-3.0, 0.05, 0.05) == "H0"
    assert sprt.verdict(0.0, 0.05, 0.05) == ""
    even = sprt.estimate([0, 0, 100, 0, 0])
    assert even["elo"] == pytest.approx(0, abs=1e-9) and even["score"] == pytest.approx(0.5)
    ahead = sprt.estimate([5, 10, 40, 30, 15])         # mean pair score 1.2 of 2: 60 %
    assert ahead["score"] == pytest.approx(0.6, abs=2e-3)
    assert ahead["elo"] == pytest.approx(-400 * math.log10(1 / 0.6 - 1), abs=1)
    low, high = ahead["elo_ci"]
    assert low < ahead["elo"] < high and ahead["nelo"] > 0
    with pytest.raises(ValueError):
        sprt.llr([1, 2, 3, 4], 0, 10)


def test_a_sequential_test_needs_fewer_observations_than_a_fixed_one() -> None:
    t1 = 10 * math.sqrt(2) / sprt.NELO_PER_T            # nElo 10, per pair
    fixed = sprt.fixed_length(0, t1, ALPHA, BETA)
    for t in (0, t1):
        assert sprt.expected_length(t, 0, t1, ALPHA, BETA) < 0.6 * fixed
