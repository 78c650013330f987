"""A program starved by a busy machine is not a hang (docs/security.md, "wall limits").

A JVM compiling its bot beside other work once missed its first turn on a loaded CI run,
and its game lost the turn its scratch counts games on. Here the starvation is real and
made on purpose: a thread stops and continues the program (SIGSTOP, SIGCONT), so that it
gets at most a third of a core, as on a machine with three times more work than cores.
"""
from __future__ import annotations

import shutil
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil

from orchestrator.bots import read_bot
from orchestrator.games import get_game
from orchestrator.match import MatchSpec, run_match
from sandbox.inprocess import _botlib
from sandbox.limits import Limits

# Before its first answer it computes for 1.5 s of wall time: alone, that is more CPU than
# its first turn's limit (1 s) allows, a hang; starved to a third of a core it is less,
# and it answers within 4x the limit whatever else the machine runs.
STARVED = """# cave-protocol: persistent
import sys, time
end = time.monotonic() + 1.5
while time.monotonic() < end:
    pass
for line in sys.stdin:
    if line == "\\n":
        print("HNNHNN", flush=True)
"""
SLEEPER = """# cave-protocol: persistent
import sys, time
time.sleep(30)
"""


@contextmanager
def starved(find: Callable[[], int | None], on_s: float = 0.05,
            off_s: float = 0.1) -> Iterator[None]:
    """While inside: once `find` names a pid, that process runs `on_s` of every
    `on_s + off_s` seconds."""
    done = threading.Event()

    def throttle() -> None:
        pid = None
        while not done.is_set() and pid is None:
            pid = find()
            time.sleep(0.005)
        while pid is not None and not done.is_set():
            try:
                psutil.Process(pid).send_signal(signal.SIGSTOP)
                done.wait(off_s)
                psutil.Process(pid).send_signal(signal.SIGCONT)
            except psutil.Error:
                return
            done.wait(on_s)

    thread = threading.Thread(target=throttle, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def _runner(tmp_path: Path, source: str, limits: Limits):
    _botlib()                         # the keeper's modules, by their own names
    from _program import Runner  # noqa: PLC0415
    bot = tmp_path / "bot.py"
    bot.write_text(source)
    return Runner(["python3", str(bot)], shutil.which("python3"), limits.for_child(), True,
                  str(tmp_path))


def test_the_keeper_waits_for_a_starved_program_that_computes(tmp_path) -> None:
    runner = _runner(tmp_path, STARVED, Limits(first_wall_s=1.0))
    started = time.monotonic()
    try:
        with starved(lambda: runner.program.pid if runner.program else None):
            first = runner.turn("0,0,0\nx\n")
    finally:
        runner.stop()
    assert first["moves"] == {"answer": "HNNHNN", "problem": None}, first
    # Past its wall limit, and answered before four of them.
    assert 1.0 < time.monotonic() - started < 4.0 + 1.0


def test_the_keeper_still_stops_a_program_that_sleeps_past_its_limit(tmp_path) -> None:
    runner = _runner(tmp_path, SLEEPER, Limits(first_wall_s=1.0))
    started = time.monotonic()
    try:
        first = runner.turn("0,0,0\nx\n")
    finally:
        runner.stop()
    assert first["moves"] == {"answer": None, "problem": "hang"}, first
    assert time.monotonic() - started < 1.0 + 1.0      # no probe extends a sleeper


def _program_named(name: str) -> Callable[[], int | None]:
    def find() -> int | None:
        for process in psutil.process_iter(["cmdline"]):
            if any(arg.endswith("/" + name) for arg in process.info["cmdline"] or ()):
                return process.pid
        return None
    return find


def test_a_starved_program_plays_its_first_turn_in_the_sandbox(tmp_path) -> None:
    """The host's watchdog (a turn's wall plus its grace: 1 s here) counts the program's
    work as its child's: the keeper waits while the program computes, and so does the
    host, so the program plays every turn and is not erased."""
    name = f"starved_{uuid.uuid4().hex}.py"
    bot = tmp_path / name
    bot.write_text(STARVED)
    game = get_game("cave")
    limits = Limits(cpu_per_call_s=1.0, wall_per_call_s=0.5, watchdog_grace_s=0.5,
                    first_wall_s=1.0, memory_mb=160)
    spec = MatchSpec("cave", game.find_map(None), [read_bot(bot)], 1,
                     game.rules("seed", max_turns=3), limits)
    with starved(_program_named(name)):
        result = run_match(spec)
    (me,) = result["players"]
    assert me["status"] == "ok", me
    assert me["stats"]["decisions"] == 3 and me["stats"]["faults"] == {}, me
