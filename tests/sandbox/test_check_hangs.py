"""`arena check` of a bot that hangs, in every game: it stops within a few turns.

Each game's test folder (`tests.support.games.game_tests`: tests/<game>/, or a game's own)
holds a Python bot that never answers (`hang.py`), and for games of programs more languages
(`hang.sh`). A spinning bot fails with `hang` or
`timeout`, or `cpu` where a game's CPU limit per call is below its wall limit. No wall times
are asserted: the turn the check stopped on shows that it did not wait out the other turns'
time limits.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from orchestrator.games import GAMES
from orchestrator.options import CheckSettings
from orchestrator.runner.check import HUNG_TURNS, HangWatch
from tests.support.cli import arena
from tests.support.games import game_tests

OUT_OF_TIME = ("hang", "timeout", "cpu")
CASES = [(game, bot) for game in GAMES for bot in sorted(game_tests(game).glob("hang.*"))]


def test_every_game_has_a_hanging_python_bot() -> None:
    assert {game for game, bot in CASES if bot.suffix == ".py"} == set(GAMES)


@pytest.mark.parametrize("game, bot", CASES, ids=lambda case: getattr(case, "name", case))
def test_check_of_a_hanging_bot_stops_within_a_few_turns(game: str, bot: Path,
                                                          no_stray_processes) -> None:
    started = time.monotonic()
    done = arena("check", "--game", game, str(bot), "--json")
    print(f"{bot.name}: {time.monotonic() - started:.1f} s")
    assert done.returncode == 1, done.stderr
    verdict = json.loads(done.stdout)
    # Out of time, never a crash: a spinning arena bot meets its CPU limit before the wall.
    assert not verdict["ok"] and verdict["failure"] in OUT_OF_TIME, verdict["reason"]
    assert verdict["turns"] is not None and verdict["turns"] <= HUNG_TURNS, verdict["reason"]
    assert verdict["reason"].startswith(verdict["failure"]), verdict["reason"]


def turns(watch: HangWatch, rows: list[tuple[int, int]], key: str = "timeouts") -> list[bool]:
    """Feed the watch one turn per (calls asked, calls out of time) row; what it said."""
    asked = late = 0
    said = []
    for turn, (calls, out) in enumerate(rows, 1):
        asked, late = asked + calls, late + out
        stats = ({"decisions": asked, "timeouts": late} if key == "timeouts" else
                 {"decisions": asked, "faults": {key: late}})
        said.append(watch(turn, {0: stats}))
    return said


def test_the_watch_stops_on_the_third_turn_in_a_row_only() -> None:
    stops = turns(HangWatch(), [(2, 2), (2, 2), (1, 0), (2, 2), (2, 2), (0, 0), (3, 3)])
    assert stops == [False, False, False, False, False, False, True]


def test_a_turn_with_one_call_in_time_breaks_the_streak() -> None:
    assert not any(turns(HangWatch(), [(3, 2)] * 10))


def test_the_watch_names_the_failure_and_the_turn() -> None:
    watch = HangWatch()
    assert turns(watch, [(1, 1)] * HUNG_TURNS, key="hang")[-1]
    assert watch.failure == "hang" and watch.turn == HUNG_TURNS
    assert watch.reason == (f"hang: no answer in time on {HUNG_TURNS} turns in a row "
                            f"(turn {HUNG_TURNS}); stopped early")


def test_the_watch_ignores_other_seats_and_an_erased_one() -> None:
    """Other seats' timeouts never make the checked seat's verdict. Once the checked seat is
    out of the match (erased, forfeit, never loaded) the watch stops the match at once (the
    rest judges nothing) and leaves the verdict to the seat's own record: no hang of its own."""
    watch = HangWatch()
    assert not any(watch(t, {0: {"decisions": t, "timeouts": 0},
                             1: {"decisions": t, "timeouts": t}}) for t in range(1, 9))
    assert watch.failure is None and watch.reason is None
    erased = HangWatch()
    assert erased(1, {1: {"decisions": 1, "timeouts": 1}})
    assert erased.failure is None and erased.reason is None and erased.turn is None


def test_a_check_stops_once_the_checked_bot_is_out_of_the_match(tmp_path) -> None:
    """An arena bot erased on its first turn: the check's match ends there (`stopped`), not
    after the other seats' replay of every turn; the verdict is the erased seat's own."""
    from orchestrator.runner import check
    from orchestrator.runner.match import run_match
    ended = []

    def recording(spec, **kwargs):
        result = run_match(spec, **kwargs)
        ended.append((result["end"], result["turns"]))
        return result

    bot = tmp_path / "crash.py"
    bot.write_text("from roborally.api import *\nname = 'Crash'\n\n\ndef move():\n"
                   "    raise SystemExit(3)\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(check, "run_match", recording)
        verdict = check.check_bot(bot, "arena", CheckSettings(turns=40, once=True))
    assert not verdict["ok"] and verdict["turns"] == 1, verdict
    assert ended == [("stopped", 1)], ended
