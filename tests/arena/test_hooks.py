"""The runtime runs none of a bot's code outside its calls' guard: hooks it could
trigger between calls (rule 1's look at module state, letting go of an answer) either do
not run or run on the bot's own time."""
from __future__ import annotations

from pathlib import Path

from orchestrator.games import get_game
from orchestrator.options import CheckSettings
from orchestrator.service.check import check_bot

HERE = Path(__file__).parent / "bots"


def test_rule_1_runs_none_of_the_bots_hooks(no_stray_processes) -> None:
    verdict = check_bot(HERE / "watch_trap.py", checking=CheckSettings(turns=5, once=True))
    assert verdict["ok"], verdict["reason"]
    assert verdict["warnings"] == ["module state changed by move(): seen"]


def test_an_answers_finalizer_runs_under_the_calls_limit(no_stray_processes) -> None:
    """Let go outside the guard, its loop ran until the host's watchdog: one CPU limit per
    robot, 40 s. Under the guard it is the one call's limit."""
    verdict = check_bot(HERE / "del_trap.py", checking=CheckSettings(turns=5, once=True))
    assert verdict["failure"] == "cpu" and verdict["turns"] == 1, verdict["reason"]
    assert verdict["cpu_s"] < 3 * get_game("arena").limits.cpu_per_call_s, verdict
