"""A program starved by a busy machine is not a hang (docs/cave.md, docs/security.md).

A JVM compiling its bot beside other work once missed its first turn on a loaded CI run,
and its game lost the turn its scratch counts games on. A program's turn is judged by its
own time: its wall time less the time it waited to run, as the kernel counts it
(`_sched`). Two watchers judge it, and each is tested here with starvation it cannot
mistake, whatever the machine's load: the keeper where /proc shows the program's waits
(`--sandbox off`; given here), or, in a sandbox (no /proc), when the host says so on its
pipe; and the host's watchdog, which reads the waits of its child's whole process tree
(here a real process under one that waits, as a keeper waits on its program).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from sandbox import host, processes
from sandbox.inprocess import child_runtime
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
# The keeper's last look used to come at 4x the limit. A turn ended sooner than the answer
# (1.5 s) shows in its "hang"; the wall bound is a hang guard under that last look, wide
# enough for a loaded machine's start of the program (the waits here are the test's own).
EXTENDED_S = 3 * LIMITS.first_wall_s


def _runner(tmp_path: Path):
    child_runtime()                         # the keeper's modules, by their own names
    from _program import Runner  # noqa: PLC0415
    bot = tmp_path / "bot.py"
    bot.write_text(SLOW)
    return Runner(["python3", str(bot)], shutil.which("python3"), LIMITS.for_child(), True,
                  str(tmp_path))


def _first_turn(tmp_path: Path, monkeypatch, waited: float | None, cpu_share: float = 0.0,
                interrupt_after: float | None = None) -> tuple[dict, float]:
    """The first turn, the kernel reporting that the program waited to run `waited` of
    the wall time since it started (None: no /proc, as in a sandbox), its CPU clock
    reading `cpu_share` of it; the host saying "overtime" `interrupt_after` s in."""
    runner = _runner(tmp_path)
    import _program  # noqa: PLC0415
    import _sched  # noqa: PLC0415
    import _wire  # noqa: PLC0415
    born: dict[int, float] = {}
    real_init = _program.Program.__init__

    def init(self, *args, **kwargs) -> None:
        real_init(self, *args, **kwargs)
        born[self.pid] = time.monotonic()

    def waited_s(pid, kept=None):
        return None if waited is None else waited * (time.monotonic() - born[pid])

    monkeypatch.setattr(_program.Program, "__init__", init)
    monkeypatch.setattr(_program.Program, "cpu",
                        lambda self: cpu_share * (time.monotonic() - born[self.pid]))
    def task_waits(pid):                # the program's threads: its main one
        return None if waited is None else {pid: waited_s(pid)}

    monkeypatch.setattr(_sched, "waited_s", waited_s)
    monkeypatch.setattr(_sched, "task_waits", task_waits)
    monkeypatch.setattr(_sched, "runnable", lambda pid: False)
    monkeypatch.setattr(_sched, "any_runnable", lambda pid: False)
    host_end, keeper_end = os.pipe()
    runner.interrupt = host_end
    # The clock starts before the host's word is scheduled, so the word never comes sooner.
    started = time.monotonic()
    if interrupt_after is not None:
        def tell() -> None:
            time.sleep(interrupt_after)
            _wire.write_frame(keeper_end, {_sched.OVERTIME: True})
        import threading  # noqa: PLC0415
        threading.Thread(target=tell, daemon=True).start()
    try:
        return runner.turn("0,0,0\nx\n"), time.monotonic() - started
    finally:
        runner.stop()
        os.close(host_end)
        os.close(keeper_end)


def test_the_keeper_waits_for_a_starved_program(tmp_path, monkeypatch) -> None:
    """Two thirds of its wall time waiting to run: 0.5 s of its own by the answer."""
    first, took = _first_turn(tmp_path, monkeypatch, waited=2 / 3, cpu_share=1 / 3)
    assert first["moves"] == {"answer": "HNNHNN", "problem": None}, first
    assert 1.0 < took < 4 * LIMITS.first_wall_s                # past its limit, within 4x


def test_the_keeper_stops_a_sleeping_program_at_its_limit_whatever_its_cpu(
        tmp_path, monkeypatch) -> None:
    """It never waited to run: a sleeper, though it used a third of a core (which the
    old keeper took for a starved program's progress)."""
    first, took = _first_turn(tmp_path, monkeypatch, waited=0.0, cpu_share=1 / 3)
    assert first["moves"] == {"answer": None, "problem": "hang"}, first
    assert took < EXTENDED_S                                     # no look extends it


def test_the_keeper_stops_a_program_past_its_cpu_allowance(tmp_path, monkeypatch) -> None:
    """Computing at a whole core, it has had its allowance by the deadline: a hang, as
    before, not 4x the limit."""
    first, took = _first_turn(tmp_path, monkeypatch, waited=0.0, cpu_share=1.0)
    assert first["moves"] == {"answer": None, "problem": "hang"}, first
    assert took < EXTENDED_S


def test_in_a_sandbox_the_keeper_ends_the_turn_when_the_host_says_so(tmp_path,
                                                                     monkeypatch) -> None:
    """No /proc: the keeper cannot judge, and waits for the host's word (here 1.2 s in)."""
    first, took = _first_turn(tmp_path, monkeypatch, waited=None, interrupt_after=1.2)
    assert first["moves"] == {"answer": None, "problem": "hang"}, first
    assert 1.2 <= took < EXTENDED_S                     # the host's word, not its own look


WAITER = "import subprocess, sys; subprocess.run([sys.executable, '-c', sys.argv[1]])"


def _watched(program: str) -> tuple[host.Child, subprocess.Popen, int]:
    """A host Child of an executable bot, whose keeper (here a process that waits) runs a
    program running `program`; sent its request once the program runs, its 0.2 s wall
    limit past. Returns it, its keeper, and the end of its pipe the keeper would read."""
    proc = subprocess.Popen([sys.executable, "-c", WAITER,
                             f"print('runs', flush=True)\n{program}"], stdout=subprocess.PIPE)
    child = host.Child.__new__(host.Child)
    child.pid, child.inner_pid, child.wrapped, child.executable = proc.pid, 0, False, True
    child.clock = host._harden.cpu_clock(proc.pid)
    child.cpu_used = child.cpu_seen = child._sent_at_cpu = 0.0
    child.limits = Limits(cpu_bank_s=100.0, watchdog_grace_s=0.5)
    child._budget = 100.0
    keeper_end, child.down_w = os.pipe()
    assert proc.stdout.readline() == b"runs\n"     # the program runs (its keeper waits)
    proc.stdout.close()
    now = time.monotonic()
    child._own = host._sched.OwnTime(child._timed_pids(), now)
    child._wall, child._told, child._banked, child.own_used = 0.2, False, False, 0.0
    child._deadline, child._last_deadline = now + 0.2, now + 30
    return child, proc, keeper_end


def test_the_hosts_watchdog_counts_an_executable_bots_programs() -> None:
    """A computing program (runnable whenever looked at) is looked at again; a sleeping
    one's keeper is told its turn is over, and the child is ended if it does not answer
    within the grace."""
    child, proc, keeper_end = _watched("while True: pass")
    try:
        time.sleep(0.4)
        assert [child.overrun(), child.overrun()] == [None, None]
        assert not child._told
    finally:
        processes.kill_tree(proc.pid)
        proc.wait()
        os.close(keeper_end)
        os.close(child.down_w)
    child, proc, keeper_end = _watched("import time; time.sleep(60)")
    wire = host._wire
    try:
        time.sleep(0.4)
        assert child.overrun() is None and child._told
        assert wire.read_frame(keeper_end, 1024) == {"overtime": True}
        time.sleep(0.6)
        assert child.overrun() == "wall-clock watchdog (hang)"
    finally:
        processes.kill_tree(proc.pid)
        proc.wait()
        os.close(keeper_end)
        os.close(child.down_w)


def test_a_python_childs_watchdog_ends_a_sleeper_at_its_own_time() -> None:
    """A Python bot's child that sleeps is ended at its wall limit, as the host measures it."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    child = host.Child.__new__(host.Child)
    child.pid, child.inner_pid, child.wrapped, child.executable = proc.pid, 0, False, False
    child.clock = host._harden.cpu_clock(proc.pid)
    child.cpu_used = child.cpu_seen = child._sent_at_cpu = 0.0
    child.limits = Limits(cpu_bank_s=100.0)
    child._budget = 100.0
    try:
        now = time.monotonic()
        child._own = host._sched.OwnTime(child._timed_pids(), now)
        child._wall, child._told, child._banked, child.own_used = 0.3, False, False, 0.0
        child._deadline, child._last_deadline = now + 0.3, now + 30
        time.sleep(0.1)
        assert child.overrun() is None
        time.sleep(0.3)
        assert child.overrun() == "wall time limit (hang)"
    finally:
        processes.kill_tree(proc.pid)
        proc.wait()
