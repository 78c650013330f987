"""`arena check --strict` of a bot that stalls instead of looping: it sleeps, naps in every
call, waits on its own thread, or reads its own timers. Each uses next to no CPU, so only
its own time (a request's wall time less its run-queue wait, as the host measures it)
can catch it: each is decided within `DECIDED_S`, where today's main took a minute or
more (`arena check` of the arena napper ran for 804 s and passed it). What a loaded
machine adds is not the check's: the bound holds the check's wall time less the time its
process waited on a run queue (on an idle machine, 4 to 7 s of wall time).

The gate (orchestrator/runner/pace.py): a turn past the check's own time a turn is a hang
(a stall inside one turn); a pace of own time that projects a full match past the game's
own-time bank `stalls`; one past a quarter of it is slow (a warning, which `--strict`
fails). Every reason says what was seen and what a full match would cost at that pace.
"""
from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from orchestrator import api
from orchestrator.games import GAMES
from orchestrator.runner.check import failure_kind
from orchestrator.runner.pace import (
    EVIDENCE_S,
    SLOW_SHARE,
    Pace,
    PaceWatch,
    check_limits,
    duration,
    verdict_of,
)
from orchestrator.runner.samples import sample_files
from sandbox.limits import Limits
from tests.support.cli import arena
from tests.support.paths import ARENA_CMD, HOSTILE, ROOT

STALLERS = Path(__file__).resolve().parent / "stallers"
# `arena check` as ARENA_CMD runs it, and at its exit the time its process waited on a run
# queue over its life (/proc/self/schedstat's run_delay), on its last line of stderr.
WAITED = "run-queue wait: "
TIMED_CHECK = [ARENA_CMD[0], "-c", f"""import atexit, runpy, sys
def said():
    with open('/proc/self/schedstat') as f:
        sys.stderr.write('\\n{WAITED}%.3f\\n' % (int(f.read().split()[1]) / 1e9))
atexit.register(said)
sys.argv[0] = 'arena'
runpy.run_module('orchestrator', run_name='__main__')""", "check"]
DECIDED_S = 10.0          # the bound: a staller is decided within 10 s of wall time
CPU_S = 1.0               # what a staller may burn: its time is not CPU
# (game, bot, failure, what its reason says: a pattern, since a nap's measured pace
# varies by a few ms with the machine's timer slack)
CASES = [
    ("arena", STALLERS / "sleep_hour.py", "hang", "more than 5 s of own time in one turn"),
    ("arena", STALLERS / "nap_move.py", "hang", "more than 5 s of own time in one turn"),
    ("arena", STALLERS / "sleep_seven.py", "hang", "more than 5 s of own time in one turn"),
    ("arena", HOSTILE / "guard_clock.py", "hang", "more than 5 s of own time in one turn"),
    ("arena", HOSTILE / "thread_joiner.py", "hang", "more than 5 s of own time in one turn"),
    ("robotgame", STALLERS / "nap_act.py", "stalls", r"0\.[23]\d s of own time an act"),
    ("cave", STALLERS / "nap_turn.py", "warnings", r"slow: 0\.[45]\d s of own time a turn"),
    ("race", STALLERS / "nap_round.py", "warnings", r"slow: 0\.[45]\d s of own time a round"),
]


def check(game: str, bot: Path, *options: str) -> tuple[dict, float, float]:
    """`arena check`'s verdict, its wall time, and the time its process waited to run."""
    started = time.monotonic()
    done = subprocess.run([*TIMED_CHECK, "--game", game, str(bot), "--json", *options],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    took = time.monotonic() - started
    assert done.returncode in (0, 1), done.stderr
    waited = float(done.stderr.rpartition(WAITED)[2])
    return json.loads(done.stdout), took, waited


@pytest.mark.parametrize("game, bot, failure, says", CASES,
                         ids=lambda case: getattr(case, "stem", None))
def test_strict_check_fails_a_staller_within_seconds(game: str, bot: Path, failure: str,
                                                     says: str, no_stray_processes) -> None:
    verdict, took, waited = check(game, bot, "--strict")
    print(f"{bot.name}: {took:.1f} s ({waited:.1f} s of it waiting to run), "
          f"{verdict['reason']}")
    assert not verdict["ok"] and verdict["failure"] == failure, verdict["reason"]
    assert re.search(says, verdict["reason"]) and "for a " in verdict["reason"], \
        verdict["reason"]
    assert took - waited < DECIDED_S, f"{bot.name}: decided after {took:.1f} s, " \
        f"{waited:.1f} s of it waiting to run"
    assert verdict["cpu_s"] < CPU_S, verdict["cpu_s"]
    assert verdict["pace"]["verdict"] in ("stalls", "slow"), verdict["pace"]


def test_a_merely_slow_bot_passes_with_a_warning_without_strict(no_stray_processes) -> None:
    """Slow is not slower than the game allows: without --strict the Race napper passes,
    and its warning says its pace and what a full match would cost."""
    verdict, _, _ = check("race", STALLERS / "nap_round.py", "--once", "--turns", "4")
    assert verdict["ok"], verdict["reason"]
    assert verdict["pace"]["verdict"] == "slow" and verdict["pace"]["per_call_s"] >= 0.45
    assert verdict["warned"] == [verdict["pace"]["said"]]
    assert re.match(r"slow: 0\.[45]\d s of own time a round, ~\d\d s for a 100-round match",
                    verdict["warned"][0]), verdict["warned"]


def test_an_honest_sample_has_its_pace_on_the_ok_line(no_stray_processes) -> None:
    done = arena("check", "hunter", "--once", "--turns", "5", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "s own time (" in done.stdout and "of own time a move, ~" in done.stdout
    assert "for a 1,000-turn match)" in done.stdout


# The projection, without a match: one sample of own time and calls per turn.
def feed(watch: PaceWatch, turns: list[tuple[float, int]]) -> list[bool]:
    own, calls, said = 0.0, 0, []
    for turn, (spent, asked) in enumerate(turns, 1):
        own, calls = own + spent, calls + asked
        said.append(watch(turn, {0: {"decisions": calls}}, {0: own}))
    return said


def test_a_napper_stops_the_check_on_the_second_turn_after_the_first() -> None:
    watch = PaceWatch(1000, 150.0, "move")
    assert feed(watch, [(20.0, 40), (20.0, 40), (20.0, 40), (20.0, 40)]) == \
        [False, False, True, True]
    assert watch.turn == 3 and watch.stopped is not None
    assert watch.stopped.said() == ("stalls: 0.50 s of own time a move, ~5.6 h for a "
                                    "1,000-turn match, past its 150 s own-time bank (a match "
                                    "would erase it)")


def test_one_slow_turn_among_fast_ones_never_stops_a_check() -> None:
    """A lazy import or a first table on turn 2 is not a pace: the turn judged is the
    faster of the last one and the median, and the first turn (setup) counts once."""
    watch = PaceWatch(1000, 150.0, "move")
    assert not any(feed(watch, [(4.0, 40), (EVIDENCE_S * 3, 40)] + [(0.004, 40)] * 30))
    pace = watch.pace()
    assert pace is not None and pace.verdict == "ok"


def test_strict_stops_on_slow_and_plain_plays_on() -> None:
    turns = [(0.5, 1)] * 6                         # a Cave napper: 25 s of a 40 s bank
    assert not any(feed(PaceWatch(50, 40.0, "turn"), turns))
    strict = PaceWatch(50, 40.0, "turn", strict=True)
    assert feed(strict, turns)[:3] == [False, False, True]
    assert strict.stopped is not None and strict.stopped.verdict == "slow"


def test_no_own_time_measured_is_no_pace() -> None:
    """A mode that cannot measure own time gives the watch nothing to judge."""
    watch = PaceWatch(100, 30.0, "act")
    assert not watch(1, {0: {"decisions": 5}}, {}) and watch.pace() is None


def test_the_verdicts_and_the_words() -> None:
    assert verdict_of(151, 150) == "stalls"
    assert verdict_of(150 * SLOW_SHARE + 1, 150) == "slow"
    assert verdict_of(150 * SLOW_SHARE, 150) == "ok"
    assert [duration(s) for s in (0.2, 40, 600, 20_000, 400_000)] == \
        ["<1 s", "40 s", "10 min", "5.6 h", "5 days"]
    cut = Pace(own_s=5.0, turns=1, per_call_s=None, per_turn_s=5.0, call="move",
               match_turns=1000, match_s=5000.0, bank_s=150.0, verdict="stalls",
               at_least=True)
    assert cut.said() == ("stalls: more than 5 s of own time in one turn (a check allows "
                          "5 s), more than ~1.4 h for a 1,000-turn match at that pace")


def test_a_check_caps_a_turn_at_its_own_time_a_turn_whatever_the_game() -> None:
    """Robot Game allows 10 s a turn in a match; a check decides in 5."""
    assert check_limits(Limits(own_per_turn_s=10.0)).own_per_turn_s == 5.0
    assert check_limits(Limits(own_per_turn_s=2.0)).own_per_turn_s == 2.0
    assert check_limits(Limits()).request_own_s(40) == 5.0


SAMPLES = [(game, path) for game in GAMES for path in sample_files(game)]


@pytest.mark.parametrize("game, bot", SAMPLES, ids=lambda case: getattr(case, "name", case))
def test_every_bundled_sample_passes_the_strict_gate(game: str, bot: Path,
                                                     no_stray_processes) -> None:
    """The honest samples are far from slow: the gate never warns them (`--strict` would
    fail them), over a check's whole game. (By name, as `arena check digger` finds and
    compiles a sample.)"""
    found = api.check(bot.name, game=game, strict=True, once=True, progress=False)
    print(f"{game} {bot.name}: {(found['pace'] or {}).get('said')}")
    assert found["ok"] and found["warned"] == [], found["reason"]
    assert found["pace"]["verdict"] == "ok" and found["pace"]["turns"] >= 1, found["pace"]


def test_a_match_erase_by_the_own_time_bank_is_a_stall() -> None:
    """The match's own-time bank (`time bank: ...`, the host's words) fails a check as
    `stalls`, not as the crash an unknown reason would be."""
    assert failure_kind("erased", "time bank: 151.0 s of own time, past its 150 s") == "stalls"
    assert failure_kind("erased", "wall time limit (hang)") == "hang"
