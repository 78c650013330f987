"""The sequential probability ratio test of `arena compare`: pure statistics, no I/O.

This is fishtest's GSPRT (M. Van den Bergh, "A statistical test for comparing engines"
and "Normalized Elo", hardy.uhasselt.be/Fishtest; fishtest's `stats/LLRcalc.py`). The
outcomes are counted as a trinomial (one game: loss, draw, win) or a pentanomial (a pair
of games: 0, ½, 1, 1½ or 2 points). Each hypothesis is a constraint on the outcome
distribution (its expected score, or its t-value), and the log-likelihood ratio compares
the maximum-likelihood distributions under the two constraints, found by solving
Lagrange's "secular equation" (a 1-D root, here by safeguarded Newton and bisection).

Every function takes counts of shape (..., 3) or (..., 5), so one call evaluates one
test or thousands of simulated ones (numpy broadcasting).
"""
from __future__ import annotations

import math
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

from engine.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike

    from orchestrator.options import CompareBounds
else:
    np = lazy_import("numpy")        # loaded on first use: `arena` starts without it


NELO_PER_T = 800 / math.log(10)      # normalized Elo per unit of t-value, per game
EPSILON = 1e-3                       # an empty outcome class counts as this, as in fishtest
MODELS = ("normalized", "logistic")


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds of the LLR: accept H0 below the first, H1 above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def logistic(elo: ArrayLike) -> np.ndarray:
    """Expected score of a logistic Elo difference."""
    return 1 / (1 + 10 ** (-np.asarray(elo, dtype=float) / 400))


def elo_of(score: ArrayLike) -> np.ndarray:
    """The logistic Elo difference of an expected score in (0, 1)."""
    within = np.clip(np.asarray(score, dtype=float), 1e-3, 1 - 1e-3)     # within ±1200
    return -400 * np.log10(1 / within - 1)


def scores(k: int) -> np.ndarray:
    """The per-game score of each outcome class: 0, ½, 1 (trinomial) or 0, ¼ ... 1 (pairs)."""
    if k not in (3, 5):
        raise ValueError(f"counts must be a trinomial or a pentanomial, not {k} classes")
    return np.linspace(0.0, 1.0, k)


def _pdf(counts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, scores, empirical probabilities) of counts, empty classes regularized."""
    counts = np.asarray(counts, dtype=float)
    regular = np.where(counts == 0, EPSILON, counts)
    n = counts.sum(axis=-1)
    return n, scores(counts.shape[-1]), regular / regular.sum(axis=-1, keepdims=True)


def _secular(a: np.ndarray, p: np.ndarray) -> np.ndarray:
    """x with sum_i p_i a_i / (1 + x a_i) = 0, where min(a) < 0 < max(a) on the last axis.

    The left side falls strictly on (-1/max a, -1/min a) from +inf to -inf, so the root is
    unique: Newton's steps, each kept inside the shrinking bracket (bisection otherwise).
    Only the roots not yet found are iterated on, so a few hard ones (near a pole) cost
    little in a batch of thousands.
    """
    shape = a.shape[:-1]
    a = a.reshape(-1, a.shape[-1])
    p = np.broadcast_to(p, shape + (a.shape[-1],)).reshape(a.shape)
    low = -1 / a.max(axis=-1) + 1e-12
    high = -1 / a.min(axis=-1) - 1e-12
    x = np.zeros(len(a))
    todo = np.arange(len(a))
    for _ in range(200):
        ta, tp, tx = a[todo], p[todo], x[todo]
        d = 1 + tx[:, None] * ta
        f = (tp * ta / d).sum(axis=-1)
        slope = -(tp * ta * ta / (d * d)).sum(axis=-1)
        lo = np.where(f > 0, tx, low[todo])
        hi = np.where(f < 0, tx, high[todo])
        step = tx - f / slope
        new = np.where((step > lo) & (step < hi), step, (lo + hi) / 2)
        low[todo], high[todo], x[todo] = lo, hi, new
        open_ = (np.abs(new - tx) > 1e-13 * np.maximum(1.0, np.abs(tx))) & (hi - lo > 1e-15)
        todo = todo[open_]
        if not todo.size:
            break
    return x.reshape(shape)


def mle_expected(a: np.ndarray, p: np.ndarray, s) -> np.ndarray:
    """The distribution on scores `a` nearest (max likelihood) to `p` with mean `s`."""
    shifted = a - np.asarray(s, dtype=float)[..., None]
    x = _secular(shifted, p)
    return p / (1 + x[..., None] * shifted)


def _stats(a: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mu = (p * a).sum(axis=-1)
    return mu, (p * (a - mu[..., None]) ** 2).sum(axis=-1)


def mle_t_value(a: np.ndarray, p: np.ndarray, t, ref: float = 0.5) -> np.ndarray:
    """The distribution nearest to `p` whose t-value (mu - ref) / sigma is `t`
    (fishtest's MLE_t_value: a fixed point, each step one secular equation; only the
    distributions not yet settled are iterated on)."""
    shape = p.shape
    p = p.reshape(-1, a.size)
    t = np.broadcast_to(np.asarray(t, dtype=float), shape[:-1]).reshape(-1)
    q = np.full(p.shape, 1 / a.size)
    todo = np.arange(len(p))
    for _ in range(50):
        tq, tp = q[todo], p[todo]
        mu, var = _stats(a, tq)
        sigma = np.sqrt(var)[:, None]
        shifted = a - ref - t[todo, None] * sigma * (1 + ((mu[:, None] - a) / sigma) ** 2) / 2
        new = tp / (1 + _secular(shifted, tp)[:, None] * shifted)
        q[todo] = new
        todo = todo[np.abs(new - tq).max(axis=-1) >= 1e-10]
        if not todo.size:
            break
    return q.reshape(shape)


def _llr(n, p, p0, p1):
    return n * (p * np.log(p1 / p0)).sum(axis=-1)


def llr(counts, elo0: float, elo1: float, model: str = "normalized"):
    """The generalized log-likelihood ratio of H1 (elo1) against H0 (elo0).

    normalized: elo0/elo1 are normalized Elo (nElo): per game, (score - ½) / its standard
    deviation, times 800/ln 10; a pair's t-value is √2 times a game's. logistic: the
    usual Elo, through the expected score 1 / (1 + 10^(-elo/400)).
    """
    n, a, p = _pdf(counts)
    if model == "logistic":
        p0, p1 = (mle_expected(a, p, np.broadcast_to(logistic(e), n.shape)) for e in (elo0, elo1))
    elif model == "normalized":
        per_t = NELO_PER_T / (math.sqrt(2) if a.size == 5 else 1)
        p0, p1 = (mle_t_value(a, p, np.broadcast_to(e / per_t, n.shape)) for e in (elo0, elo1))
    else:
        raise ValueError(f"unknown model {model!r}")
    return _llr(n, p, p0, p1)


def verdict(value: float, alpha: float, beta: float) -> str:
    """'H1', 'H0' or '' (go on) for an LLR."""
    lower, upper = bounds(alpha, beta)
    return "H1" if value >= upper else "H0" if value <= lower else ""


def estimate(counts, z: float = 1.96) -> dict[str, Any]:
    """The logistic Elo difference, its interval (95 % by default) and the normalized Elo,
    from one test's counts (the pairs' variance where the counts are a pentanomial)."""
    counts = np.asarray(counts, dtype=float)
    n, a, p = _pdf(counts)
    if n == 0:
        return {"elo": 0.0, "elo_ci": [-math.inf, math.inf], "nelo": 0.0, "score": 0.5}
    mu, var = _stats(a, p)
    half = z * math.sqrt(var / n)
    per_game_sigma = math.sqrt(var * (2 if a.size == 5 else 1))
    return {"elo": float(elo_of(mu)),
            "elo_ci": [float(elo_of(mu - half)), float(elo_of(mu + half))],
            "nelo": float((mu - 0.5) / per_game_sigma * NELO_PER_T),
            "score": float(mu)}


def t_value(pdf, elo: float, model: str) -> float:
    """The t-value per observation of `pdf` shifted to a true difference `elo`."""
    a = scores(len(pdf))
    if model == "normalized":
        return elo / (NELO_PER_T / (math.sqrt(2) if a.size == 5 else 1))
    mu, var = _stats(a, np.asarray(pdf, dtype=float))
    return float((logistic(elo) - 0.5) / math.sqrt(var))


def expected_length(t: float, t0: float, t1: float, alpha: float, beta: float) -> float:
    """The SPRT's expected number of observations at true t-value `t` (Wald's approximation:
    the LLR as a Brownian motion with drift (t1-t0)(t-(t0+t1)/2) and variance (t1-t0)²)."""
    lower, upper = bounds(alpha, beta)
    drift = (t1 - t0) * (t - (t0 + t1) / 2)
    var = (t1 - t0) ** 2
    if abs(drift) < 1e-15:
        return -lower * upper / var
    theta = 2 * drift / var
    p_upper = (1 - math.exp(-theta * lower)) / (math.exp(-theta * upper) - math.exp(-theta * lower))
    return (p_upper * upper + (1 - p_upper) * lower) / drift


def fixed_length(t0: float, t1: float, alpha: float, beta: float) -> float:
    """Observations a fixed-size one-sided test needs for the same alpha and beta."""
    z = NormalDist().inv_cdf
    return ((z(1 - alpha) + z(1 - beta)) / (t1 - t0)) ** 2


def shifted(pdf, elo: float, model: str) -> np.ndarray:
    """`pdf` (an outcome distribution) moved to a true difference `elo`, changing it as
    little as possible (fishtest's simulations do the same)."""
    a = scores(len(pdf))
    p = np.asarray(pdf, dtype=float)
    if model == "logistic":
        return mle_expected(a, p, logistic(elo))
    return mle_t_value(a, p, t_value(pdf, elo, model))


def simulate(pdf, test: CompareBounds, runs: int, rng: np.random.Generator,
             max_length: int = 100_000, chunk: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """Play `runs` SPRTs of `test` (its Elo bounds, error rates and model) on outcomes
    drawn from `pdf`, evaluating after every observation as `arena compare` does.
    Returns (accepted H1, length) per run; a run still open at `max_length` counts as H0
    at that length."""
    elo0, elo1, alpha, beta, model = test.elo0, test.elo1, test.alpha, test.beta, test.model
    pdf = np.asarray(pdf, dtype=float)
    k = pdf.size
    lower, upper = bounds(alpha, beta)
    counts = np.zeros((runs, k))
    h1 = np.zeros(runs, dtype=bool)
    length = np.full(runs, max_length)
    active = np.arange(runs)
    done = 0
    eye = np.eye(k)
    while active.size and done < max_length:
        steps = min(chunk, max_length - done)
        draws = rng.choice(k, size=(active.size, steps), p=pdf / pdf.sum())
        path = counts[active][:, None, :] + np.cumsum(eye[draws], axis=1)
        values = llr(path, elo0, elo1, model)
        hit = (values >= upper) | (values <= lower)
        stopped = hit.any(axis=1)
        first = hit.argmax(axis=1)
        ended = active[stopped]
        h1[ended] = values[stopped, first[stopped]] >= upper
        length[ended] = done + first[stopped] + 1
        counts[active] = path[:, -1]
        active = active[~stopped]
        done += steps
    return h1, length


def pair_record(counts: list[int]) -> dict[str, Any]:
    """NEW's pairs won, drawn and lost, from the test's counts: pair points 0..2 in
    halves (pentanomial: more than 1 is a pair won), or worse / as well / better."""
    if len(counts) == 5:
        return {"won": counts[3] + counts[4], "drawn": counts[2], "lost": counts[0] + counts[1]}
    return {"won": counts[2], "drawn": counts[1], "lost": counts[0]}
