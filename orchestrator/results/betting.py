"""The anytime-valid test that runs beside the GSPRT in `arena compare`: pure statistics.

The GSPRT (orchestrator/results/sprt.py) compares two close point hypotheses, elo0 and elo1, and
needs about as many pairs for a rout as for a 10-Elo step. This test asks only where
the pairs' mean score lies, over the whole range of differences, and is valid at every
pair however long the run (a test supermartingale and Ville's inequality: Waudby-Smith
and Ramdas, "Estimating means of bounded random variables by betting", JRSS B 2023;
Shafer and Vovk, "Game-theoretic foundations for probability and finance", 2019).

Each observation is a score X in [0, 1] (a pair's points / 2, or a pair won, as well,
worse: 1, ½, 0). Against H0 (mean at most m0) a gambler starts with 1 and stakes a
fraction of its wealth on X beating m0: wealth times 1 + lam (X - m0) per observation,
0 <= lam < 1/m0. Under H0 the expected factor is at most 1, so the chance the wealth ever
reaches 1/a is at most a, whenever one looks. The wealth here is the average over a
grid of constant stakes (a mixture, which is a supermartingale too), a function of the
outcome counts alone, so a batch of simulated runs is one array operation. Against H1
(mean at least m1) the gambler bets on X falling short of m1.

The split: the GSPRT gets (1 - SHARE) of alpha and of beta, this test SHARE of each;
a wrong verdict needs one of them to err, so the overall rates stay at most alpha and
beta (the union bound). With SHARE 0.1 the GSPRT's bounds widen by about 4 %, and a
rout (every pair won) ends in 11 pairs instead of 74.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.lazy import lazy_import
from orchestrator.results import sprt

if TYPE_CHECKING:
    import numpy as np

    from orchestrator.options import CompareBounds
else:
    np = lazy_import("numpy")        # loaded on first use: `arena` starts without it

SHARE = 0.1                # the part of alpha and of beta this test spends
GRID = 64                  # constant stakes in the mixture: lam = (j + ½) / GRID of its cap


def split(alpha: float, beta: float) -> tuple[float, float, float, float]:
    """(GSPRT alpha, GSPRT beta, betting alpha, betting beta): sums of alpha and beta."""
    return (1 - SHARE) * alpha, (1 - SHARE) * beta, SHARE * alpha, SHARE * beta


def mean_bounds(elo0: float, elo1: float, model: str, classes: int) -> tuple[float, float]:
    """(m0, m1): the largest mean score (per game, in [0, 1]) any distribution of H0 has,
    and the smallest any distribution of H1 has.

    logistic: the scores of elo0 and elo1. normalized: H0 is "t-value (mean - ½) / sd at
    most t0"; a score in [0, 1] has sd at most sqrt(m (1 - m)), so the mean is at most
    ½ + ½ t0 / sqrt(1 + t0²) (½ when t0 <= 0: a tiny sd keeps the mean near ½); H1 the
    same from below. Testing these means is therefore valid for the t-value hypotheses.
    """
    if model == "logistic":
        return float(sprt.logistic(elo0)), float(sprt.logistic(elo1))
    per_t = sprt.NELO_PER_T / (math.sqrt(2) if classes == 5 else 1)
    t0, t1 = elo0 / per_t, elo1 / per_t
    m0 = 0.5 + 0.5 * max(t0, 0.0) / math.sqrt(1 + t0 * t0)
    m1 = 0.5 - 0.5 * max(-t1, 0.0) / math.sqrt(1 + t1 * t1)
    return m0, m1


def log_wealth(counts, m: float, side: int):
    """The log of the mixture's wealth after `counts` (shape (..., k), k = 3 or 5).

    side +1 bets that the mean exceeds m (against H0: mean <= m); side -1 that it falls
    short of m (against H1: mean >= m).
    """
    counts = np.asarray(counts, dtype=float)
    a = sprt.scores(counts.shape[-1])
    cap = 1 / m if side > 0 else 1 / (1 - m)
    lam = (np.arange(GRID) + 0.5) / GRID * cap
    per = np.log1p(lam[:, None] * side * (a - m)[None, :])     # (GRID, k)
    logs = counts @ per.T                                       # (..., GRID)
    top = logs.max(axis=-1, keepdims=True)
    return (top[..., 0] + np.log(np.exp(logs - top).mean(axis=-1)))


def verdict(counts, elo0: float, elo1: float, alpha: float, beta: float,
            model: str) -> tuple[str, float, float]:
    """('H1', 'H0' or '', the log-wealth against H0, the log-wealth against H1) of one
    test's counts, at its share (`SHARE`) of alpha and beta."""
    m0, m1 = mean_bounds(elo0, elo1, model, len(counts))
    up, down = log_wealth(counts, m0, +1), log_wealth(counts, m1, -1)
    _, _, a, b = split(alpha, beta)
    said = "H1" if up >= math.log(1 / a) else "H0" if down >= math.log(1 / b) else ""
    return said, float(up), float(down)


@dataclass
class Simulated:
    """Simulated runs of `arena compare` and, on the same outcomes, of the GSPRT alone."""

    h1: np.ndarray               # accepted H1, per run (both tests)
    length: np.ndarray           # observations to the verdict
    by_betting: np.ndarray       # decided by the betting test
    gsprt_h1: np.ndarray         # the GSPRT alone, at the whole alpha and beta
    gsprt_length: np.ndarray


def simulate(pdf, test: CompareBounds, runs: int, rng: np.random.Generator,
             max_length: int = 100_000, chunk: int = 50) -> Simulated:
    """`runs` tests of `arena compare` (`test`: its Elo bounds, error rates and model) on
    outcomes drawn from `pdf`, each evaluated after
    every observation: the GSPRT at its share of alpha and beta and this test beside
    it, the first to decide deciding; and on the very same outcomes the GSPRT alone, as
    it was before, so that the two are compared without sampling noise between them. A
    run still open at `max_length` counts as H0 at that length."""
    elo0, elo1, alpha, beta, model = test.elo0, test.elo1, test.alpha, test.beta, test.model
    pdf = np.asarray(pdf, dtype=float)
    k = pdf.size
    ga, gb, ba, bb = split(alpha, beta)
    lower, upper = sprt.bounds(ga, gb)
    alone_lower, alone_upper = sprt.bounds(alpha, beta)
    m0, m1 = mean_bounds(elo0, elo1, model, k)
    counts = np.zeros((runs, k))
    h1, alone_h1 = np.zeros(runs, dtype=bool), np.zeros(runs, dtype=bool)
    by_betting = np.zeros(runs, dtype=bool)
    length, alone_length = np.full(runs, max_length), np.full(runs, max_length)
    open_, alone_open = np.ones(runs, dtype=bool), np.ones(runs, dtype=bool)
    done = 0
    eye = np.eye(k)
    while (open_ | alone_open).any() and done < max_length:
        active = np.flatnonzero(open_ | alone_open)
        steps = min(chunk, max_length - done)
        draws = rng.choice(k, size=(active.size, steps), p=pdf / pdf.sum())
        path = counts[active][:, None, :] + np.cumsum(eye[draws], axis=1)
        values = sprt.llr(path, elo0, elo1, model)
        g_h1, g_h0 = values >= upper, values <= lower
        b_h1 = log_wealth(path, m0, +1) >= math.log(1 / ba)
        b_h0 = log_wealth(path, m1, -1) >= math.log(1 / bb)
        hit = g_h1 | g_h0 | b_h1 | b_h0
        ended = open_[active] & hit.any(axis=1)
        rows = np.flatnonzero(ended)
        at = hit[rows].argmax(axis=1)
        gsprt = g_h1[rows, at] | g_h0[rows, at]           # at a tie, the GSPRT's word
        h1[active[rows]] = np.where(gsprt, g_h1[rows, at], b_h1[rows, at])
        by_betting[active[rows]] = ~gsprt
        length[active[rows]] = done + at + 1
        open_[active[rows]] = False
        alone = (values >= alone_upper) | (values <= alone_lower)
        ended = alone_open[active] & alone.any(axis=1)
        rows = np.flatnonzero(ended)
        at = alone[rows].argmax(axis=1)
        alone_h1[active[rows]] = values[rows, at] >= alone_upper
        alone_length[active[rows]] = done + at + 1
        alone_open[active[rows]] = False
        counts[active] = path[:, -1]
        done += steps
    return Simulated(h1, length, by_betting, alone_h1, alone_length)


def mean_interval(counts, level: float = 0.95) -> tuple[float, float]:
    """The confidence sequence of the mean score at `level` (Waudby-Smith and Ramdas's
    inverted test): every m in (0, 1) that neither side's wealth rules out at (1 - level)
    / 2. Valid after any number of pairs, even a number chosen by looking."""
    counts = np.asarray(counts, dtype=float)
    a = sprt.scores(counts.shape[-1])
    m = np.linspace(0.001, 0.999, 999)[:, None, None]
    u = ((np.arange(GRID) + 0.5) / GRID)[None, :, None]
    limit = math.log(2 / (1 - level))
    kept = np.ones(m.shape[0], dtype=bool)
    for side, cap in ((+1, 1 / m), (-1, 1 / (1 - m))):
        logs = np.log1p(u * cap * side * (a - m)) @ counts          # (M, GRID)
        top = logs.max(axis=-1, keepdims=True)
        wealth = top[:, 0] + np.log(np.exp(logs - top).mean(axis=-1))
        kept &= wealth < limit
    found = m[kept, 0, 0]
    return (float(found[0]), float(found[-1])) if found.size else (0.5, 0.5)
