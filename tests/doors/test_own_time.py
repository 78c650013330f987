"""Every AI's own time is bounded per call, per turn and per match, in every game
and mode (docs/security.md, "Time, per game").

Own time is a request's wall time less the time its tasks waited to run (the kernel's
run-queue wait, read by the host): sleeping, waiting on its own thread and reading its own
timers all count; a busy machine's queue does not (tests/doors/test_time_and_determinism.py
keeps a starved honest bot unpunished). A bot that naps in every call stays under every
per-call limit: before, nothing stopped it (a 100-turn Robot Game match took 125 s, the
napper `ok`); now its match's own-time bank erases it (Robot Game: forfeits). A small bank
keeps these tests short; one test plays Robot Game's own defaults.

What is asserted is own time, which a loaded machine does not change: the napper's own
time when it is erased is its bank and at most one more request's limit, and the wall
times asserted are hang guards only. (The arena's nappers, the 7 s sleeper, the timer
reader and the thread joiner are also in the hostile suite: tests/sandbox/test_hostile.py.)
"""
from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path

import pytest

from orchestrator.games import get_game
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from sandbox.limits import Limits
from tests.support.limits import worst_case_s
from tests.support.paths import BOTS, HOSTILE, MAPS, ROOT

pytestmark = pytest.mark.filterwarnings("ignore:--sandbox off:RuntimeWarning")
STALLERS = HOSTILE / "stallers"
SAMPLES = ROOT / "bots"
BANK = "time bank: "


def _match(game: str, bots: list[Path], limits: Limits, sandbox: str, turns: int,
           seed: int = 1) -> tuple[dict, float]:
    found = get_game(game)
    extra = {"robots_per_type": 2} if game == "arena" else {}
    spec = MatchSpec(game, MAPS / "tiny.txt" if game == "arena" else found.find_map(None),
                     [read_bot(b) for b in bots], seed,
                     found.rules(found.presets[0], max_turns=turns, **extra), limits, sandbox)
    began = time.monotonic()
    result = run_match(spec)
    return result, time.monotonic() - began


def _small_bank(game: str, bank_s: float) -> Limits:
    return dataclasses.replace(get_game(game).limits, own_bank_s=bank_s, memory_mb=256)


def _player(result: dict, bot: Path) -> dict:
    return next(p for p in result["players"] if Path(p["bot"]).name == bot.name)


# (game, the napper, an honest opponent, the bank, turns, how it goes: erased or forfeit)
NAPPERS = {
    "arena": (HOSTILE / "napper.py", BOTS / "hunter.py", 2.0, 30, "erased"),
    "robotgame": (STALLERS / "rg_napper.py", SAMPLES / "robotgame" / "example.py", 2.0,
                  100, "forfeit"),
    "race": (STALLERS / "race_napper.py", SAMPLES / "race" / "random_bot.py", 1.0, 30,
             "erased"),
    "cave": (STALLERS / "cave_napper.py", SAMPLES / "cave" / "miner.sh", 1.2, 30, "erased"),
}
# Cave's programs run under a keeper that may start them, which a match jail may not: a
# match of them asked for in `match` is played in the standard mode (FALLBACK_NOTE).
MODES = [(game, mode) for game in NAPPERS for mode in ("standard", "match", "off")]


@pytest.mark.parametrize("game, sandbox", MODES)
def test_a_napper_is_erased_by_its_own_time_bank(game, sandbox, no_stray_processes) -> None:
    bot, other, bank, turns, status = NAPPERS[game]
    limits = _small_bank(game, bank)
    result, took = _match(game, [bot, other], limits, sandbox, turns)
    me, them = _player(result, bot), _player(result, other)
    assert (me["status"], me["reason"][:len(BANK)]) == (status, BANK), me
    said = float(re.match(r"time bank: ([\d.]+) s of own time, past its ([\d.]+) s",
                          me["reason"]).group(1))
    # Ended at its bank, within one request's limit (and the host's 50 ms look), whatever
    # the machine's load: its own time, not its wall time, is what the bound is about.
    assert bank <= said <= bank + limits.request_own_s(1) + 0.2, me["reason"]
    assert me["own_s"] == pytest.approx(said, abs=0.06), me
    assert me["cpu_s"] < 0.5, me               # it used no CPU to speak of
    assert me["turn"] is not None and me["turn"] < turns, me
    assert them["status"] == "ok", them
    assert took < 120, took                    # a hang guard only


HONEST = {"arena": [BOTS / "hunter.py", BOTS / "beeline.py"],
          "robotgame": [SAMPLES / "robotgame" / "coordinator.py",
                        SAMPLES / "robotgame" / "example.py"],
          "cave": [SAMPLES / "cave" / "forager.py", SAMPLES / "cave" / "miner.sh"]}


@pytest.mark.parametrize("game", sorted(HONEST))
def test_honest_bots_own_time_is_reported_beside_their_cpu(game) -> None:
    """Each player's result has its own time over the match: an honest sample's is small
    (it never sleeps), and it is `ok`."""
    result, _ = _match(game, HONEST[game], get_game(game).limits, "standard", 10)
    for player in result["players"]:
        assert player["status"] == "ok", player
        assert 0 <= player["own_s"] < 5, player
        assert list(player).index("own_s") == list(player).index("cpu_s") + 1


@pytest.mark.parametrize("sandbox", ["off"])
def test_a_seven_second_sleep_in_one_robots_move_is_erased_off_too(sandbox,
                                                                   no_stray_processes) -> None:
    """`--sandbox off` runs a Python bot in this process: nothing may stop its call, but its
    own time is judged once it returns (the standard and match modes: test_hostile.py's
    long_sleep case, ended at the turn's 5 s)."""
    limits = Limits(memory_mb=256)
    result, _ = _match("arena", [HOSTILE / "long_sleep.py", BOTS / "hunter.py"], limits,
                       sandbox, 3)
    me = _player(result, HOSTILE / "long_sleep.py")
    assert (me["status"], me["reason"], me["turn"]) == \
        ("erased", "wall time limit (hang)", 1), me
    assert me["own_s"] >= 7, me


@pytest.mark.parametrize("bot", ["timer_napper.py", "thread_joiner.py"])
def test_a_sleeper_by_its_own_timers_or_its_own_thread_is_erased_off_too(
        bot, no_stray_processes) -> None:
    limits = Limits(memory_mb=256, own_bank_s=1.0)
    result, _ = _match("arena", [HOSTILE / bot, BOTS / "hunter.py"], limits, "off", 10)
    me = _player(result, HOSTILE / bot)
    assert (me["status"], me["reason"][:len(BANK)]) == ("erased", BANK), me


def test_a_persistent_cave_program_that_naps_is_erased_by_its_bank(no_stray_processes) -> None:
    bot = STALLERS / "cave_persistent_napper.py"
    limits = _small_bank("cave", 1.2)
    result, _ = _match("cave", [bot, SAMPLES / "cave" / "miner.sh"], limits, "standard", 30)
    me = _player(result, bot)
    assert (me["status"], me["reason"][:len(BANK)]) == ("erased", BANK), me
    assert me["turn"] < 30, me


def test_a_robot_game_napper_forfeits_at_the_games_own_bank(no_stray_processes) -> None:
    """Robot Game's defaults (docs/security.md's table): 30 s of own time a match. The
    napper of the issue (0.25 s an act) forfeits once it has spent them, where its match
    took 125 s before, `ok`."""
    limits = get_game("robotgame").limits
    bot = STALLERS / "rg_napper.py"
    result, took = _match("robotgame", [bot, SAMPLES / "robotgame" / "example.py"],
                          limits, "standard", 100)
    me = _player(result, bot)
    assert (me["status"], me["reason"][:len(BANK)]) == ("forfeit", BANK), me
    assert limits.own_bank_s <= me["own_s"] <= limits.own_bank_s + 1.0, me
    assert me["turn"] < 100 and result["end"] == "forfeit", me
    assert took < 300, took                    # a hang guard only


# -- the worst case, written down ------------------------------------------------------------
TABLE_ROW = re.compile(r"^\| (Robot Arena|Robot Game|Cave Rangers|Race some Robots) \| "
                       r"([^|]+) \| ([^|]+) \| (\d+) s / (\d+) s \| (\d+) AIs: (\d+) s \|$",
                       re.MULTILINE)
TABLE_GAMES = {"Robot Arena": "arena", "Robot Game": "robotgame", "Cave Rangers": "cave",
               "Race some Robots": "race"}


def test_the_worst_case_table_is_what_the_limits_imply() -> None:
    """docs/security/time.md's "Time, per game": each game's banks and worst case of one match,
    computed from its Limits, not written twice."""
    text = (ROOT / "docs" / "security" / "time.md").read_text()
    rows = {TABLE_GAMES[m.group(1)]: m for m in TABLE_ROW.finditer(text)}
    assert set(rows) == set(TABLE_GAMES.values()), rows
    for game, row in rows.items():
        found = get_game(game)
        limits = found.limits
        assert (float(row.group(4)), float(row.group(5))) == \
            (limits.cpu_bank_s, limits.own_bank_s), game
        assert f"/ {limits.request_own_s(1):g} s" in row.group(2), (game, row.group(2))
        assert row.group(3).endswith(f"/ {limits.request_own_s(1000):g} s"), \
            (game, row.group(3))
        ais = int(row.group(6))
        assert float(row.group(7)) == worst_case_s(limits, ais, found.failure == "erase"), game
