"""`--sandbox match`, inside the jail: every bot of the match in one process, with its rules.

The jail (`sandbox/_jailzygote.py`) runs its caller's job, which plays the match with these
players (the orchestrator's `run_match`, told to by `orchestrator/runner/jail_job.py`); the jail
sets up `STATE` and the clocks around it. Each keeps what a standard child keeps for its
bot: the per-call CPU and wall limits (the guard, whose soft limit makes Robot Game's
guard-on-timeout), the per-match CPU bank, the per-request CPU budget the host would
apply, captured output, rule-1 warnings and the refused attempts.
A bot's CPU is counted in ticks of one CPU timer that runs through the match (no system call
per call), charged to the bot whose code runs.

Before any bot code runs, the jail writes which bot it is, what it is doing (loading,
starting, a request of so many calls) and the turn into a page the host shares (`Marker`):
the host's watchdog sizes its limits from it. What leaves the jail dirty (threads left
running, memory past a bot's cap, a write to the host's pipe) ends the jail (`Poisoned`).
The host charges no bot on the page's word, nor on anything else the jail says: a jail that
fails, or whose result names a failed bot, has its match played again in the standard mode.
"""
from __future__ import annotations

import _thread
import contextlib
import fcntl
import importlib.util
import os
import resource
import signal
import struct
import sys
import termios
import time
from gc import disable as _gc_disable
from gc import enable as _gc_enable
from gc import isenabled as _gc_isenabled
from typing import TYPE_CHECKING

from sandbox.botlib import child_module
from sandbox.frames import BotSpec, side_parts, start_frame
from sandbox.inprocess import ProgramPlayer, child_runtime
from sandbox.limits import Limits
from sandbox.players import Exchanged, Payloads, Seats
from sandbox.replies import Reply, checked_reply

# The marker page: a sequence number (odd while being written), the seat, how many times
# its code has been entered, the kind of entry, the calls of the request, the turn.
MARKER = struct.Struct("<qiiiii")
IDLE, LOADING, STARTING, CALLING, POISONED = 0, 1, 2, 3, 4
REASON_AT = 64           # a poisoned jail's reason: UTF-8 from here, NUL-ended
if TYPE_CHECKING:
    import _sched
else:
    _sched = child_module("_sched")
TICK_S = 0.005           # the jail's CPU timer: a bot's CPU is counted in these
WALL_TICK_S = 0.05       # the jail's wall timer


def _hang_reason() -> str:
    """A JailGuard's reason past a request's own-time limit (a callable: past the bank's,
    the reason says the figure then)."""
    return "wall time limit (hang)"


class Poisoned(Exception):
    """A bot left the jail unfit to go on: (seat, entry, reason). The jail ends, and its
    match is played again in the standard mode."""


class Marker:
    """Which bot's code is running, in a page the host reads even after the jail died."""

    def __init__(self, page) -> None:
        self.page = page
        self.seq = 0

    def write(self, seat: int, entry: int, kind: int, calls: int = 0, turn: int = 0) -> None:
        self.seq += 2
        self.page[:MARKER.size] = MARKER.pack(self.seq - 1, seat, entry, kind, calls, turn)
        self.page[:8] = struct.pack("<q", self.seq)

    def idle(self) -> None:
        self.write(-1, 0, IDLE)

    def poison(self, seat: int, entry: int, reason: str) -> None:
        """The jail ends here: `seat`, at its `entry`-th entry, is charged with `reason`."""
        data = reason.encode()[:200] + b"\0"
        self.page[REASON_AT:REASON_AT + len(data)] = data
        self.write(seat, entry, POISONED)


def poison_reason(page) -> str:
    data = page[REASON_AT:REASON_AT + 256]
    return data[:data.find(b"\0")].decode(errors="replace") if b"\0" in data else "crash"


def map_page(fd: int):
    """The host's page, mapped shared, without the descriptor Python's mmap would keep."""
    import ctypes
    import mmap
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                          ctypes.c_int, ctypes.c_long)
    address = libc.mmap(None, mmap.PAGESIZE, mmap.PROT_READ | mmap.PROT_WRITE,
                        mmap.MAP_SHARED, fd, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "mmap of the marker page")
    return memoryview((ctypes.c_char * mmap.PAGESIZE).from_address(address)).cast("B")


def read_marker(page) -> tuple[int, int, int, int, int, int]:
    """(seq, seat, entry, kind, calls, turn), read until it is not mid-write."""
    while True:
        fields = MARKER.unpack(page[:MARKER.size])
        if fields[0] % 2 == 0:
            return fields


class JailState:
    """What outlives the attempts of one jail's match: entries per seat, the record of
    refused attempts."""

    def __init__(self, marker: Marker, attempts, turn_of=lambda: 0, out_fd: int = -1) -> None:
        self.marker = marker
        self.out_fd = out_fd
        self.attempts = attempts
        self.entries: dict[int, int] = {}
        self.peak_mb = _memory_mb()
        self.turn_of = turn_of

    def enter(self, seat: int, kind: int, calls: int = 0) -> None:
        """Mark `seat`'s code as running."""
        entry = self.entries[seat] = self.entries.get(seat, 0) + 1
        self.marker.write(seat, entry, kind, calls, self.turn_of())

    def memory_growth(self) -> float:
        """MiB the jail's peak grew by since the last look (charged to the bot that ran)."""
        peak = _memory_mb()
        grown, self.peak_mb = peak - self.peak_mb, peak
        return grown

    def poison(self, seat: int, reason: str) -> Poisoned:
        return Poisoned(seat, self.entries.get(seat, 0), reason)

    def pipe_touched(self) -> bool:
        """Whether anything waits in the pipe to the host, which nothing of the jail's own
        writes to before the match ends: a bot wrote there."""
        if self.out_fd < 0:
            return False
        try:
            return struct.unpack("i", fcntl.ioctl(self.out_fd, termios.FIONREAD,
                                                  b"\0\0\0\0"))[0] > 0
        except OSError:
            return False


STATE: JailState | None = None          # set by the jail before run_match


def _state() -> JailState:
    """The jail's state of the match being played (`STATE`)."""
    if STATE is None:
        raise RuntimeError("no jail state: the jail sets STATE before it plays a match")
    return STATE


_running: list = [None]                  # the guard of the bot whose code runs


def install_handlers() -> None:
    """The CPU and wall timers' handlers, once, before seccomp (which then forbids
    replacing them): they pass each expiry to the guard of the bot that is running."""
    def cpu(*args):
        if _running[0] is not None:
            _running[0]._cpu_expired(*args)

    def wall(*args):
        if _running[0] is not None:
            _running[0]._wall_tick()
    signal.signal(signal.SIGPROF, cpu)
    signal.signal(signal.SIGALRM, wall)


def start_clocks() -> None:
    """Both timers tick from now until `stop_clocks`, whoever runs: no system call per
    request or per call. Started once the jail is built (a tick interrupts a system call,
    and the layers' own calls are not retried)."""
    signal.setitimer(signal.ITIMER_PROF, TICK_S, TICK_S)
    signal.setitimer(signal.ITIMER_REAL, WALL_TICK_S, WALL_TICK_S)


def stop_clocks() -> None:
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)


_GUARDS: dict = {}


def _guard_class(runtime):
    """The jail's Guard. Its handlers are `install_handlers`'s. Its CPU timer ticks every
    TICK_S of CPU through the whole request, and a call's CPU is the ticks since it began:
    no system call per call, where a standard child arms a timer for each (a Robot Game
    request is one short call per robot; in one process for the whole match those system
    calls were a fifth of its time). The wall timer covers the request, all its calls.
    The garbage collector is the bot's for the whole request, not per call: a finalizer
    of the bot's that runs in the runtime's code between calls is still charged to it,
    as the marker names it."""
    if runtime in _GUARDS:
        return _GUARDS[runtime]

    class JailGuard(runtime.Guard):
        def __init__(self, cpu, wall, on_fatal, limits):
            self.cpu, self.wall, self.on_fatal, self.limits = cpu, wall, on_fatal, limits
            self.soft, self.fired, self._soft_armed = None, False, False
            self._in_call, self._bot_gc = False, True
            self._ticks = self._began = self._wall_ticks = self._request_ticks = 0
            self._wall_budget, self._wall_reason = wall, _hang_reason

        def start_request(self, budget, reason=_hang_reason):
            """A request of `budget` wall seconds (its own time's limit, or what is left of
            the bank: `reason` says which) begins."""
            self._wall_ticks, self._request_ticks = 0, self._ticks
            self._wall_budget, self._wall_reason = budget, reason
            if self._bot_gc:
                _gc_enable()

        def disarm(self):
            """The end of a call: the clocks tick on."""
            self._in_call = False

        def end_request(self):
            self._in_call = False
            self._bot_gc = _gc_isenabled()
            _gc_disable()

        def _wall_tick(self):
            self._wall_ticks += 1
            if not self._in_call:
                return
            wall = self._wall_ticks * WALL_TICK_S
            if self._wall_reason is _hang_reason:
                # Time it computed is the CPU limits' (as the host spares a running child).
                wall -= (self._ticks - self._request_ticks) * TICK_S
            if wall >= self._wall_budget:
                self.on_fatal(self._wall_reason())

        def _cpu_expired(self, *_):
            self._ticks += 1
            if not self._in_call:
                return
            used = (self._ticks - self._began) * TICK_S
            if self._soft_armed and used >= self.soft:
                self._soft_armed = False
                self.fired = True
                raise runtime.TimeLimit("act went past its time limit")
            if used >= self.cpu:
                self.on_fatal("cpu time limit")

        def __enter__(self):
            self.fired = False
            self._began = self._ticks
            self._soft_armed = self.soft is not None and self.soft < self.cpu
            self._in_call = True

        def __exit__(self, *exc):
            self._in_call = False
    _GUARDS[runtime] = JailGuard
    return JailGuard


def prepare() -> None:
    """The jail's Guard class made once, in the jail's holder: each match's process is
    forked from there, and would otherwise make it anew."""
    _guard_class(child_runtime())


def _memory_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class GuardedPlayer:
    """One Python bot in the jail, with a standard child's per-bot rules."""

    def __init__(self, bot_side: str, bot: BotSpec, seat: int, limits: Limits) -> None:
        self.runtime_mod = runtime = child_runtime()
        self.seat, self.limits = seat, limits
        self.cpu_used = 0.0
        self.own_used = 0.0                # its requests' wall ticks: the jail has no /proc
        self.peak_rss_mb = 0.0             # a share of one process: not measured per bot
        self.memory_mb = 0.0               # the peak growth its calls caused
        self.requests = 0
        self.dead: str | None = None
        self.fatal: str | None = None
        self.game = runtime.bot_side(*side_parts(bot_side))
        self.guard = _guard_class(runtime)(limits.cpu_per_call_s, limits.wall_per_call_s,
                                   self._on_fatal, limits.for_child())
        self.output = runtime.CappedOutput(limits.output_bytes)
        self.startup_violations: list[str] = []
        _state().attempts.take()
        _state().enter(seat, LOADING)
        with self._bot_running():
            self.module = runtime.load_checked(self.game, bot.source, bot.filename,
                                               self.guard, module_name=f"bot_{seat}")
        self.startup_output = self.output.take()
        self.startup_violations = [str(v)[:100] for v in _state().attempts.take()][:20]
        self.watch = runtime.module_watch(self.game, self.module)

    def _on_fatal(self, reason: str) -> None:
        """A limit fired in the bot's code: raise (and at every tick after, if the bot
        catches it)."""
        self.fatal = self.fatal or reason
        raise self.runtime_mod.Fatal(self.fatal)

    def _enter_bot(self, calls: int, request: bool = False) -> tuple:
        """The bot's output captured and its guard's handlers in place; what `_leave_bot`
        puts back. Plain calls, not a context manager: a generator's context per request
        would cost a tenth of what the jail's players add to a Robot Game's turns.
        A `request`'s wall time is its own time here (no /proc shows its waits), and is
        bounded by what is left of the own bank too: past either, the jail's result names
        the bot, and the standard mode plays the match again and judges it."""
        guard = self.guard
        _running[0] = guard
        saved = sys.stdout, sys.stderr, guard._ticks
        sys.stdout = sys.stderr = self.output
        limits = self.limits
        budget = limits.request_own_s(calls)
        left = limits.own_bank_s - self.own_used
        if request and left < budget:
            guard.start_request(left, lambda: _sched.bank_reason(
                self.own_used + guard._wall_ticks * WALL_TICK_S, limits.own_bank_s))
        else:
            guard.start_request(budget)
        return saved

    def _leave_bot(self, saved: tuple, request: bool = False) -> None:
        """The bot's code's CPU time and memory growth charged to it (a request's wall time
        too); the marker idle."""
        guard = self.guard
        guard.end_request()
        if request:
            self.own_used += guard._wall_ticks * WALL_TICK_S
        _running[0] = None
        sys.stdout, sys.stderr, ticks = saved
        self.cpu_used += (guard._ticks - ticks) * TICK_S
        self.memory_mb += _state().memory_growth()
        _state().marker.idle()

    @contextlib.contextmanager
    def _bot_running(self, calls: int = 1):
        """`_enter_bot` and `_leave_bot` around the block (loading and starting)."""
        saved = self._enter_bot(calls)
        try:
            yield
        finally:
            self._leave_bot(saved)

    def start(self, names: list[str], ai: int, key: str, info: dict | None = None) -> None:
        _state().enter(self.seat, STARTING)
        try:
            with self._bot_running():
                self.runtime = self.runtime_mod.start_runtime(
                    self.game, self.module, start_frame(names, ai, key, info), self.guard)
        except BaseException:     # not described: its __str__ would be the bot's code
            self.dead = self.fatal or "crash: the bot's module raised as the match started"

    def call(self, payload: dict, calls: int) -> dict:
        runtime, limits = self.runtime_mod, self.limits
        if self.dead:
            raise runtime.Fatal(self.dead)
        _state().enter(self.seat, CALLING, calls)
        budget = limits.request_cpu_s(calls, first=self.requests == 0)
        self.requests += 1
        _state().attempts.take()
        started, cpu = time.perf_counter(), self.cpu_used
        threads = _thread_count()
        problem: str | None
        try:
            saved = self._enter_bot(calls, request=True)
            try:
                reply = self.runtime.handle(payload)
            finally:
                self.guard.disarm()
                self._leave_bot(saved, request=True)
        except runtime.Fatal as exc:
            reply, problem = None, self.fatal or str(exc)
        except BaseException as exc:
            reply, problem = None, self.fatal or f"crash: {runtime.describe_error(exc)}"
        else:
            problem = self.fatal
        if _state().pipe_touched():
            raise _state().poison(self.seat, "protocol: wrote to the host's pipe")
        if _thread_count() > threads:
            raise _state().poison(self.seat, "threads kept running after move() returned")
        if self.memory_mb > limits.memory_mb * limits.memory_alarm:
            raise _state().poison(self.seat, "memory limit")
        if problem is None and self.cpu_used - cpu > budget:
            problem = "cpu time limit"
        if problem is None and self.cpu_used > limits.cpu_bank_s:
            problem = "cpu bank exhausted"
        if problem is None and self.own_used > limits.own_bank_s:
            problem = _sched.bank_reason(self.own_used, limits.own_bank_s)
        if problem is not None:
            self.dead = problem
            raise runtime.Fatal(problem)
        return runtime.finish_reply(reply, self.watch, self.output, _state().attempts, started)

    def kill(self) -> None:
        """Its module goes with the attempt."""
        sys.modules.pop(f"bot_{self.seat}", None)

    def usage(self) -> tuple[float, float, float]:
        return self.cpu_used, self.peak_rss_mb, self.own_used


def _thread_count() -> int:
    return _thread._count()


class Libraries:
    """What the bots of a match import: the libraries of the bots' folder (`rg`,
    `roborally`, ...) and the games' bot sides (which bind them), executed in fresh module
    objects when first imported, from code compiled once in the zygote, so that no file is
    read. The jail installs this finder before it forks its matches' processes, which
    import none of them: each match imports them anew."""

    def __init__(self, botlib: str, sides: list[str]) -> None:
        self.code: dict[str, tuple] = {}
        for folder, dirs, files in os.walk(botlib):
            dirs[:] = [d for d in dirs if os.path.exists(os.path.join(folder, d,
                                                                      "__init__.py"))]
            package = os.path.relpath(folder, botlib).replace(os.sep, ".")
            for file in files:
                stem, dot, ext = file.partition(".")
                if ext != "py":
                    continue
                name = stem if package == "." else \
                    package if stem == "__init__" else f"{package}.{stem}"
                if name.startswith("_") and name not in sides:
                    continue                   # the jail's own machinery stays as it is
                path = os.path.join(folder, file)
                with open(path, "rb") as f:
                    self.code[name] = (compile(f.read(), path, "exec"), path,
                                       stem == "__init__")
        self.sides = set(sides)          # a side kept elsewhere runs anew from its source

    def install(self) -> None:
        """From now on (the jail, hardened): these modules come from here."""
        sys.meta_path.insert(1, self)

    def find_spec(self, name, path=None, target=None):
        found = self.code.get(name)
        if found is None:
            return None
        return importlib.util.spec_from_loader(name, self, origin=found[1],
                                               is_package=found[2])

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        code, path, package = self.code[module.__name__]
        module.__file__ = path
        if package:
            module.__path__ = [os.path.dirname(path)]
        exec(code, module.__dict__)


class JailProgramPlayer(ProgramPlayer):
    """An executable bot in the jail: its programs are the jail's children."""

    def __init__(self, bot_side: str, bot: BotSpec, seat: int, limits: Limits) -> None:
        self.seat = seat
        _state().enter(seat, LOADING)
        try:
            super().__init__(bot_side, bot, limits)
        finally:
            _state().marker.idle()

    def call(self, payload: dict, calls: int = 1) -> dict:
        _state().enter(self.seat, CALLING, calls)
        try:
            return super().call(payload, calls)
        finally:
            _state().marker.idle()


def load_players(bot_side: str, bots: dict[int, BotSpec], limits: Limits
                 ) -> tuple[dict, dict[int, str]]:
    """Load every bot of the attempt in the jail. Returns the players and the load errors."""
    players: dict = {}
    failed: dict[int, str] = {}
    runtime = child_runtime()
    for seat, bot in bots.items():
        kind = JailProgramPlayer if bot.program is not None else GuardedPlayer
        try:
            players[seat] = kind(bot_side, bot, seat, limits)
        except runtime.LoadError as exc:
            failed[seat] = str(exc)
        except Poisoned:
            raise
        except Exception as exc:
            failed[seat] = runtime.describe_error(exc)
    return players, failed


def exchange(players: dict, payloads: Payloads) -> Exchanged:
    """Call each AI in turn; a Fatal erases (or forfeits) it."""
    runtime = child_runtime()
    replies: dict[int, Reply] = {}
    failed: dict[int, str] = {}
    for seat, (payload, calls) in payloads.items():
        player = players[seat]
        try:
            answer = player.call(payload, calls)
        except runtime.Fatal as exc:
            failed[seat] = str(exc)[:200]
            continue
        # The protocol's envelope, as the host checks a child's (sandbox/replies.py).
        program = isinstance(player, JailProgramPlayer)
        reply = checked_reply(answer, calls, player.limits.output_bytes if not program
                              else player.limits["output_bytes"], program)
        if isinstance(reply, str):
            failed[seat] = reply
        else:
            replies[seat] = reply
    return replies, failed


class JailPlayers(Seats):
    """The players of a match jail's inside (`match:inside`): every bot of the match in
    the jail's one process, each with a standard child's per-bot rules."""

    def __init__(self, mode, bot_side: str, bots: dict[int, BotSpec], limits: Limits,
                 skip: tuple[str, ...] = ()) -> None:
        super().__init__(*load_players(bot_side, bots, limits))

    def exchange(self, payloads: Payloads) -> Exchanged:
        return exchange(self.loaded, payloads)
