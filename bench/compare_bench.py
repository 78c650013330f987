"""`arena compare`: the average games to a verdict, against a fixed batch of the same power.

0. Simulated, the two tests together (orchestrator/results/betting.py: the GSPRT at 90 % of alpha
   and beta and the betting test at 10 %) against the GSPRT alone on the same outcomes,
   at the default bounds (normalized Elo 0 vs 10, alpha = beta = 0.05): the H1 rate and
   the mean games at elo0 and elo1, and at wider true differences (50, 150 nElo and a
   rout, every pair won), pairs and pairs' outcomes.

1. Simulated (orchestrator/results/sprt.py, every observation evaluated, as the command does): the
   default test (normalized Elo 0 vs 10, alpha = beta = 0.05) on pairs of games
   (pentanomial; two-player games) and on pairs' outcomes (trinomial; games of more
   players), at a true difference of elo0 and of elo1. The fixed batch of the same power
   is the one-sided test at level alpha with power 1 - beta: ((z_a + z_b) / (t1 - t0))^2
   observations. Both are given in games (a pair is two).
2. Real (Robot Game, one pair of bots): survivor against its 30 %-noisy copy
   (tests/compare/bots), `arena compare --model logistic --elo1 300` from 5 starting
   seeds, against the games a fixed batch needs for the Wilson intervals of the two win
   rates to separate with probability 0.95 (the SPRT's power), at the win rate of a
   fixed batch of 100 games (50 seeds, seats swapped).
3. Real, one pair per game (PAIRS: a stronger sample against a weaker one, in-process),
   `arena compare --model logistic --elo1 ELO1` from 3 starting seeds, against the fixed
   batch of the same power at the outcome distribution those runs observed (all their
   pairs pooled, plus half a pair in every outcome, so that a pair that always wins
   still has a variance): the one-sided test of ((z_a + z_b) / (t1 - t0))^2 pairs.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
from math import comb
from pathlib import Path

import numpy as np
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orchestrator.options import CompareBounds  # noqa: E402
from orchestrator.results import betting, sprt  # noqa: E402
from orchestrator.results.stats import wilson  # noqa: E402
from orchestrator.text import console  # noqa: E402

ALPHA = BETA = 0.05
TEST = CompareBounds(elo0=0.0, elo1=10.0, alpha=ALPHA, beta=BETA, model="normalized")
COMPARE_EXITS = (0, 1, 3, 4)      # H1, H0, undecided, identical
RUNS = 400


def simulated(table: Table) -> None:
    for label, base in (("pairs (pentanomial)", [0.05, 0.2, 0.5, 0.2, 0.05]),
                        ("pair won (trinomial)", [0.35, 0.3, 0.35])):
        games_per = 2
        t0, t1 = (sprt.t_value(base, e, "normalized") for e in (0.0, 10.0))
        fixed = sprt.fixed_length(t0, t1, ALPHA, BETA) * games_per
        for true in (0.0, 10.0):
            pdf = sprt.shifted(base, true, "normalized")
            h1, length = sprt.simulate(pdf, TEST, RUNS, np.random.default_rng(7))
            table.add_row(f"simulated {label}", f"nElo {true:g}", f"{h1.mean():.3f}",
                          f"{length.mean() * games_per:.0f}", f"{fixed:.0f}",
                          f"{length.mean() * games_per / fixed:.2f}")


TWO_TESTS_RUNS = 400


def two_tests(table: Table) -> None:
    for label, base in (("pairs (pentanomial)", [0.05, 0.2, 0.5, 0.2, 0.05]),
                        ("pair won (trinomial)", [0.35, 0.3, 0.35])):
        for true in (0.0, 10.0, 50.0, 150.0, None):
            if true is None:
                pdf = np.zeros(len(base))
                pdf[-1] = 1.0                                # a rout: every pair won
            else:
                pdf = sprt.shifted(base, true, "normalized")
            found = betting.simulate(pdf, TEST, TWO_TESTS_RUNS, np.random.default_rng(11))
            shown = "rout" if true is None else f"nElo {true:g}"
            table.add_row(f"both tests, {label}", shown,
                          f"{found.h1.mean():.3f} (alone {found.gsprt_h1.mean():.3f})",
                          f"{2 * found.length.mean():.1f} (max {2 * found.length.max()})",
                          f"{2 * found.gsprt_length.mean():.1f} GSPRT alone",
                          f"{found.length.mean() / found.gsprt_length.mean():.2f}")


def wilson_games(p_new: float, power: float = 1 - BETA) -> int:
    for n in range(2, 4000, 2):
        chance = sum(comb(n, w) * p_new ** w * (1 - p_new) ** (n - w) for w in range(n + 1)
                     if wilson(w, n)[0] > wilson(n - w, n)[1])
        if chance >= power:
            return n
    return math.inf


def real(table: Table) -> None:
    new = str(ROOT / "bots" / "robotgame" / "survivor.py")
    old = str(ROOT / "tests" / "compare" / "bots" / "noisy_survivor.py")
    games = []
    with tempfile.TemporaryDirectory() as tmp:
        for start in (1, 1001, 2001, 3001, 4001):
            done = subprocess.run(
                [sys.executable, "-m", "orchestrator", "compare", new, old, "--game",
                 "robotgame", "--model", "logistic", "--elo1", "300", "--sandbox", "off",
                 "--seed", str(start), "--db", f"{tmp}/c.sqlite", "--json"],
                cwd=ROOT, capture_output=True, text=True, check=False)
            assert done.returncode in COMPARE_EXITS, done.stderr
            report = json.loads(done.stdout)
            games.append(report["games"])
        wins = {"survivor": 0, "Noisy Survivor": 0}
        for lineup in ((new, old), (old, new)):          # the win rate, from a fixed batch
            done = subprocess.run(
                [sys.executable, "-m", "orchestrator", "batch", *lineup, "--game",
                 "robotgame", "--seeds", "50", "--sandbox", "off", "--db",
                 f"{tmp}/b.sqlite", "--json"], cwd=ROOT, capture_output=True, text=True,
                check=True)
            for player in json.loads(done.stdout)["players"]:
                wins[player["name"]] += player["wins"]
    rate = wins["survivor"] / sum(wins.values())
    fixed = wilson_games(rate)
    table.add_row("robotgame survivor vs noisy", f"win rate {rate:.2f}", "H1 x5",
                  f"{np.mean(games):.1f}", str(fixed), f"{np.mean(games) / fixed:.2f}")


# One pair per game: NEW (the stronger sample), OLD, the test's elo1 (logistic), and the
# options that keep a game short.
PAIRS = {"arena": ("hunter", "randy", 200, ["--map", "tiny", "--max-turns", "60"]),
         "robotgame": ("coordinator", "example.py", 200, []),
         "cave": ("forager", "wanderer", 200, []),
         "race": ("planner", "random_bot", 200, [])}


def per_game(table: Table) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for game, (new, old, elo1, extra) in PAIRS.items():
            games, pooled, verdicts = [], None, []
            for start in (1, 1001, 2001):
                done = subprocess.run(
                    [sys.executable, "-m", "orchestrator", "compare", new, old, "--game", game,
                     "--model", "logistic", "--elo1", str(elo1), "--sandbox", "off",
                     "--max-games", "600", "--seed", str(start), "--db",
                     f"{tmp}/{game}.sqlite", "--json", *extra],
                    cwd=ROOT, capture_output=True, text=True, check=False)
                assert done.returncode in COMPARE_EXITS, done.stderr
                report = json.loads(done.stdout)
                games.append(report["games"])
                verdicts.append(report["verdict"])
                counts = np.asarray(report["counts"], dtype=float)
                pooled = counts if pooled is None else pooled + counts
            pooled = pooled + 0.5
            pdf = pooled / pooled.sum()
            t0, t1 = (sprt.t_value(pdf, e, "logistic") for e in (0.0, float(elo1)))
            fixed = sprt.fixed_length(t0, t1, ALPHA, BETA) * 2        # pairs, in games
            table.add_row(f"{game} {new} vs {old}", f"{report['outcomes']}",
                          ",".join(verdicts), f"{np.mean(games):.1f}", f"{fixed:.0f}",
                          f"{np.mean(games) / fixed:.2f}")


def main() -> None:
    table = Table(title="arena compare: games to a verdict vs a fixed batch of the same power")
    for column in ("test", "true", "H1 rate", "mean games", "fixed games", "ratio"):
        table.add_column(column)
    two_tests(table)
    simulated(table)
    real(table)
    per_game(table)
    console().print(table)


if __name__ == "__main__":
    main()
