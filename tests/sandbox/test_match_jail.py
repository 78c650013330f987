"""`--sandbox match`: the whole match in one jail.

For every game of the registry, its bundled samples play the same match (result and
replay) in this mode, the standard mode and in-process. A bot the jail's own guard cannot
stop is killed with the jail by the host, charged as in the standard mode (erased, or in
a forfeit game the match ends), and the result says why. The hostile suite runs in this
mode too (tests/sandbox/test_hostile.py, its "match" tier).
"""
from __future__ import annotations

import json
import sqlite3
import threading

import pytest
from typer.testing import CliRunner

from engine import InputError
from orchestrator.cli.app import app
from orchestrator.games import GAMES
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from sandbox.limits import Limits

MODES = ("match", "standard", "off")
TURNS = {"arena": 30, "robotgame": 30, "race": 3, "cave": 30}
# What differs by mode and nothing else: how the match was isolated and what it cost.
MODE_FIELDS = ("sandbox", "sandbox_missing", "sandbox_mode", "jail_kills", "sandbox_note")
COST_FIELDS = ("cpu_s", "own_s", "peak_rss_mb")


def lineup(game) -> list:
    bots = [read_bot(p) for p in game.demo_lineup(on_skip=lambda _: None)]
    return game.mirrored(bots[:game.players] if game.players else bots)


def play(game, bots, mode: str, seed: int = 3, limits: Limits | None = None,
         turns: int | None = None) -> tuple[dict, dict]:
    rules = game.rules(game.presets[0], max_turns=turns or TURNS.get(game.name, 20))
    replays: list[dict] = []
    spec = MatchSpec(game.name, game.find_map(None), bots, seed, rules, limits, mode)
    result = run_match(spec, replays=replays)
    return result, replays[0]


def comparable(result: dict, replay: dict) -> tuple[str, str]:
    result = {k: v for k, v in result.items() if k not in MODE_FIELDS}
    result["players"] = [{k: v for k, v in p.items() if k not in COST_FIELDS}
                         for p in result["players"]]
    replay = {k: v for k, v in replay.items() if k != "sandbox_mode"}
    return json.dumps(result, sort_keys=True), json.dumps(replay, sort_keys=True)


def told(plays: dict) -> str:
    """Each mode's moves digest and each player's status, errors and stats: what a failure
    needs to tell a different game (moves, timeouts) from a differing field."""
    return "\n".join(f"{mode}: moves {result.get('moves')} " + json.dumps(
        [{k: p.get(k) for k in ("seat", "status", "reason", "errors", "stats")}
         for p in result["players"]]) for mode, (result, _) in plays.items())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_samples_play_the_same_match_in_every_mode(name, no_stray_processes) -> None:
    game = GAMES[name]
    bots = lineup(game)
    plays = {mode: play(game, bots, mode) for mode in MODES}
    jailed, _ = plays["match"]
    if game.programs:
        assert jailed["sandbox_mode"] == "standard" and "sandbox_note" in jailed
    else:
        assert jailed["sandbox_mode"] == "match" and jailed["jail_kills"] == []
        assert jailed["sandbox"] == plays["standard"][0]["sandbox"]
    assert all(p["status"] == "ok" for p in jailed["players"]), jailed["players"]
    same = {mode: comparable(*outcome) for mode, outcome in plays.items()}
    assert same["match"][0] == same["standard"][0] == same["off"][0], told(plays)
    assert same["match"][1] == same["standard"][1] == same["off"][1]


# Blocks the signals of its guard, then spins: only the host's watchdog can end it.
UNSTOPPABLE = """
import signal
{header}
def _spin():
    signal.pthread_sigmask(signal.SIG_BLOCK, {{signal.SIGALRM, signal.SIGPROF}})
    while True:
        pass
{body}
"""
BOT_OF = {  # a Python bot of each game that calls _spin() on its third call
    "arena": ("from roborally.api import *\nname = 'Stuck'\nn = [0]",
              "def move():\n    n[0] += 1\n    if n[0] == 3:\n        _spin()\n"
              "    return FORWARD"),
    "robotgame": ("import rg\nn = [0]",
                  "class Robot:\n    def act(self, game):\n        n[0] += 1\n"
                  "        if n[0] == 3:\n            _spin()\n        return ['guard']"),
}


@pytest.mark.parametrize("name", sorted(BOT_OF))
def test_a_bot_the_jail_cannot_stop_ends_in_the_standard_modes_result(
        name, tmp_path, no_stray_processes) -> None:
    """The host kills the jail; the match is played again in the standard mode, whose
    result stands (the same as a standard match's), and what the jail's page named is
    kept, unverified."""
    game = GAMES[name]
    header, body = BOT_OF[name]
    path = tmp_path / "stuck.py"
    path.write_text(UNSTOPPABLE.format(header=header, body=body))
    bots = [read_bot(path), *lineup(game)[:(game.players or 3) - 1]]
    # The host caps a request at its calls' hard limits (an arena bot's turn is a call per
    # robot): what the spinner burns, in each of the three plays, is about calls x this.
    limits = Limits(**{**game.limits.__dict__, "cpu_per_call_s": 0.1, "wall_per_call_s": 0.6,
                       "watchdog_grace_s": 0.5})
    result, replay = play(game, bots, "match", limits=limits, turns=8)
    stuck = next(p for p in result["players"] if p["bot"] == str(path))
    assert stuck["status"] == ("forfeit" if game.failure == "forfeit" else "erased"), stuck
    assert stuck["reason"] in ("cpu time limit", "wall-clock watchdog (hang)"), stuck
    assert [(k["player"], k["unverified"]) for k in result["jail_kills"]] == \
        [(stuck["name"], True)]
    assert result["jail_kills"][0]["reason"] in ("cpu time limit",
                                                 "wall-clock watchdog (hang)")
    assert result["sandbox_mode"] == "standard"
    assert result["sandbox_note"].startswith("the match jail failed")
    assert all(p["status"] == "ok" for p in result["players"] if p is not stuck)
    assert any(m["player"] == stuck["name"] for m in replay["marks"])
    assert "sandbox_mode" not in replay
    assert comparable(result, replay) == comparable(*play(game, bots, "standard",
                                                         limits=limits, turns=8))



def test_batch_records_the_mode_and_names_it(tmp_path, no_stray_processes) -> None:
    from orchestrator import api
    db = tmp_path / "runs.sqlite"
    found = api.batch(["hunter", "beeline"], seeds=2, max_turns=5, sandbox="match", db=db,
                      workers=1, progress=False)
    assert "sandbox match" in found.title
    with sqlite3.connect(db) as conn:
        assert {row[0] for row in conn.execute("SELECT sandbox FROM matches")} == {"match"}


def test_check_and_the_ladder_never_use_it(tmp_path) -> None:
    from orchestrator.options import LadderSettings
    from orchestrator.web.ladder.service import Ladder
    done = CliRunner().invoke(app, ["check", "hunter", "--sandbox", "match"])
    assert isinstance(done.exception, InputError)        # `arena` prints it as error:
    assert str(done.exception).startswith("--sandbox match is not available for check: a "
                                          "check judges one bot's CPU")
    with pytest.raises(InputError, match="never uses --sandbox match"):
        Ladder(tmp_path / "ladder.sqlite", LadderSettings(sandbox="match"))



# Keeps state in its module and in `rg`, and prints at its first act what it found there.
# With SPIN, its first act spins past every guard on the seeds where its roll is under 0.5.
CARRIER = """
import random
import rg
import signal
acts = [0]
SPIN = {spin}
class Robot:
    def act(self, game):
        acts[0] += 1
        if acts[0] == 1:
            roll = random.random()
            if SPIN and roll < 0.5:
                signal.pthread_sigmask(signal.SIG_BLOCK, {{signal.SIGALRM, signal.SIGPROF}})
                while True:
                    pass
            patched = getattr(rg.wdist, "patched", False)
            print(f"acts={{acts[0]}} wdist={{'patched' if patched else 'clean'}} "
                  f"stash={{getattr(rg, 'stash', None)}} roll={{roll < 0.5}}")
            def wdist(a, b):
                return 0
            wdist.patched = True
            rg.wdist, rg.stash = wdist, "left by the last match"
        return ['guard']
"""
FRESH = "acts=1 wdist=clean stash=None"


@pytest.fixture
def worker_jails(monkeypatch):
    """Jails as a batch worker keeps them: a line-up's matches in a row in one jail."""
    from sandbox import matchjail
    monkeypatch.setattr(matchjail, "keep_spares", True)
    yield matchjail
    matchjail.discard_spares()


def live_jail(matchjail):
    """The jail kept for this thread's line-up."""
    return matchjail._live[threading.get_ident()][2]


def mine(result: dict) -> dict:
    """The carrier's line of a result (seat 0)."""
    return next(p for p in result["players"] if p["seat"] == 0)


def carrier(tmp_path, spin: bool) -> list:
    game = GAMES["robotgame"]
    path = tmp_path / f"carrier{int(spin)}.py"
    path.write_text(CARRIER.format(spin=spin))
    return [read_bot(path), lineup(game)[0]]


def test_a_workers_jail_loads_the_bots_afresh_for_each_match(tmp_path, no_stray_processes,
                                                             worker_jails) -> None:
    game = GAMES["robotgame"]
    bots = carrier(tmp_path, spin=False)
    pids = []
    for seed in (1, 2, 3):
        result, _ = play(game, bots, "match", seed=seed, turns=4)
        assert result["sandbox_mode"] == "match" and result["jail_kills"] == []
        assert FRESH in mine(result)["output"], mine(result)
        pids.append(live_jail(worker_jails).pid)
    assert len(set(pids)) == 1            # one jail played the three matches


def test_a_kill_in_one_match_leaves_the_next_unspoilt(tmp_path, no_stray_processes,
                                                      worker_jails) -> None:
    game = GAMES["robotgame"]
    probe = carrier(tmp_path, spin=False)         # the same rolls, and no spin
    rolls = {seed: "roll=True" in mine(play(game, probe, "standard", seed=seed,
                                            turns=2)[0])["output"] for seed in range(1, 9)}
    spins = next(seed for seed, low in rolls.items() if low)
    calm = next(seed for seed, low in rolls.items() if not low)
    bots = carrier(tmp_path, spin=True)
    # The host caps a request at its calls' hard limits (an arena bot's turn is a call per
    # robot): what the spinner burns, in each of the three plays, is about calls x this.
    limits = Limits(**{**game.limits.__dict__, "cpu_per_call_s": 0.1, "wall_per_call_s": 0.6,
                       "watchdog_grace_s": 0.5})
    before = play(game, bots, "match", seed=calm, limits=limits, turns=4)
    assert before[0]["jail_kills"] == [] and FRESH in mine(before[0])["output"]
    first_jail = live_jail(worker_jails).pid
    killed, _ = play(game, bots, "match", seed=spins, limits=limits, turns=4)
    assert mine(killed)["status"] == "forfeit", mine(killed)
    assert [k["player"] for k in killed["jail_kills"]] == [mine(killed)["name"]]
    assert killed["sandbox_mode"] == "standard"
    after = play(game, bots, "match", seed=calm, limits=limits, turns=4)
    assert live_jail(worker_jails).pid != first_jail       # a fresh jail after the kill
    assert after[0]["jail_kills"] == [] and FRESH in mine(after[0])["output"]
    assert all(p["status"] == "ok" for p in after[0]["players"]), after[0]["players"]
    assert comparable(*after) == comparable(*before)     # the same match as before it


def test_a_thread_a_bot_left_ends_with_its_match(tmp_path, no_stray_processes,
                                                 worker_jails) -> None:
    """Each match plays in a process of its own, forked from the jail, with the same pid:
    a thread a bot left running ends with it, and the jail plays the next match."""
    game = GAMES["robotgame"]
    path = tmp_path / "leaver.py"
    path.write_text("import os, threading, time\n"
                    "print('threads', threading.active_count(), 'pid', os.getpid())\n"
                    "threading.Thread(target=time.sleep, args=(600,), daemon=True).start()\n"
                    "class Robot:\n    def act(self, game):\n        return ['guard']\n")
    bots = [read_bot(path), lineup(game)[0]]
    pids = []
    for seed in (1, 2):
        result, _ = play(game, bots, "match", seed=seed, turns=3)
        assert result["jail_kills"] == [] and mine(result)["status"] == "ok", result
        assert "threads 1 pid 1" in mine(result)["output"], mine(result)
        pids.append(live_jail(worker_jails).pid)
    assert pids[0] == pids[1]


def test_a_jail_a_bot_left_a_file_in_plays_no_further_match(tmp_path, no_stray_processes,
                                                            worker_jails) -> None:
    game = GAMES["robotgame"]
    path = tmp_path / "leaver.py"
    path.write_text("open('left-behind.txt', 'w').write('for the next match')\n"
                    "class Robot:\n    def act(self, game):\n        return ['guard']\n")
    bots = [read_bot(path), lineup(game)[0]]
    pids = []
    for seed in (1, 2):
        result, _ = play(game, bots, "match", seed=seed, turns=3)
        assert result["jail_kills"] == [] and mine(result)["status"] == "ok", result
        pids.append(live_jail(worker_jails).pid)
    assert pids[0] != pids[1]              # the second match played in a fresh jail


def test_the_jail_zygote_parses_the_bundled_maps_its_matches_read(monkeypatch) -> None:
    """Each match's process is forked from the jail with Robot Game's map cache as the
    zygote left it, and the cache a match fills dies with its process: the zygote parses
    the bundled maps once, so that no match parses its map again."""
    from engine.robotgame import mapfile
    from orchestrator.runner import jail_job
    from sandbox.modes import JAIL_GAMES
    monkeypatch.setenv(JAIL_GAMES, "robotgame")
    mapfile.parse_map.cache_clear()
    jail_job.preload()
    game = GAMES["robotgame"]
    path = game.find_map(None)
    misses = mapfile.parse_map.cache_info().misses
    game.parse_map(path.read_text(), path.name)          # as a match in the jail reads it
    assert mapfile.parse_map.cache_info().misses == misses
