"""A standard child's guard (`_runtime.Guard`): each bot call's limits, with no system call
per call. Run here, in the test's process, on the guard's own signals and timers."""
from __future__ import annotations

import gc
import signal
import threading
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


def test_every_call_gets_the_whole_wall_backstop(guards, monkeypatch) -> None:
    """The wall backstop is armed once: one that fires in a later call is re-armed for
    what that call has left, one that fires between calls at the next call. Each call
    still gets exactly the backstop (4 x its wall limit here), no more. Driven on a
    clock of the test's own (the timer's expiries delivered by hand), so a busy machine
    that oversleeps cannot change the verdict."""
    now = [100.0]
    armed: list[tuple[int, float]] = []
    monkeypatch.setattr(runtime, "_wall_now", lambda: now[0])
    setitimer = runtime.signal.setitimer
    monkeypatch.setattr(runtime.signal, "setitimer", lambda which, first, *rest: (
        armed.append((which, first)) if which == signal.ITIMER_REAL
        else setitimer(which, first, *rest)))
    guard = _guard(guards, 1.0, 0.25)          # a backstop of 1 s
    assert guard.backstop == pytest.approx(1.0)

    def call(lasting: float, expiries: tuple[float, ...] = ()) -> None:
        """A call of `lasting` s on the test's clock; the timer fires at `expiries`."""
        def body() -> None:
            began = now[0]
            for at in expiries:
                now[0] = began + at
                guard._wall_expired()
            now[0] = began + lasting
        assert runtime.guarded(guard, body) == (None, None)
        guard.disarm()

    call(0.6)
    assert armed == [(signal.ITIMER_REAL, 1.0)]            # armed once, at the first call
    call(0.6, expiries=(0.4,))                 # fires 1 s after the first began: re-armed
    assert armed[1:] == [(signal.ITIMER_REAL, pytest.approx(0.6))]   # for the call's rest
    now[0] += 1.2
    guard._wall_expired()                      # fires between calls: noted, not re-armed
    assert len(armed) == 2
    call(0.6)
    assert armed[2:] == [(signal.ITIMER_REAL, 1.0)]        # armed anew at the next call
    with pytest.raises(Ended, match="wall time limit"):
        call(10, expiries=(0.4, 1.0))          # re-armed for 0.6, then the call's 1 s is up
    assert armed[3:] == [(signal.ITIMER_REAL, pytest.approx(0.6))]


def test_a_hung_call_ends_at_its_wall_backstop(guards) -> None:
    """The same backstop on the real timer: a call that sleeps is ended by it."""
    guard = _guard(guards, 1.0, 0.25)
    began = time.monotonic()
    with pytest.raises(Ended, match="wall time limit"):
        runtime.guarded(guard, lambda: time.sleep(10))
    assert 0.9 < time.monotonic() - began < 9           # a hang guard, not a measure


def test_the_host_reads_each_childs_run_queue_wait_from_one_open_file(monkeypatch) -> None:
    """The host looks at a child's /proc/PID/schedstat as it sends each request (the
    request's own time, `_sched.OwnTime`): from a file opened once per child, read again
    from its start, not opened and closed per request (4 us of the host's per look). So
    is the host thread's own, read at every poll (a reply's time less the host's wait)."""
    from orchestrator.games import get_game  # noqa: PLC0415
    from orchestrator.runner.bots import read_bot  # noqa: PLC0415
    from orchestrator.runner.match import MatchSpec, run_match  # noqa: PLC0415
    from tests.support.paths import ROOT  # noqa: PLC0415

    sched = child_module("_sched")
    opened: list[str] = []
    read = sched._read
    monkeypatch.setattr(sched, "_read", lambda path: (opened.append(path), read(path))[1])
    kept = getattr(sched, "KeptFile", None)
    monkeypatch.setattr(sched, "KeptFile", lambda pid: (opened.append(pid), kept(pid))[1],
                        raising=False)
    game = get_game("robotgame")
    bot = read_bot(ROOT / "bots" / "robotgame" / "example.py", "robotgame")
    result = run_match(MatchSpec("robotgame", game.find_map(None), [bot, bot], 7,
                                 game.rules("rgkit", max_turns=30), sandbox="standard"))
    assert result["turns"] == 30, result
    host = threading.get_native_id()          # the host's own wait, read at every poll
    files = [p for p in opened if "schedstat" in str(p) or isinstance(p, int)]
    assert len([p for p in files if p != host]) <= 2 and files.count(host) <= 1, files
