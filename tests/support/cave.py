"""Cave Rangers' executable bots the tests play: the samples and the hostile programs."""
from __future__ import annotations

from orchestrator.games import get_game
from tests.support.paths import ROOT

HOSTILE = ROOT / "tests" / "cave" / "hostile"
SAMPLES = ROOT / "bots" / "cave"
GAME = get_game("cave")
