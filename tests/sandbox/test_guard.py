"""A standard child's guard (`_runtime.Guard`): each bot call's limits, with no system call
per call. Run here, in the test's process, on the guard's own signals and timers."""
from __future__ import annotations

import gc
import signal
import time
from collections.abc import Iterator

import pytest

from sandbox.botlib import child_module

runtime = child_module("_runtime")


class Ended(runtime.Fatal):
    """What `on_fatal` raises here, where a child would report and exit (a Fatal: the
    guarded call lets it through)."""


@pytest.fixture
def guards() -> Iterator[list]:
    """Guards made by the test; their timers and handlers are undone after it."""
    made: list = []
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGPROF, signal.SIGALRM)}
    collecting = gc.isenabled()
    yield made
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)
    for sig, handler in handlers.items():
        signal.signal(sig, handler)
    if collecting:
        gc.enable()


def _guard(made: list, cpu: float, wall: float, **limits: float):
    def fatal(reason: str) -> None:
        raise Ended(reason)
    guard = runtime.Guard(cpu, wall, fatal, {"watchdog_grace_s": 0.0, **limits})
    made.append(guard)
    return guard


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_request_of_many_calls_arms_its_timers_once(guards, monkeypatch) -> None:
    """Robot Game asks one call per robot, and the old guard armed two timers per call
    (440 system calls here). 200 calls and their requests' ends arm each timer once; each
    call reads the CPU clock once."""
    armed: list[int] = []
    setitimer = runtime.signal.setitimer
    monkeypatch.setattr(runtime.signal, "setitimer",
                        lambda which, *args: (armed.append(which), setitimer(which, *args))[1])
    guard = _guard(guards, 1.0, 5.0)
    for _ in range(20):
        for call in range(10):
            guard.soft = 0.3 if call else None
            assert runtime.guarded(guard, lambda c=call: c * 2) == (call * 2, None)
        guard.disarm()
    assert sorted(armed) == [signal.ITIMER_REAL, signal.ITIMER_PROF]


def test_the_soft_limit_of_a_late_call_counts_that_call_alone(guards) -> None:
    """The CPU timer ticks through the request; the soft limit is judged from the call's
    own CPU (the clock since it began), not the request's: after calls that used more
    than the soft limit in all, a call is stopped once it alone used it, not before."""
    guard = _guard(guards, 2.0, 30.0)
    guard.soft = 0.2
    for _ in range(30):                  # 0.24 s in all, each call far below its limit
        assert runtime.guarded(guard, lambda: _spin(0.008)) == (None, None)
    began = time.process_time()
    with pytest.raises(runtime.TimeLimit):
        runtime.guarded(guard, lambda: _spin(1.5))
    used = time.process_time() - began
    assert guard.fired
    assert 0.2 <= used < 0.2 + 0.1, used          # a tick or two past it, at most


def test_the_hard_limit_ends_the_bot(guards) -> None:
    guard = _guard(guards, 0.15, 30.0)
    for _ in range(20):
        runtime.guarded(guard, lambda: _spin(0.005))
    began = time.process_time()
    with pytest.raises(Ended, match="cpu time limit"):
        runtime.guarded(guard, lambda: _spin(2.0))
    assert 0.15 <= time.process_time() - began < 0.15 + 0.1


def test_every_call_gets_the_whole_wall_backstop(guards) -> None:
    """The wall backstop is armed once: one that fires in a later call is re-armed for
    what that call has left, one that fires between calls at the next call. Each call
    still gets exactly the backstop (4 x its wall limit here), no more."""
    guard = _guard(guards, 1.0, 0.25)          # a backstop of 1 s
    assert guard.backstop == pytest.approx(1.0)
    runtime.guarded(guard, lambda: time.sleep(0.6))
    runtime.guarded(guard, lambda: time.sleep(0.6))   # past 1 s since the first: re-armed
    guard.disarm()
    time.sleep(1.2)                            # it fires here, between calls
    runtime.guarded(guard, lambda: time.sleep(0.6))   # armed anew
    began = time.monotonic()
    with pytest.raises(Ended, match="wall time limit"):
        runtime.guarded(guard, lambda: time.sleep(10))
    assert 0.9 < time.monotonic() - began < 5           # a hang guard, not a measure
