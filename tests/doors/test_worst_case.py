"""The worst case of one match (docs/security.md, "Time, per game") holds for a
tournament's worker. A round robin of the worst stallers the limits allow, under small
limits, and each match's wall time as its worker measured it (the results file's
`wall_s`) is at most `worst_case_s` of those limits, plus a stated engine allowance.

Small limits keep it short; what it checks is the formula, which the table applies to each
game's own limits. The stallers would take far longer unbounded (UNBOUNDED_S), so a bound
not applied fails this test whatever the machine's load; the allowance is generous against
load (an engine turn, a look by the host, a loaded start) and still far below that.
"""
from __future__ import annotations

import sqlite3

import pytest

from orchestrator import api
from orchestrator.service import setup as run_setup
from sandbox.limits import Limits
from tests.support.limits import worst_case_s
from tests.support.paths import HOSTILE

pytestmark = pytest.mark.filterwarnings("ignore:--sandbox off:RuntimeWarning")

TURNS = 200
SMALL = Limits(cpu_per_call_s=0.5, cpu_bank_s=1.0, wall_per_call_s=0.5, own_per_turn_s=0.5,
               own_bank_s=1.0, load_timeout_s=3.0, watchdog_grace_s=3.0, memory_mb=256)
# Beyond worst_case_s, per match: each of its (at most 3) attempts may pass its AI's bank
# by one request's own time (0.5 s) and the host's look, and the engine plays its turns
# and starts its children; on a loaded machine these take longer. Still far under what
# the stallers take unbounded.
ALLOWANCE_S = 10.0
BURNER = '''"""Spends its CPU bank: 0.4 s of CPU in every move, under the call's 0.5 s."""
import time

from roborally.api import *

name = 'Burner'


def move():
    end = time.thread_time() + 0.4
    while time.thread_time() < end:
        pass
    return LASER
'''
# What each staller would spend in one match of TURNS turns if nothing bounded it: its
# pause in every move (one robot a side), each turn; a match, its slower staller's (the
# standard mode asks its AIs at once: Napper v ThreadJoiner, no bank applied, took 61 s);
# and the reasons the bounds give.
UNBOUNDED_S = {"Napper": 0.3 * TURNS, "ThreadJoiner": 0.3 * TURNS, "Burner": 0.4 * TURNS,
               "LongSleep": 7.0}
REASONS = {"Napper": ("time bank: ",), "ThreadJoiner": ("time bank: ",),
           # its CPU and its own time grow together (1 s banks each): a busy machine's
           # timer slack may spend either first
           "Burner": ("cpu bank exhausted", "time bank: "),
           "LongSleep": ("wall time limit (hang)",)}


def test_a_tournament_of_stallers_waits_at_most_the_worst_case(tmp_path, monkeypatch,
                                                               no_stray_processes) -> None:
    """Each staller is erased by the bound it meets (its own-time bank, its CPU bank, a
    call's own time), so each match is played again down to one AI: the worst case's
    attempts. Each match's wall time is within worst_case_s plus ALLOWANCE_S, where the
    same match unbounded would take over twice that."""
    burner = tmp_path / "burner.py"
    burner.write_text(BURNER)
    bots = [HOSTILE / "napper.py", HOSTILE / "thread_joiner.py", burner,
            HOSTILE / "long_sleep.py"]
    monkeypatch.setattr(run_setup, "game_limits", lambda found, cpu, memory: SMALL)
    db = tmp_path / "t.sqlite"
    api.tournament([str(b) for b in bots], format="round-robin", games=1, first_seed=1,
                   game="arena", robots=1, max_turns=TURNS, workers=1, db=db,
                   progress=False)
    with sqlite3.connect(db) as con:
        walls = dict(con.execute("SELECT id, wall_s FROM matches"))
        seen = list(con.execute("SELECT match_id, name, status, reason FROM participants"))
    bound = worst_case_s(SMALL, 2, erases=True)
    assert bound == pytest.approx(2 * 1.5 + 3 + 1.5 + 3)         # 10.5 s
    assert len(walls) == 6, walls
    for _, name, status, reason in seen:
        assert status == "erased" and reason.startswith(REASONS[name]), \
            (name, status, reason)
    figures = []
    for match_id, wall in walls.items():
        names = [name for m, name, _, _ in seen if m == match_id]
        unbounded = max(UNBOUNDED_S[name] for name in names)
        assert 2 * (bound + ALLOWANCE_S) < unbounded, (names, bound, unbounded)
        assert wall <= bound + ALLOWANCE_S, (names, wall, bound)
        figures.append(f"{' v '.join(names)}: {wall:.1f} s (unbounded {unbounded:g} s)")
    print(f"bound {bound:g} s + {ALLOWANCE_S:g} s;", "; ".join(figures))
