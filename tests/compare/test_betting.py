"""The betting test beside the GSPRT, and the verdicts of `arena compare`'s Test.

Simulated runs (vectorised, as tests/compare/test_sprt.py): at elo0 and at elo1 the two
tests together must keep the error rates of the GSPRT alone (within 0.03 of alpha and
1 - beta at 400 runs, 0.02 at 2,000 in `make bench`'s slow set) and last within 10 % of
it on the same outcomes (the betting test takes a tenth of alpha and beta, which widens
the GSPRT's bounds by about 4 %). A rout, every pair won, must end in at most 12 pairs;
pairs that always tie must still end (H0); identical moves end as "identical".
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from orchestrator.options import CompareBounds
from orchestrator.results import betting, sprt
from orchestrator.service.compare import IDENTICAL_PAIRS, elo_shown
from orchestrator.service.compare import Test as SequentialTest

ALPHA = BETA = 0.05
PAIRS = [0.05, 0.2, 0.5, 0.2, 0.05]
CASES = [("logistic", 0.0, 25.0, PAIRS), ("normalized", 0.0, 40.0, [0.3, 0.2, 0.5])]
SIZES = [pytest.param(2000, 0.02, marks=pytest.mark.slow, id="2000"),
         pytest.param(400, 0.03, id="400")]


@pytest.mark.parametrize(("runs", "rate_tolerance"), SIZES)
@pytest.mark.parametrize("model,elo0,elo1,base", CASES,
                         ids=[f"{m}-{len(b)}-{e0:g}..{e1:g}" for m, e0, e1, b in CASES])
@pytest.mark.parametrize("at", ["elo0", "elo1"])
def test_both_tests_keep_the_error_rates_and_cost_what_the_gsprt_costs(
        model, elo0, elo1, base, at, runs, rate_tolerance) -> None:
    pdf = sprt.shifted(base, elo0 if at == "elo0" else elo1, model)
    test = CompareBounds(elo0=elo0, elo1=elo1, alpha=ALPHA, beta=BETA, model=model)
    found = betting.simulate(pdf, test, runs=runs, rng=np.random.default_rng(27))
    assert found.length.max() < 100_000 and found.gsprt_length.max() < 100_000
    expected_h1 = ALPHA if at == "elo0" else 1 - BETA
    assert abs(found.h1.mean() - expected_h1) <= rate_tolerance, found.h1.mean()
    if at == "elo0":          # never more false "better"s than the GSPRT alone, to noise
        assert found.h1.mean() <= found.gsprt_h1.mean() + 0.01
    else:
        assert found.h1.mean() >= found.gsprt_h1.mean() - 0.01
    ratio = found.length.mean() / found.gsprt_length.mean()
    assert 0.9 <= ratio <= 1.1, ratio


@pytest.mark.parametrize(("m", "support"), [(0.5, [0.0, 1.0]),
                                            (0.3, [0.0, 0.25, 0.5, 0.75, 1.0]),
                                            (0.8, [0.0, 0.25, 0.5, 0.75, 1.0])])
def test_the_betting_test_errs_at_most_its_share_however_long_it_runs(m, support) -> None:
    """Ville's inequality, checked: at the edge of H0 (mean exactly m0), the wealth
    reaches 1/a at most a of the time over 1,000 observations (here a = 0.05: the share
    itself is too rare to count; three standard errors of slack)."""
    rng = np.random.default_rng(5)
    a = np.array(support)
    # The distribution on `support` with mean m nearest to uniform, from sprt's solver.
    pdf = sprt.mle_expected(a, np.full(a.size, 1 / a.size), m)
    runs, length, batch = 1000, 1000, 100
    columns = np.round(a * 4).astype(int)
    limit = math.log(1 / 0.05)
    crossed = np.zeros((2, runs), dtype=bool)
    for start in range(0, runs, batch):
        draws = columns[rng.choice(a.size, size=(batch, length), p=pdf)]
        counts = np.cumsum(np.eye(5)[draws], axis=1)
        for row, side in enumerate((+1, -1)):
            crossed[row, start:start + batch] = (
                betting.log_wealth(counts, m, side) >= limit).any(axis=1)
    slack = 3 * math.sqrt(0.05 * 0.95 / runs)
    assert crossed[0].mean() <= 0.05 + slack and crossed[1].mean() <= 0.05 + slack, \
        crossed.mean(axis=1)


def feed(test: SequentialTest, outcome: int, limit: int,
         same_moves: bool = False) -> SequentialTest:
    while not test.verdict and test.pairs < limit:
        test.add(outcome, same_moves)
    return test


@pytest.mark.parametrize("classes", [5, 3])
@pytest.mark.parametrize("model,elo0,elo1", [("normalized", 0, 10), ("logistic", 0, 10),
                                             ("normalized", -10, 0)])
def test_a_rout_ends_within_twelve_pairs_either_way(classes, model, elo0, elo1) -> None:
    won = feed(SequentialTest(elo0, elo1, ALPHA, BETA, model, classes), classes - 1, 100)
    assert (won.verdict, won.decided_by) == ("H1", "betting") and won.pairs <= 12
    lost = feed(SequentialTest(elo0, elo1, ALPHA, BETA, model, classes), 0, 100)
    assert lost.verdict == "H0" and lost.pairs <= 12
    # The GSPRT alone, on the same rout, needs six times as many pairs or more.
    counts = np.zeros(classes)
    counts[-1] = 12
    assert not sprt.verdict(float(sprt.llr(counts, elo0, elo1, model)), ALPHA, BETA)


@pytest.mark.parametrize(("classes", "model", "most"), [
    (5, "normalized", 2_000), (3, "normalized", 4_000), (5, "logistic", 200),
    (3, "logistic", 200)])
def test_pairs_that_always_tie_still_end_not_better(classes, model, most) -> None:
    """Games that differ but score alike every pair: H0, from the GSPRT at its usual
    lower bound (in normalized Elo a near-tie is all but as likely under elo1, where a
    score barely spread is a large t-value: about 1,900 pairs; fewer in logistic Elo).
    Every prefix is evaluated at once; then the Test takes the last pair."""
    n = np.arange(1, most + 1)
    counts = np.zeros((most, classes))
    counts[:, classes // 2] = n
    lower, _ = sprt.bounds(*betting.split(ALPHA, BETA)[:2])
    ended = np.flatnonzero(sprt.llr(counts, 0, 10, model) <= lower)
    assert ended.size, "still undecided"
    last = int(n[ended[0]])
    m0, m1 = betting.mean_bounds(0, 10, model, classes)
    assert (betting.log_wealth(counts[:last], m0, +1) < math.log(1 / 0.005)).all()
    test = SequentialTest(0, 10, ALPHA, BETA, model, classes)
    test.counts[classes // 2] = last - 1
    assert test.pairs == last - 1
    test.add(classes // 2)
    assert (test.verdict, test.decided_by, test.alike) == ("H0", "gsprt", 0)
    print(f"{model} {classes} classes: all tied, H0 after {last} pairs")


def test_identical_moves_are_a_verdict_of_their_own() -> None:
    same = feed(SequentialTest(0, 10, ALPHA, BETA, "normalized", 5), 2, 1000,
                same_moves=True)
    assert (same.verdict, same.decided_by, same.pairs) == ("identical", "moves",
                                                           IDENTICAL_PAIRS)
    assert 2 * IDENTICAL_PAIRS <= 40
    # One pair played differently, and the moves never decide.
    test = SequentialTest(0, 10, ALPHA, BETA, "normalized", 5)
    test.add(2, False)
    feed(test, 2, 40, same_moves=True)
    assert test.verdict == "" and test.alike == 0 and test.pairs == 40


def test_the_mean_bounds_hold_the_hypotheses() -> None:
    # normalized: every distribution with t-value <= t0 has mean <= m0 (and >= m1 in H1).
    rng = np.random.default_rng(3)
    a = sprt.scores(5)
    per_t = sprt.NELO_PER_T / math.sqrt(2)
    for elo0, elo1 in ((0, 10), (20, 60), (-30, -5)):
        m0, m1 = betting.mean_bounds(elo0, elo1, "normalized", 5)
        p = rng.dirichlet(np.full(5, 0.3), size=20_000)
        mu = p @ a
        sd = np.sqrt(np.maximum((p * (a - mu[:, None]) ** 2).sum(axis=1), 1e-300))
        t = (mu - 0.5) / sd
        assert (mu[t <= elo0 / per_t] <= m0 + 1e-12).all()
        assert (mu[t >= elo1 / per_t] >= m1 - 1e-12).all()
    assert betting.mean_bounds(0, 10, "logistic", 5) == pytest.approx(
        (0.5, float(sprt.logistic(10))))


def test_elo_near_the_scales_end_is_a_bound() -> None:
    assert elo_shown([0, 0, 0, 0, 11], sprt.estimate([0, 0, 0, 0, 11])).startswith(
        "more than +")
    assert elo_shown([11, 0, 0], sprt.estimate([11, 0, 0])).startswith("less than -")
    plain = elo_shown([5, 10, 40, 30, 15], sprt.estimate([5, 10, 40, 30, 15]))
    assert plain.startswith("+70.4 Elo (95 % interval") and "nElo" in plain
    # Pairs that all scored the same: the pairs' variance is 0, so the confidence
    # sequence gives the interval (not the +-0 of a zero variance).
    tied = elo_shown([0, 0, 15, 0, 0], sprt.estimate([0, 0, 15, 0, 0]))
    assert tied.startswith("+0.0 Elo (95 % interval -") and "nElo" not in tied
    low, high = betting.mean_interval([0, 0, 0, 0, 11])
    assert 0.5 < low < 0.8 and high > 0.99               # 11 pairs won: NEW scores > ½
