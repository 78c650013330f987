"""The host judges time from what it observes itself, and the same match plays the
same in every mode and runtime (docs/security.md: "The host judges time from what it
observes itself", "Same inputs, same match").

Time: a call's own time is its wall time less the time it waited to run, as the kernel
reports it (/proc/PID/schedstat). A bot that reads its guard's timer (signal.getitimer) or
burns a little CPU between sleeps no longer looks starved: it is ended at its wall limit.
A bot starved by a loaded machine (here: its cores' share cut to about 1.5 % by the test)
keeps its allowance: its CPU limit judges it, not its wall.

Determinism: a Python program of Cave's hashes strings with one seed in every run (and a
Perl one orders its hashes so); `--sandbox off` plays the standard mode's game.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from orchestrator.games import get_game
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from sandbox import programs
from sandbox.botlib import child_module
from sandbox.limits import Limits
from sandbox.zygote import zygote, zygote_pid
from tests.support.cli import arena
from tests.support.paths import BOTS, HOSTILE
from tests.support.sandbox import by_name, play
from tests.support.waiting import wait_until

ROOT = Path(__file__).resolve().parent.parent.parent
CAVE_HOSTILE = ROOT / "tests" / "cave" / "hostile"
CAVE_BOTS = ROOT / "tests" / "cave" / "bots"
CAVE_SAMPLES = ROOT / "bots" / "cave"
_sched = child_module("_sched")

# Robot Arena's wall limit as the default (5 s): the attacks stall under the old guard's
# last look (4x), so there they answered, "ok".
WALL = Limits(cpu_per_call_s=1.0, wall_per_call_s=5.0, watchdog_grace_s=3.0, memory_mb=256)


# -- the guard's own clock -------------------------------------------------------------------
@pytest.mark.parametrize("bot", ["guard_clock.py", "slow_burner.py"])
def test_a_sleeper_that_burns_a_little_is_erased_at_its_wall_limit(bot,
                                                                  no_stray_processes) -> None:
    """guard_clock.py reads its guard's timer and burns 20 ms after each probe; slow_burner
    burns 12 ms every 0.15 s blindly. Each stalls 8-14 s a call: the old guards let both
    answer ("ok", 14 s a turn); each is erased now after its 5 s of own time."""
    began = time.monotonic()
    result = play([HOSTILE / bot, BOTS / "beeline.py"], robots=1, turns=2, limits=WALL)
    took = time.monotonic() - began
    me = next(p for p in result["players"] if p["bot"].endswith(bot))
    assert (me["status"], me["reason"], me["turn"]) == \
        ("erased", "wall time limit (hang)", 1), me
    assert me["cpu_s"] < WALL.cpu_per_call_s, me       # its sleep, not its CPU, ended it
    assert by_name(result)["Beeline"]["status"] == "ok"
    assert took < 4 * WALL.wall_per_call_s, took        # a hang guard: it stalled 14 s before


def test_a_cave_program_that_burns_a_little_while_it_sleeps_hangs_each_turn(
        no_stray_processes) -> None:
    """The keeper has no /proc to tell sleeping from starved: the host does, and tells it
    mid-turn. The program stalls 2.5 s a turn, past its 1 s: a hang each turn (Cave's
    fault, not an erasure), where the keeper used to wait for its answer."""
    game = get_game("cave")
    limits = Limits(cpu_per_call_s=1.0, wall_per_call_s=1.0, watchdog_grace_s=5.0,
                    memory_mb=160, first_wall_s=5.0, output_bytes=16 << 10)
    bot = CAVE_HOSTILE / "slow_burner.py"
    spec = MatchSpec("cave", game.find_map(None), [read_bot(bot), read_bot(CAVE_SAMPLES /
                                                                           "miner.sh")],
                     5, game.rules("seed", max_turns=2), limits, "standard")
    began = time.monotonic()
    result = run_match(spec)
    took = time.monotonic() - began
    me = next(p for p in result["players"] if p["bot"] == str(bot))
    assert me["status"] == "ok" and me["stats"]["faults"] == {"hang": 2}, me["stats"]
    assert me["stats"]["invalid"] == 2, me["stats"]
    # Ended at its 1 s of own time, not when it answered: two whole 2.5 s stalls burn 0.41 s
    # in their bursts alone (12 ms each 0.15 s); two 1 s turns about 0.2 s, starts included.
    # CPU, not wall: a loaded machine stretches the wall of both, not the bursts.
    assert me["cpu_s"] < 0.33, me
    assert took < 60, took                               # a hang guard only


HONEST = """
import time
from roborally.api import *
name = 'Honest'
def move():
    end = time.thread_time() + 0.03
    while time.thread_time() < end:
        pass
    return LASER
"""


def _set_autogroup_nice(pid: int, nice: int) -> bool:
    """Set the scheduling weight of `pid`'s session (its autogroup), which is what a
    process competes with across sessions. An ordinary user may change it once in 100 ms."""
    deadline = time.monotonic() + 10.0       # generous: other sessions' changes count too
    while True:
        try:
            Path(f"/proc/{pid}/autogroup").write_text(str(nice))
            return True
        except OSError as exc:
            if exc.errno != 11 or time.monotonic() > deadline:      # EAGAIN: too soon
                return False
            time.sleep(0.11)


def test_an_honest_bot_starved_by_a_loaded_machine_keeps_its_allowance(
        tmp_path, no_stray_processes) -> None:
    """Its children share core 0 with a busy program at the lowest weight (about 1.5 % of
    the core): each 30 ms move waits to run for seconds, past a 0.5 s wall limit. Its own
    time is its CPU time: never a hang. (The old guard erased a call using less than 4 %
    of a core past its wall limit.) Bound CPU, not wall: what the verdict rests on is the
    kernel's count of the child's waits, which this test reads too."""
    if not Path("/proc/self/autogroup").exists():
        pytest.skip("this kernel has no autogroups to starve a session with")
    bot = tmp_path / "honest.py"
    bot.write_text(HONEST)
    limits = Limits(cpu_per_call_s=1.0, wall_per_call_s=0.5, watchdog_grace_s=5.0,
                    load_timeout_s=60.0, memory_mb=256)
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"],
                              start_new_session=True,
                              preexec_fn=lambda: os.sched_setaffinity(0, {0}))
    mine = psutil.Process()
    waited: dict[int, float] = {}
    starved: set[int] = set()
    done = threading.Event()
    sessions: set[int] = set()

    def starve() -> None:
        while not done.is_set():
            for child in mine.children():
                pid = child.pid
                if pid == burner.pid or pid == zygote_pid():
                    continue
                if pid not in starved:
                    try:
                        os.sched_setaffinity(pid, {0})
                        if os.getsid(pid) not in sessions and _set_autogroup_nice(pid, 19):
                            sessions.add(os.getsid(pid))
                        starved.add(pid)
                    except OSError:
                        pass
                seen = _sched.waited_s(pid)
                if seen is not None:
                    waited[pid] = max(waited.get(pid, 0.0), seen)
            time.sleep(0.01)

    # The children are forked by the zygote, in its session: starved before they are born,
    # so that a busy machine's delay in lowering a session's weight (an ordinary user may
    # change one every 100 ms, machine-wide) cannot let a 2-turn match finish first.
    parent = zygote().pid
    affinity = os.sched_getaffinity(parent)
    os.sched_setaffinity(parent, {0})
    if _set_autogroup_nice(parent, 19):
        sessions.add(os.getsid(parent))
    watcher = threading.Thread(target=starve, daemon=True)
    watcher.start()
    try:
        result = play([bot, BOTS / "turtle.py"], robots=1, turns=2, limits=limits)
    finally:
        done.set()
        watcher.join()
        burner.kill()
        burner.wait()
        if zygote_pid() == parent:
            os.sched_setaffinity(parent, affinity)
        for session in sessions:           # the zygote's session, shared with later tests
            if zygote_pid() and os.getsid(zygote_pid()) == session:
                _set_autogroup_nice(zygote_pid(), 0)
    assert sessions, "could not lower the children's weight"
    me = by_name(result)["Honest"]
    assert me["status"] == "ok" and me["overheats"] == 0, me
    # It was starved: some child waited to run for longer than the wall limit.
    assert max(waited.values(), default=0.0) > limits.wall_per_call_s, waited


def test_own_time_is_wall_time_less_the_wait_to_run() -> None:
    """The measure itself, on two real processes: a sleeper's own time is its wall time; a
    process that waited to run has it taken off."""
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; print('sleeps', flush=True); "
                                "time.sleep(30)"], stdout=subprocess.PIPE)
    try:
        assert sleeper.stdout.readline() == b"sleeps\n"       # it has started
        sleeper.stdout.close()
        # and sleeps: no longer runnable (on a busy machine it may wait to run a while
        # between its print and its sleep, a wait the measure rightly takes off)
        wait_until(lambda: not _sched.runnable(sleeper.pid), 30, "the sleeper to sleep",
                   every=0.01)
        clock = _sched.OwnTime([sleeper.pid], time.monotonic())
        time.sleep(0.5)
        own, runnable = clock.look([sleeper.pid], time.monotonic())
        assert own >= 0.5 and not runnable
    finally:
        sleeper.kill()
        sleeper.wait()
    assert _sched.waited_s(os.getpid()) is not None
    assert _sched.waited_s(2 ** 22 + 7) is None            # no such task: unknown, not 0


# A program whose main thread only waits on a worker that computes (a JVM's launcher joins
# the thread that runs `main`): the worker burns WORKER_CPU_S of its own CPU, then both end.
JOINER = """
import threading, time
def work():
    while time.thread_time() < %r:
        pass
worker = threading.Thread(target=work)
worker.start()
worker.join()
"""
WORKER_CPU_S = 0.3


def test_a_programs_threads_waits_are_taken_off_not_only_its_main_threads() -> None:
    """On a core shared with three busy loops, a program whose worker thread computes while
    its main thread waits on it is late by the worker's waits to run: its own time is about
    its CPU time, not its wall time (the main thread alone waited for nothing)."""
    cpu = {min(os.sched_getaffinity(0))}
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    try:
        for loop in busy:
            os.sched_setaffinity(loop.pid, cpu)
        program = subprocess.Popen([sys.executable, "-c", JOINER % WORKER_CPU_S])
        os.sched_setaffinity(program.pid, cpu)
        began = time.monotonic()
        by_threads = _sched.OwnTime([program.pid], began, threads=True)
        by_main = _sched.OwnTime([program.pid], began)
        while program.poll() is None:
            now = time.monotonic()
            by_threads.look([program.pid], now, busy_too=False)
            by_main.look([program.pid], now, busy_too=False)
            time.sleep(0.01)
        wall = time.monotonic() - began
    finally:
        for loop in busy:
            loop.kill()
            loop.wait()
    # Read at its last look: what it had waited until then is all it is credited.
    own_threads = max(0.0, wall - sum(by_threads.waited.values()))
    own_main = max(0.0, wall - sum(by_main.waited.values()))
    assert wall > 2 * WORKER_CPU_S, wall              # it was kept waiting
    assert own_main > 0.8 * wall, (own_main, wall)    # its main thread hardly waited
    assert own_threads < 0.6 * wall, (own_threads, wall)


# -- same inputs, same match ---------------------------------------------------------------
def _program_outputs(path: Path, runs: int) -> set[str]:
    """What `runs` starts of a Cave program print, started as the keeper starts it (its
    runtime's argv and environment; not sandboxed: only its flags are under test)."""
    described = programs.describe(path.name, path.read_bytes())
    assert described["problem"] is None, described
    argv = [str(path) if arg == programs.BOT else arg for arg in described["argv"]]
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C.UTF-8",
           **described["env"]}
    return {subprocess.run(argv, input="x\n", capture_output=True, text=True, env=env,
                           timeout=60).stdout for _ in range(runs)}


def test_a_python_program_iterates_a_set_of_strings_alike_in_every_run() -> None:
    """Started as `python3 -I -S`, which ignores PYTHONHASHSEED, it printed one of the
    set's eight orders at random: three runs of one match gave three outcomes."""
    outputs = _program_outputs(CAVE_BOTS / "set_order.py", 6)
    assert len(outputs) == 1, outputs


def test_a_perl_program_orders_a_hash_alike_in_every_run(tmp_path) -> None:
    if programs.BY_NAME["perl"].binary() is None:
        pytest.skip("perl is not installed")
    bot = tmp_path / "keys.pl"
    bot.write_text('my %h = map { $_ => 1 } qw(a b c d e f g h i j);\n'
                   'print join("", keys %h), "\\n";\n')
    outputs = _program_outputs(bot, 6)
    assert len(outputs) == 1, outputs


def test_a_cave_match_of_a_set_iterating_program_is_the_same_twice() -> None:
    game = get_game("cave")
    bots = [CAVE_BOTS / "set_order.py", CAVE_SAMPLES / "wanderer.py"]
    spec = MatchSpec("cave", game.find_map(None), [read_bot(b) for b in bots], 5,
                     game.rules("seed", max_turns=20),
                     Limits(cpu_per_call_s=1.0, wall_per_call_s=1.0, watchdog_grace_s=5.0),
                     "standard")
    first, second = run_match(spec), run_match(spec)
    assert first["moves"] == second["moves"]


def _arena_moves(*args: str) -> list:
    done = arena("run", str(HOSTILE / "set_order.py"), "hunter", "--seed", "5", "--max-turns",
                 "30", "--json", *args, env={"PYTHONHASHSEED": None})
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    return [result["turns"], result["winner"], result["moves"]]


def test_sandbox_off_plays_the_standard_modes_game(no_stray_processes) -> None:
    """A bot iterating a set of strings, in this process: off gave two outcomes in three
    runs, neither the standard mode's. `arena` now starts itself with the children's seed."""
    standard = _arena_moves()
    assert _arena_moves("--sandbox", "off") == standard
    assert _arena_moves("--sandbox", "off") == standard


def test_the_api_warns_when_off_mode_cannot_hash_as_the_children_do() -> None:
    if not sys.flags.hash_randomization:
        pytest.skip("this process already hashes with seed 0")
    with pytest.warns(RuntimeWarning, match="PYTHONHASHSEED=0"):
        play([BOTS / "turtle.py"], robots=1, turns=1, sandbox="off")


# -- arena check plays twice -----------------------------------------------------------------
RANDOM_PROGRAM = """#!/usr/bin/env python3
import random, sys
sys.stdin.read()
way = random.choice(["NN", "NE", "EE", "SE", "SS", "SW", "WW", "NW"])
print(f"M{way}M{way}")
"""


def test_check_fails_a_bot_that_plays_two_games_on_one_seed(tmp_path) -> None:
    """An unseeded generator: its two games differ (8 ways a turn, for the check's turns).
    A contestant learns it from `check`, before `replay` refuses its match or `compare`
    never finds it identical to itself."""
    bot = tmp_path / "dice.py"
    bot.write_text(RANDOM_PROGRAM)
    done = arena("check", "--game", "cave", str(bot), "--turns", "10", "--json")
    assert done.returncode == 1, done.stderr
    found = json.loads(done.stdout)
    assert (found["ok"], found["failure"], found["deterministic"]) == \
        (False, "nondeterministic", False), found
    assert found["reason"].startswith("nondeterministic: two games of seed 1 differed")
    once = arena("check", "--game", "cave", str(bot), "--turns", "10", "--json", "--once")
    assert once.returncode == 0, once.stderr
    assert json.loads(once.stdout)["deterministic"] is None


@pytest.mark.parametrize("game, bot", [("cave", CAVE_BOTS / "set_order.py"),
                                       ("arena", HOSTILE / "set_order.py")])
def test_check_passes_a_bot_that_plays_the_same_game_twice(game, bot) -> None:
    from orchestrator import api
    found = api.check(bot, game=game, turns=10, progress=False)
    assert found["ok"] and found["deterministic"] is True, found


def test_the_moves_digest_line_is_the_sorted_items_repr_it_always_was() -> None:
    """The host builds each turn's digest line from each item's repr once: the line (and so
    every stored result's `moves`) stays `repr(sorted(moves.items(), key=repr))`, for every
    game's kind of moves, ties of equal reprs and an empty turn included."""
    import random

    from orchestrator.runner.match import moves_digest_line
    rng = random.Random(44)
    turns = [{}, {(3, 4): ("move", (3, 5)), (1, 1): ("guard",)},
             {"0": [1, 2], 0: [1, 2], 1.5: "x", None: ()}]
    for _ in range(200):
        turns.append({(rng.randrange(19), rng.randrange(19)):
                      rng.choice([("guard",), ("suicide",),
                                  ("attack", (rng.randrange(19), rng.randrange(19)))])
                      for _ in range(rng.randrange(30))})
        turns.append({rng.randrange(8): rng.choice(["F", "L", "R", None, 3.5, b"\x01"])
                      for _ in range(rng.randrange(8))})
    for moves in turns:
        assert moves_digest_line(moves) == \
            (repr(sorted(moves.items(), key=repr)) + "\n").encode()
