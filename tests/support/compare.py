"""The pair the compare tests play: survivor against its noisy copy, in the Robot Game."""
from __future__ import annotations

from tests.support.paths import ROOT

SURVIVOR = str(ROOT / "bots" / "robotgame" / "survivor.py")
# survivor, 30 % random legal actions
NOISY = str(ROOT / "tests" / "compare" / "bots" / "noisy_survivor.py")
RG = ["--game", "robotgame", "--workers", "2"]


# The noisy copy against its original: a wide gap (about 380 Elo, a 0.9 win rate), which
# elo1 300 logistic Elo suits. Decided once (tests/compare/test_compare.py's `decided`), and
# held up against by the tests
# of determinism, Dask and Ctrl-C, which therefore run on one worker.
# Seeded, so that a fresh store plays the same pairs (without --seed each draws its own).
NOISY_TEST = [SURVIVOR, NOISY, *RG, "--model", "logistic", "--elo1", "300", "--sandbox", "off",
              "--seed", "1"]
