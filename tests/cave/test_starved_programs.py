"""A program starved by a busy machine is not a hang (docs/cave.md, docs/security.md).

A JVM compiling its bot beside other work once missed its first turn on a loaded CI run,
and its game lost the turn its scratch counts games on. Two watchers judge a program's
turn, and each is tested here with starvation it cannot mistake, whatever the machine's
load: the keeper, which reads the program's CPU clock (given here: a third of a core),
and the host's watchdog, which reads the CPU of its child's whole process tree (here a
real process that computes under one that waits, as a keeper waits on its program).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox import host
from sandbox.inprocess import _botlib
from sandbox.limits import Limits

# It answers after 1.5 s of wall time, past its first turn's 1 s.
SLOW = """# cave-protocol: persistent
import sys, time
time.sleep(1.5)
for line in sys.stdin:
    if line == "\\n":
        print("HNNHNN", flush=True)
"""
LIMITS = Limits(first_wall_s=1.0)


def _runner(tmp_path: Path):
    _botlib()                         # the keeper's modules, by their own names
    from _program import Runner  # noqa: PLC0415
    bot = tmp_path / "bot.py"
    bot.write_text(SLOW)
    return Runner(["python3", str(bot)], shutil.which("python3"), LIMITS.for_child(), True,
                  str(tmp_path))


def _first_turn(tmp_path: Path, monkeypatch, share: float) -> tuple[dict, float]:
    """The first turn, the program's CPU clock reading `share` of the wall time since it
    started (0: a sleeper's; a third: starved while it computes)."""
    runner = _runner(tmp_path)
    from _program import Program  # noqa: PLC0415
    born: dict[int, float] = {}
    real_init = Program.__init__

    def init(self, *args, **kwargs) -> None:
        real_init(self, *args, **kwargs)
        born[self.pid] = time.monotonic()

    monkeypatch.setattr(Program, "__init__", init)
    monkeypatch.setattr(Program, "cpu", lambda self: share * (time.monotonic() - born[self.pid]))
    started = time.monotonic()
    try:
        return runner.turn("0,0,0\nx\n"), time.monotonic() - started
    finally:
        runner.stop()


def test_the_keeper_waits_for_a_starved_program_that_computes(tmp_path, monkeypatch) -> None:
    first, took = _first_turn(tmp_path, monkeypatch, share=1 / 3)
    assert first["moves"] == {"answer": "HNNHNN", "problem": None}, first
    assert 1.0 < took < 4 * LIMITS.first_wall_s                # past its limit, within 4x


def test_the_keeper_stops_a_program_that_uses_no_cpu_at_its_limit(tmp_path,
                                                                  monkeypatch) -> None:
    first, took = _first_turn(tmp_path, monkeypatch, share=0.0)
    assert first["moves"] == {"answer": None, "problem": "hang"}, first
    assert took < 1.0 + 0.5                                      # no probe extends it


def test_the_keeper_stops_a_program_past_its_cpu_allowance(tmp_path, monkeypatch) -> None:
    """Computing at a whole core, it has had its allowance by the deadline: a hang, as
    before, not 4x the limit."""
    first, took = _first_turn(tmp_path, monkeypatch, share=1.0)
    assert first["moves"] == {"answer": None, "problem": "hang"}, first
    assert took < 1.0 + 0.5


WAITER = "import subprocess, sys; subprocess.run([sys.executable, '-c', sys.argv[1]])"


def _watched(program: str) -> tuple[host.Child, subprocess.Popen]:
    """A host Child of an executable bot, whose keeper (here a process that waits) runs a
    program running `program`; sent its request (the CPU baseline) once the program runs,
    and its deadline past."""
    proc = subprocess.Popen([sys.executable, "-c", WAITER, program])
    child = host.Child.__new__(host.Child)
    child.pid, child.inner_pid, child.wrapped, child.executable = proc.pid, 0, False, True
    child.clock = host._harden.cpu_clock(proc.pid)
    child.cpu_used = child.cpu_seen = child._sent_at_cpu = 0.0
    child.limits = Limits(cpu_bank_s=100.0)
    child._budget = 100.0
    time.sleep(0.5)                          # the program starts
    child._progress_cpu = child.busy_cpu()
    now = time.monotonic()
    child._deadline, child._last_deadline = now - 0.01, now + 30
    return child, proc


@pytest.mark.parametrize("program, verdicts", [
    ("while True: pass", [None, None]),              # it computes: starved, looked at again
    ("import time; time.sleep(60)", ["wall-clock watchdog (hang)"]),
], ids=["computing", "sleeping"])
def test_the_hosts_watchdog_counts_an_executable_bots_programs(program, verdicts) -> None:
    child, proc = _watched(program)
    try:
        seen = []
        for _ in verdicts:
            time.sleep(0.3)
            seen.append(child.overrun())
            child._deadline = time.monotonic() - 0.01
        assert seen == verdicts
    finally:
        host.kill_tree(proc.pid)
        proc.wait()
