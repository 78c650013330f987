"""The sandbox modes' registry (sandbox/modes.py), proved by a mode kept outside it.

`--sandbox counting` (tests/modes/counting.py, registered by tests/conftest.py through
ARENA_SANDBOX_MODES) is `off` with every call of its players counted in a file: a match
that plays in it through the real command line, in this process's workers or in a
spawned one, played through the registry and the `Players` protocol, or nothing is
counted. Every mode's record decides what `check` and the ladder may use, with one
error line that the command line and the API share.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from engine import InputError
from orchestrator import api
from orchestrator.games import DEFAULT_GAME, get_game
from orchestrator.options import helps
from orchestrator.runner.bots import read_bot
from orchestrator.runner.execute import LocalPool
from orchestrator.runner.schedule import Setup, plan_batch
from orchestrator.service.check import check_bot
from sandbox import modes
from sandbox.modes import MODES, Mode
from sandbox.players import Players
from tests.modes.counting import LOG_VARIABLE
from tests.support.cli import arena
from tests.support.paths import BOTS, COUNTING, ROOT

TURNS = 5


def counted(log: Path) -> list[tuple[int, str]]:
    """(pid, call) per line the counting mode wrote."""
    if not log.exists():
        return []
    return [(int(pid), call) for pid, call in
            (line.split() for line in log.read_text().splitlines())]


def calls(log: Path) -> Counter:
    return Counter(call for _, call in counted(log))


def test_the_mode_kept_elsewhere_is_in_the_registry_and_its_help() -> None:
    assert str(COUNTING) in os.environ[modes.PLUGINS_VARIABLE].split(os.pathsep)
    mode = MODES["counting"]
    assert isinstance(mode, Mode) and mode.players.__name__ == "Counting"
    assert mode in modes.offered() and MODES[modes.IN_JAIL] not in modes.offered()
    SANDBOX_HELP = helps.sandbox()         # the help --sandbox shows
    assert "counting: off, each call of its players counted" in SANDBOX_HELP
    # Every mode a user can name, and only those, in the help, in the registry's order.
    named = [m.name for m in modes.offered()]
    at = [SANDBOX_HELP.index(f"{name}: ") for name in named]
    assert at == sorted(at) and modes.IN_JAIL not in SANDBOX_HELP


def test_arena_run_plays_through_the_counting_mode(tmp_path) -> None:
    log = tmp_path / "calls.log"
    done = arena("run", "--seed", "1", "--max-turns", str(TURNS), "--sandbox", "counting",
                 "--json", env={LOG_VARIABLE: str(log)})
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["sandbox_mode"] == "counting" and result["sandbox"] == []
    assert result["restarts"] == 0 and all(p["status"] == "ok" for p in result["players"])
    seats = len(result["players"])
    # One attempt: loaded once, each seat started, one exchange per turn, closed once.
    assert calls(log) == Counter(load=1, start=seats, exchange=result["turns"], layers=1,
                                 close=1, usage=seats), counted(log)
    # The same match as `off`, whose players it wraps.
    off = json.loads(arena("run", "--seed", "1", "--max-turns", str(TURNS), "--sandbox",
                           "off", "--json").stdout)
    same = lambda r: [(p["name"], p["rank"], p["stats"]) for p in r["players"]]
    assert same(off) == same(result) and off["turns"] == result["turns"]


def test_arena_batch_plays_through_the_counting_mode_in_its_workers(tmp_path) -> None:
    log, db = tmp_path / "calls.log", tmp_path / "batch.sqlite"
    done = arena("batch", str(BOTS / "hunter.py"), str(BOTS / "beeline.py"), "--seeds", "2",
                 "--max-turns", str(TURNS), "--sandbox", "counting", "--workers", "1",
                 "--db", str(db), "--json", env={LOG_VARIABLE: str(log)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["matches"] == 2
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT sandbox, turns, restarts FROM matches").fetchall()
    assert [mode for mode, _, _ in rows] == ["counting", "counting"]
    assert all(restarts == 0 for _, _, restarts in rows)
    assert calls(log) == Counter(load=2, start=4, exchange=sum(t for _, t, _ in rows),
                                 layers=2, close=2, usage=4), counted(log)


def test_a_spawned_worker_knows_the_mode_kept_elsewhere(tmp_path) -> None:
    """The ladder's workers are spawned, not forked: they build the registry anew from
    the environment they inherit."""
    log = tmp_path / "calls.log"
    game = get_game(DEFAULT_GAME)
    setup = Setup.make(game, None, game.rules(game.presets[0], max_turns=3), game.limits,
                       "counting")
    planned = plan_batch(setup, [read_bot(BOTS / "hunter.py"),
                                 read_bot(BOTS / "beeline.py")], [1])[0]
    os.environ[LOG_VARIABLE] = str(log)
    try:
        pool = LocalPool(1, pin=False, start="spawn")
        try:
            pool.submit("one", ("match", planned.spec))
            [(_, outcome)] = pool.wait(120)
        finally:
            pool.close()
    finally:
        del os.environ[LOG_VARIABLE]
    assert outcome["result"]["sandbox_mode"] == "counting", outcome
    pids = {pid for pid, _ in counted(log)}
    assert len(pids) == 1 and os.getpid() not in pids
    assert calls(log)["exchange"] == outcome["result"]["turns"] == 3


def test_a_spawned_worker_plays_a_game_kept_elsewhere() -> None:
    """A match of a game kept elsewhere (tests/toy, ARENA_GAMES's module `arena_game_toy`)
    reaches a spawned worker as a MatchSpec holding the game's own rules class: the
    worker loads the registry's games before it unpickles it. (It did not: the ladder's
    worker died on each such match, was replaced, and the match never played.)"""
    game = get_game("toy")
    setup = Setup.make(game, None, game.rules(game.presets[0], max_turns=3), game.limits,
                       "off")
    bots = sorted((ROOT / "tests" / "toy" / "bots").glob("*.py"))
    planned = plan_batch(setup, [read_bot(bot) for bot in bots], [1])[0]
    pool = LocalPool(1, pin=False, start="spawn")
    try:
        pool.submit("one", ("match", planned.spec))
        outcomes: list = []
        for _ in range(8):                  # a worker that dies is replaced, twice at most
            outcomes = pool.wait(120)
            if outcomes:
                break
    finally:
        pool.close()
    [(_, outcome)] = outcomes
    assert "error" not in outcome, outcome
    assert outcome["result"]["game"] == "toy" and outcome["result"]["turns"] == 3, outcome


def _error_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr.removeprefix("error: ").rstrip("\n")


@pytest.mark.parametrize("mode", [m.name for m in modes.offered() if not m.checks])
def test_check_refuses_a_mode_whose_record_says_so_in_one_line(mode, tmp_path) -> None:
    with pytest.raises(InputError) as refused:
        check_bot(BOTS / "hunter.py", sandbox=mode)
    said = str(refused.value)
    # A known mode is named as one (not "unknown"), with why check does not use it.
    record = modes.MODES[mode]
    assert said.startswith(f"--sandbox {mode} is not available for check: "
                           f"{record.check_refusal} (check runs in ")
    assert _error_line(arena("check", str(BOTS / "hunter.py"), "--sandbox", mode)) == said
    allowed = said.partition("(check runs in ")[2].rstrip(")").replace(" or ", ", ")
    assert allowed.split(", ") == [m.name for m in modes.offered() if m.checks]
    assert mode not in allowed.split(", ")


def test_check_says_unknown_of_a_mode_that_is_not_one() -> None:
    with pytest.raises(InputError, match=r"^unknown --sandbox mode for check 'nope' \(choose "
                                         r"from: standard, strict, bwrap"):
        check_bot(BOTS / "hunter.py", sandbox="nope")


@pytest.mark.parametrize("mode", [m.name for m in modes.offered() if m.ladder_refusal])
def test_the_ladder_refuses_a_mode_whose_record_says_so_in_one_line(mode, tmp_path) -> None:
    from orchestrator.options import LadderSettings
    from orchestrator.web.ladder.service import Ladder

    db = tmp_path / "ladder.sqlite"
    with pytest.raises(InputError) as refused:
        Ladder(db, LadderSettings(sandbox=mode))
    said = str(refused.value)
    assert said == f"the ladder never uses --sandbox {mode}: {MODES[mode].ladder_refusal}"
    assert _error_line(arena("serve", "--db", str(db), "--port", "0", "--sandbox",
                             mode)) == said
    assert not db.exists()                    # refused before the ladder began


def test_an_unknown_mode_is_the_same_line_from_the_command_line_and_the_api() -> None:
    with pytest.raises(InputError) as refused:
        api.play(["hunter", "beeline"], sandbox="maybe", progress=False)
    said = str(refused.value)
    assert said.startswith("unknown --sandbox mode 'maybe' (choose from: standard, strict, ")
    assert said.endswith(", ".join(m.name for m in modes.offered()) + ")")
    assert _error_line(arena("run", "--sandbox", "maybe")) == said
    with pytest.raises(InputError, match="unknown --sandbox mode 'match:inside'"):
        modes.chosen(modes.IN_JAIL)             # the jail's inside is no user's choice


def test_a_registry_entry_that_cannot_load_is_one_error_line(tmp_path) -> None:
    no_mode = tmp_path / "no_mode.py"
    no_mode.write_text("X = 1\n")
    twice = tmp_path / "twice.py"
    twice.write_text("import dataclasses\nfrom sandbox.modes import OFF\n"
                     "MODE = dataclasses.replace(OFF, name='off')\n")
    for ref, says in ((tmp_path / "missing.py", "no such file"),
                      (no_mode, "defines no MODE = Mode(...)"),
                      (twice, "--sandbox off is already a mode")):
        line = _error_line(arena("run", env={modes.PLUGINS_VARIABLE: str(ref)}))
        assert line == f"{ref} (in $ARENA_SANDBOX_MODES): {says}"


def test_a_record_states_players_or_whole_matches_and_a_known_tier() -> None:
    with pytest.raises(ValueError, match="players, or whole matches"):
        Mode("both", "help.", MODES["off"].players, whole_match=True)
    with pytest.raises(ValueError, match="no tier"):
        Mode("odd", "help.", MODES["off"].players, tier="loose")


def test_every_mode_s_players_implement_one_protocol() -> None:
    """The members the match loop calls, with the protocol's own parameters."""
    import inspect

    members = [name for name in dir(Players) if not name.startswith("_")]
    assert set(members) == {"seats", "start", "exchange", "layers", "close", "usage"}
    for mode in MODES.values():
        if mode.whole_match:
            continue
        for name in members:
            theirs = inspect.signature(getattr(mode.players, name))
            ours = inspect.signature(getattr(Players, name))
            assert list(theirs.parameters) == list(ours.parameters), (mode.name, name)
