"""The host side of the sandbox: one child process per AI, and the turn exchange.

Errors are values: a child that fails is reported as (ai, reason), never as an exception
that escapes into the match loop.
"""
from __future__ import annotations

import fcntl
import logging
import os
import select
import shutil
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import psutil

from sandbox.botlib import child_module
from sandbox.cgroups import ChildCgroups, available
from sandbox.frames import BotSpec, botlib_side, load_frame, start_frame
from sandbox.isolation import (
    CGROUP_SLACK_MB,
    Isolation,
    SandboxUnavailable,
    bwrap_problem,
    is_scratch,
    refusal,
)
from sandbox.limits import Limits
from sandbox.paths import BOTLIB, fixed_layout, site_dirs
from sandbox.players import Exchanged, Payloads, Seats
from sandbox.processes import (
    children_of,
    describe_exit,
    kill_tree,
    live_usage,
    peak_rss_of,
    reap,
)
from sandbox.replies import Reply, checked_reply, frame_bytes, frame_items, ready_problem
from sandbox.zygote import zygote

if TYPE_CHECKING:
    import _harden
    import _sched
    import _wire
else:
    _harden, _wire = child_module("_harden"), child_module("_wire")
    _sched = child_module("_sched")
# The host's log (the children never log): children started, not loaded, failed, killed.
log = logging.getLogger(__name__)

POLL_S = 0.05
# The wall limit of a request (`Limits.request_own_s`: calls times wall_per_call_s, at most
# own_per_turn_s; and no more than is left of the AI's own bank) holds its own time, as the
# host measures it (`_sched.OwnTime`): its wall time less the time its tasks waited to run.
# Each request's own time, read again at its end, goes to the bank's count (`own_used`).
# A sleeper is ended at it whatever it does with its timers or its CPU; a call starved by
# a loaded machine (its own time about its CPU time) is judged by its CPU limit. A task that
# is runnable when looked at gets another look (its current wait is not counted yet), up to
# STARVED_TIMES its deadline and grace in all: the last guard, for a kernel that does not
# report waits. (Judged by CPU progress instead, a bot that burnt 20 ms after each probe
# would look starved, never hung, for 2,000 s of a match's bank.)
STARVED_TIMES = _sched.STARVED_TIMES
WALL_LIMIT = "wall time limit (hang)"
F_SETPIPE_SZ = 1031
DECODE_TIMES = 32      # a child's frame may take this many times its cap to decode (_wire)


class Child:
    """One sandboxed AI process: spawn, talk, account CPU, and kill its whole tree."""

    def __init__(self, bot_side: str, bot: BotSpec, limits: Limits,
                 isolation: Isolation = Isolation()) -> None:
        self.limits = limits
        self.startup_output = ""
        self.startup_violations: list[str] = []
        self.layers: list[str] = []
        self.missing: dict[str, str] = {}
        self.returncode: int | None = None
        self.scratch: str | None = None      # set if the child made one on our disk
        down_r, self.down_w = os.pipe()
        self.up_r, up_w = os.pipe()
        for fd in (down_r, self.down_w, self.up_r, up_w):
            try:
                fcntl.fcntl(fd, F_SETPIPE_SZ, 1 << 20)
            except OSError:
                pass
        self.wrapped = isolation.wrapped
        self.executable = bot.program is not None      # its keeper starts its programs
        self.inner_pid = 0
        self.inner_fd = -1                    # a pidfd of it: signalled safely, waited on
        # Made before the child exists; it is moved in before it has a bot to load (the
        # zygote's child gets the bot after the move; bwrap's waits for a byte on block_fd).
        self.cgroups = None
        if isolation.wants_cgroups() and available()[0]:
            self.cgroups = ChildCgroups((limits.memory_mb + CGROUP_SLACK_MB) << 20,
                                        limits.tasks)
        try:
            if self.wrapped:
                self.pid = _start_bwrap(isolation, down_r, up_w, bot, self.cgroups)
            else:
                self.pid = zygote().spawn(down_r, up_w, isolation.namespaces(),
                                          bot.child_main, botlib_side(bot_side))
        except BaseException:
            for fd in (self.down_w, self.up_r):
                os.close(fd)
            if self.cgroups:
                self.cgroups.remove()
            raise
        finally:
            os.close(down_r)
            os.close(up_w)
        self.clock = _harden.cpu_clock(self.pid)
        os.set_blocking(self.up_r, False)
        # Until its first request, its frames are its layers and its answer to the load:
        # bounded as a reply of one call.
        self.reader = _wire.FrameReader(self.up_r,
                                         frame_bytes(limits, 1, limits.output_bytes),
                                         DECODE_TIMES * self.limits.reply_bytes,
                                         items=frame_items(1))
        # The characters of output the child may still send: a Python child's output is
        # capped over its life, a keeper's (its program's stderr) per turn.
        self.out_room = limits.output_bytes
        self.calls = 0                       # the bot calls of the pending request
        self.cpu_used = 0.0
        self.cpu_seen = 0.0                  # the latest reading of its CPU clock
        self.requests = 0
        self.idle_cpu = 0.0
        self.peak_rss_mb = 0.0
        self.program = ProgramUsage()         # an executable bot's: what its programs used
        self.persistent = bool(bot.program and bot.program.get("persistent"))
        self._cpu_at_account = 0.0
        self._sent_at_cpu = 0.0
        self._own: _sched.OwnTime | None = None   # the pending request's own time
        self._kept: _sched.KeptFile | None = None
        self._wall = 0.0                      # and its limit
        self._banked = False                  # the limit is what is left of the own bank
        self._answered = 0.0                  # when its reply came (the host's wait off)
        self.own_used = 0.0                   # own time of its requests so far (the bank's)
        self._told = False                    # an executable bot's keeper told it is over
        self._last_deadline = 0.0
        self._budget = 0.0
        self._deadline = 0.0
        cgroups = self.cgroups.controllers if self.cgroups else []
        self._write({"config": isolation.child_config(limits, bot.program, cgroups)})
        if self.cgroups and not self.wrapped:
            # Moved while it hardens (a v1 migration waits out an RCU grace period, some
            # milliseconds of wall time), and before it has a bot to load.
            self.cgroups.add(self.pid)
        self._write(load_frame(bot_side, bot))

    def correct_layers(self) -> None:
        """A cgroup the child was told of, but could not be moved into, is not a layer."""
        for name in self.cgroups.lost if self.cgroups else ():
            if f"{name}_cgroup" in self.layers:
                self.layers.remove(f"{name}_cgroup")
            if name == "pids" and "tasks" in self.layers and "rlimit_nproc" not in self.layers:
                self.layers.remove("tasks")
                self.missing["tasks"] = "could not move the child into its pids cgroup"

    # -- talking ---------------------------------------------------------------------------
    def _write(self, obj) -> None:
        """Send a frame. A child that is gone cannot read it, and says why on its own pipe
        (end of file, then its exit status), where every caller already looks."""
        try:
            _wire.write_frame(self.down_w, obj)
        except BrokenPipeError:
            pass

    def start(self, names: list[str], ai: int, key: str, info: dict | None = None) -> None:
        self._write({"start": start_frame(names, ai, key, info)})

    def send(self, payload: dict, calls: int) -> None:
        """Send one request that will make `calls` bot calls, and arm the limits."""
        limits = self.limits
        self._sent_at_cpu = self.cpu_now()
        self._budget = limits.request_cpu_s(calls, first=self.requests == 0)
        self.requests += 1
        # A persistent program's first turn (its runtime's start; a JVM's) has first_wall_s,
        # as its keeper gives it: when none of its programs runs, the next turn starts one.
        per_call = limits.first_wall_s if self.persistent and not self.program.running \
            else limits.wall_per_call_s
        self._wall = limits.request_own_s(calls, per_call)
        left = max(0.0, limits.own_bank_s - self.own_used)
        self._banked = left < self._wall
        self._wall = min(self._wall, left)
        now = time.monotonic()
        self._own = _sched.OwnTime(self._timed_pids(), now, self._schedstat(),
                                   threads=self.executable)
        self._answered = 0.0
        self._told = False
        self._deadline = now + self._wall
        self._last_deadline = now + STARVED_TIMES * (self._wall + limits.watchdog_grace_s)
        # Its reply's frame, bounded by what this request's reply may hold (`replies`):
        # past it, it is refused from its length prefix, or at its first object too many.
        self.calls = calls
        self.reader.limit = frame_bytes(limits, calls, self.out_room)
        self.reader.items = frame_items(calls)
        self._write(payload)

    def checked(self, frame: object) -> Reply | str:
        """The reply frame to the pending request, checked (`checked_reply`), or why it is
        outside the protocol; an accepted reply's output is taken from the room left."""
        reply = checked_reply(frame, self.calls, self.out_room, self.executable)
        if not isinstance(reply, str) and not self.executable and "out" in reply:
            self.out_room -= len(reply["out"])
        return reply

    def find_inner(self) -> None:
        """bwrap tier: our child is bwrap; time the interpreter it started instead."""
        if not self.wrapped:
            return
        try:
            inner = psutil.Process(self.pid).children(recursive=True)
        except psutil.Error:
            inner = []
        if inner:
            self.inner_pid = inner[-1].pid
            self.clock = _harden.cpu_clock(self.inner_pid)
            try:
                self.inner_fd = os.pidfd_open(self.inner_pid)
            except OSError:
                pass

    def between_turns(self, ready: bool | None = None) -> str | None:
        """What the child did wrong while it was not asked anything, if anything. `ready`:
        whether its pipe has something to read, if the caller already looked."""
        if ready is None:
            try:
                ready = bool(select.select([self.up_r], [], [], 0)[0])
            except (OSError, ValueError):
                ready = False
        if ready:
            try:
                self.reader.feed()
            except EOFError:
                return self.death_reason()
            except _wire.FrameError:
                pass
            return "protocol: wrote to the host when not asked"
        self.idle_cpu += max(0.0, self.cpu_now() - self.cpu_used)
        if self.idle_cpu > self.limits.idle_cpu_s:
            return "cpu time limit: busy between turns (a thread kept running?)"
        return self.own_problem()

    def cap_news(self) -> list[str]:
        """Refusals by the child's cgroups since the last call (the task cap), as
        violations: the kernel refuses them quietly."""
        return self.cgroups.news() if self.cgroups else []

    def cpu_now(self) -> float:
        try:
            self.cpu_seen = max(self.cpu_seen, time.clock_gettime(self.clock))
        except OSError:
            return max(self.cpu_used, self.cpu_seen)
        return self.cpu_seen

    def overrun(self) -> str | None:
        """A limit the pending request has broken, measured from outside the child."""
        cpu = self.cpu_now()
        if cpu - self._sent_at_cpu > self._budget:
            return "cpu time limit"
        if cpu > self.limits.cpu_bank_s:
            return "cpu bank exhausted"
        now = time.monotonic()
        if now > self._last_deadline:
            self._end_own(now)
            return "wall-clock watchdog (hang)"
        if now <= self._deadline or self._told or self._own is None:
            if self.executable and self._own is not None:
                # Its programs' waits, read while they live (a program of one turn is gone
                # by its reply): the turn's own time is then what it took of its own.
                self._own.look(self._timed_pids(), now, busy_too=False)
            return None
        own, runnable = self._own.look(self._timed_pids(), now)
        if own <= self._wall or runnable:      # it waited to run, or runs: not over yet
            self._deadline = now + max(POLL_S, self._wall - own)
            return None
        if self._banked:                       # its bank is spent: erased, in every game
            self._end_own(now)
            return _sched.bank_reason(self.own_used, self.limits.own_bank_s)
        if not self.executable:
            self._end_own(now)
            return WALL_LIMIT
        # An executable bot's keeper ends its program's turn as a hang (Cave: a fault of
        # that turn, not of the bot), and answers within the grace.
        self._write({_sched.OVERTIME: True})
        self._told = True
        self._last_deadline = min(self._last_deadline, now + self.limits.watchdog_grace_s)
        return None

    def _end_own(self, now: float) -> None:
        """The pending request is over (answered, or ended by a limit): its own time goes
        to the bank's count."""
        if self._own is not None:
            self.own_used += self._own.look(self._timed_pids(), now, busy_too=False)[0]
            self._own = None

    def own_problem(self) -> str | None:
        """The own bank spent by the requests so far (a reply that came as it ran out)."""
        if self.own_used > self.limits.own_bank_s:
            return _sched.bank_reason(self.own_used, self.limits.own_bank_s)
        return None

    def _schedstat(self) -> _sched.KeptFile:
        """The schedstat of the process timed first (`_timed_pids`), opened once."""
        pid = self._keeper_pid() or self.pid
        if self._kept is None or self._kept.pid != pid:
            if self._kept is not None:
                self._kept.close()
            self._kept = _sched.KeptFile(pid)
        return self._kept

    def _timed_pids(self) -> list[int]:
        """The tasks whose time is the request's: the bot's interpreter, and an executable
        bot's keeper and its programs (which the keeper waits on)."""
        pid = self._keeper_pid() or self.pid
        return [pid, *children_of(pid)] if self.executable else [pid]

    def account(self, frame: Reply | None = None) -> None:
        """Note the CPU used so far (peak RSS comes with the exit status, when reaped),
        and, for an executable bot, what its programs used (`frame`'s "usage").

        bwrap tier: wait4 on bwrap reports the high-water mark of the process bwrap was
        forked from (the host), so the interpreter's own peak is read while it lives.
        """
        self.cpu_used = self._cpu_at_account = self.cpu_now()
        self._end_own(self._answered or time.monotonic())
        if self.wrapped and self.inner_pid:
            self.peak_rss_mb = max(self.peak_rss_mb, peak_rss_of(self.inner_pid))
        if frame is not None and "usage" in frame:
            self.program.note(frame["usage"], self._keeper_pid())

    def note_memory(self) -> None:
        """At a memory erase, what the child held then, not the last reading between
        turns: under bwrap the interpreter's VmHWM (if it still lives; wait4 reports
        bwrap's own), and the memory cgroup's high-water mark, which outlives it."""
        if self.wrapped and self.inner_pid:
            self.peak_rss_mb = max(self.peak_rss_mb, peak_rss_of(self.inner_pid))
        if self.cgroups:
            self.peak_rss_mb = max(self.peak_rss_mb, self.cgroups.peak_mb())

    def _keeper_pid(self) -> int:
        """The pid (here) of the process whose children are the bot's programs."""
        return self.inner_pid if self.wrapped else self.pid

    def usage(self) -> tuple[float, float, float]:
        """CPU s, peak RSS MiB and own time (s) over the match, its programs' included.
        After the exit, wait4's figures count the keeper and the programs it reaped, but
        not a running program that died with it: the larger of the two sums is the truth."""
        return (max(self.cpu_used, self._cpu_at_account + self.program.cpu_s),
                max(self.peak_rss_mb, self.program.peak_mb), self.own_used)

    def _reap(self, timeout: float) -> int | None:
        """Wait up to `timeout` s for the child to exit (`reap`); keep its status, its CPU
        and its peak RSS (bwrap tier: bwrap's, not the interpreter's; see `account`)."""
        if self.returncode is not None:
            return self.returncode
        ended = reap(self.pid, timeout)
        if ended is None:
            return None
        self.returncode, usage = ended
        if not self.wrapped:
            self.peak_rss_mb = max(self.peak_rss_mb, usage.ru_maxrss / 1024)
        self.cpu_used = max(self.cpu_used, usage.ru_utime + usage.ru_stime)
        if self.wrapped and self.returncode > 128:    # bwrap's 128 + signal
            self.returncode = 128 - self.returncode
        return self.returncode

    def death_reason(self) -> str:
        """Why the child went away without a frame."""
        limits = self.limits
        self.cpu_now()                       # a zombie's clock still reads, until reaped
        status = self._reap(1.0)
        if self.peak_rss_mb >= limits.memory_mb * limits.memory_alarm:
            return "memory limit"
        if self.cgroups and self.cgroups.oom_killed():
            return "memory limit (memory cgroup)"
        # The host's own readings count too: under bwrap, the interpreter the kernel
        # killed is not the process whose exit status comes here.
        return describe_exit(status, max(self.cpu_used, self.cpu_seen), limits.cpu_backstop_s)

    # -- ending ----------------------------------------------------------------------------
    def kill(self) -> None:
        """Kill the child and every process it started, and reap them."""
        # In its own pid namespace the child takes every process it could have started
        # down with it, and seccomp lets it start none: no need to look for descendants.
        contained = "pid_ns" in self.layers or "seccomp" in self.layers
        self.program.last_look(self._keeper_pid())     # what it used since its last turn
        if self.inner_fd >= 0:
            # bwrap tier: the interpreter first, so that bwrap reaps it and then exits;
            # killed the other way round, it would outlive the match for a moment.
            try:
                signal.pidfd_send_signal(self.inner_fd, signal.SIGKILL)
                select.select([self.inner_fd], [], [], 2.0)
            except OSError:
                pass
            os.close(self.inner_fd)
            self.inner_fd = -1
            self._reap(1.0)
        kill_tree(self.pid, look_for_descendants=not contained)
        self._reap(5.0)
        release(self)
        log.debug("child %d killed and reaped (exit status %s)", self.pid, self.returncode)


def release(proc) -> None:
    """After a sandboxed process (a bot's child or a match jail) is killed and reaped: its
    pipes closed, its cgroups removed, its scratch folder deleted."""
    for fd in (proc.down_w, proc.up_r):
        try:
            os.close(fd)
        except OSError:
            pass
    proc.down_w = proc.up_r = -1
    if getattr(proc, "_kept", None) is not None:
        proc._kept.close()
        proc._kept = None
    if proc.cgroups:
        proc.cgroups.remove()
    if proc.scratch:
        shutil.rmtree(proc.scratch, ignore_errors=True)


class ProgramUsage:
    """What an executable bot's programs used over a match. Those that ended, its keeper
    reports (wait4's figures); the running one is read here after each turn, where the
    host's /proc shows it whatever the sandbox: the kernel's CPU clock of the process
    (every thread, between turns too) and its VmHWM."""

    def __init__(self) -> None:
        self.cpu_s = 0.0
        self.peak_mb = 0.0
        self.ended_cpu_s = 0.0
        self.running = 0               # which start of the program runs, as last reported
        self.pid = 0                   # its pid here (0: not found)

    def note(self, usage: object, parent: int) -> None:
        """Add a reply's "usage" ({"cpu_s", "peak_mb", "running"}) and read the running
        program, a child of `parent`."""
        if not isinstance(usage, dict):
            return
        try:
            ended_cpu, ended_peak = float(usage["cpu_s"]), float(usage["peak_mb"])
            running = int(usage["running"])
        except (KeyError, TypeError, ValueError):
            return
        self.ended_cpu_s = ended_cpu
        self.cpu_s = max(self.cpu_s, ended_cpu)
        self.peak_mb = max(self.peak_mb, ended_peak)
        if running != self.running or (running and not self.pid):
            self.running = running
            found = children_of(parent) if running and parent else []
            self.pid = found[0] if found else 0
        if self.running and self.pid:
            self._read(self.pid)

    def last_look(self, parent: int) -> None:
        """Read the running program once more before it is killed, if it is still there
        (while a turn was under way, its keeper may have reaped it)."""
        if self.running and self.pid and self.pid in children_of(parent):
            self._read(self.pid)

    def _read(self, pid: int) -> None:
        cpu, peak = live_usage(pid)
        self.cpu_s = max(self.cpu_s, self.ended_cpu_s + cpu)
        self.peak_mb = max(self.peak_mb, peak)


def _start_bwrap(isolation: Isolation, down_r: int, up_w: int, bot: BotSpec,
                 cgroups: ChildCgroups | None) -> int:
    bot_fd = block_r = block_w = -1
    if bot.program is not None:            # bubblewrap copies the bot's file from here
        bot_fd = os.memfd_create("bot")
        os.write(bot_fd, bot.source)
        os.lseek(bot_fd, 0, os.SEEK_SET)
    if cgroups:                            # the sandbox waits until it is in them
        block_r, block_w = os.pipe()
    try:
        command = isolation.bwrap_command(str(BOTLIB / f"{bot.child_main}.py"), down_r, up_w,
                                          site_dirs(), bot.program, bot_fd, block_r)
        proc = subprocess.Popen(command, pass_fds=tuple(fd for fd in (down_r, up_w, bot_fd,
                                                                      block_r) if fd >= 0),
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env={}, start_new_session=True,
                                preexec_fn=fixed_layout())
        if cgroups:
            cgroups.add_tree(proc.pid)
            os.write(block_w, b"go")
    finally:
        for fd in (bot_fd, block_r, block_w):
            if fd >= 0:
                os.close(fd)
    proc.returncode = 0          # we reap it ourselves, with wait4; Popen must not
    return proc.pid


def load_children(bot_side: str, bots: dict[int, BotSpec], limits: Limits,
                  isolation: Isolation = Isolation()
                  ) -> tuple[dict[int, Child], dict[int, str]]:
    """Start every AI's child at once and wait until each has loaded its bot.

    Returns the ready children and, per AI that failed to load, the reason. Raises
    SandboxUnavailable when the tier is strict and a child could not get every layer.
    """
    children: dict[int, Child] = {}
    failed: dict[int, str] = {}
    try:
        for ai, bot in bots.items():
            children[ai] = Child(bot_side, bot, limits, isolation)
            log.debug("AI %d: child %d started (%s, %s)", ai, children[ai].pid,
                      "bubblewrap" if isolation.wrapped else "zygote",
                      "a program" if children[ai].executable else "Python")
        deadline = time.monotonic() + limits.load_timeout_s
        for ai, frame, problem in _collect(dict(children), deadline, check=None):
            if problem is None and isinstance(frame, dict) and "layers" in frame:
                children[ai].find_inner()
                children[ai].layers = list(frame["layers"])
                if is_scratch(frame.get("scratch")):
                    children[ai].scratch = frame["scratch"]
                children[ai].missing = dict(frame.get("missing") or {})
                children[ai].correct_layers()
            else:
                failed[ai] = f"sandbox: the child did not start ({problem or 'bad frame'})"
        # A bwrap child that did not start is bubblewrap's failure, not the bot's, when
        # bubblewrap cannot start any sandbox here.
        if isolation.wrapped and failed and (problem := bwrap_problem()):
            raise SandboxUnavailable(f"--sandbox bwrap: bubblewrap cannot start a sandbox here: "
                                     f"{problem}")
        if isolation.strict:
            for child in children.values():
                if child.missing:
                    raise SandboxUnavailable(refusal(child.missing))
        loading = {ai: child for ai, child in children.items() if ai not in failed}
        for ai, frame, problem in _collect(loading, deadline, check=None):
            if problem is None:
                problem = ready_problem(frame, limits.output_bytes)
            if problem is None and frame.get("ready") is True:
                children[ai].startup_output = frame["out"]
                if not children[ai].executable:
                    children[ai].out_room -= len(frame["out"])
                children[ai].startup_violations = list(frame["violations"])
                children[ai].account()
                continue
            if problem is None and isinstance(frame, dict) and "fatal" in frame:
                problem = f"{frame['fatal']} at import"
            elif problem is None:
                problem = (frame.get("load_error") if isinstance(frame, dict) else None) \
                    or f"protocol: unexpected reply to load {frame!r:.80}"
            elif not problem.endswith("at import"):
                problem = f"{problem} at import"
            failed[ai] = str(problem)[:500]
    except BaseException:
        for child in children.values():
            child.kill()
        raise
    for ai in failed:
        log.debug("AI %d: did not load: %s", ai, failed[ai])
        children.pop(ai).kill()
    return children, failed


def exchange(children: dict[int, Child], payloads: Payloads) -> Exchanged:
    """Send each AI its request at once; gather the replies.

    `payloads[ai]` is (request, number of bot calls it makes). Returns the replies and,
    per AI that failed (fatal frame, death, bad frame, a limit), the reason.
    """
    waiting = {}
    failed: dict[int, str] = {}
    unasked = _readable([children[ai] for ai in payloads])
    for ai, (payload, calls) in payloads.items():
        problem = children[ai].between_turns(children[ai].up_r in unasked)
        if problem:
            if problem.startswith("memory"):
                children[ai].note_memory()
            children[ai].kill()
            failed[ai] = problem
            continue
        children[ai].send(payload, calls)
        waiting[ai] = children[ai]
    deadline = max((c._deadline for c in waiting.values()), default=0.0)
    replies: dict[int, Reply] = {}
    for ai, frame, problem in _collect(waiting, deadline, check=Child.overrun):
        reply = children[ai].checked(frame) if problem is None else problem
        if not isinstance(reply, str) and "fatal" in reply:
            reply = reply["fatal"][:200]
        if isinstance(reply, str):
            if reply.startswith("memory"):
                children[ai].note_memory()
            failed[ai] = reply
            continue
        children[ai].account(reply)
        if news := children[ai].cap_news():
            said = reply.get("violations")
            reply["violations"] = [*(said if isinstance(said, list) else ()), *news]
        replies[ai] = reply
    for ai, problem in failed.items():
        log.debug("AI %d: child %d failed: %s", ai, children[ai].pid, problem)
    return replies, failed


class Children(Seats):
    """The players of the modes that give each bot a child process of its own (standard,
    strict, bwrap: the mode's `tier`): started at once, asked at once each turn."""

    def __init__(self, mode, bot_side: str, bots: dict[int, BotSpec], limits: Limits,
                 skip: tuple[str, ...] = ()) -> None:
        super().__init__(*load_children(bot_side, bots, limits, Isolation(mode.tier, skip)))

    def exchange(self, payloads: Payloads) -> Exchanged:
        return exchange(self.loaded, payloads)

    def layers(self) -> tuple[list[str], dict[str, str]]:
        children = list(self.loaded.values())
        if not children:
            return [], {}
        active = [name for name in children[0].layers
                  if all(name in child.layers for child in children)]
        missing: dict[str, str] = {}
        for child in children:
            missing.update(child.missing)
        return active, missing


def _readable(children: list[Child]) -> set[int]:
    """The pipes of `children` with something to read now: one poll for all of them."""
    poller = select.poll()
    for child in children:
        poller.register(child.up_r, select.POLLIN)
    try:
        return {fd for fd, _ in poller.poll(0)}
    except OSError:
        return set()


# Each host thread's own schedstat, opened once (`_host_waited` reads it twice a poll).
_HOST = threading.local()


def _host_waited() -> float:
    """This thread's wait on a run queue so far (0 where the kernel does not say), from
    its schedstat kept open while the thread lives (`_sched.KeptFile`: a read, not an open,
    a read and a close, at every poll)."""
    tid = threading.get_native_id()
    kept = getattr(_HOST, "kept", None)
    if kept is None or kept.pid != tid:        # a new thread, or a forked copy of one
        kept = _HOST.kept = _sched.KeptFile(tid)
        if kept.fd >= 0:
            weakref.finalize(kept, os.close, kept.fd)
    return _sched.waited_s(kept.pid, kept) or 0.0


def _collect(waiting: dict[int, Child], deadline: float,
             check: Callable[[Child], str | None] | None
             ) -> Iterator[tuple[int, Any, str | None]]:
    """Yield (ai, frame, None) or (ai, None, reason) once for every waiting child.

    A poll object: registering costs no system call, where a selector made per turn
    cost an epoll instance and two calls per child (the host asks every turn).

    A reply's time is when the poll saw it less the time this thread then waited to run
    (`_answered`): a loaded machine that keeps the host from reading a reply adds nothing
    to the bot's own time (4 busy loops on 2 cores would add some 33 ms a turn to an
    honest arena bot's own time)."""
    poller = select.poll()
    by_fd: dict[int, int] = {}
    for ai, child in waiting.items():
        poller.register(child.up_r, select.POLLIN)
        by_fd[child.up_r] = ai
    pending = set(waiting)
    while pending:
        left = deadline - time.monotonic()
        timeout = min(POLL_S, left) if left > 0 else POLL_S   # past it: checks every poll
        waited = _host_waited()
        events = poller.poll(timeout * 1000)
        if events:
            arrived = time.monotonic() - max(0.0, _host_waited() - waited)
        for fd, _ in events:
            ai = by_fd.get(fd, -1)
            if ai not in pending:
                continue
            child = waiting[ai]
            problem: str | None
            try:
                frame = child.reader.feed()
            except EOFError:
                frame, problem = None, child.death_reason()
            except _wire.FrameError as exc:
                frame, problem = None, f"protocol: {exc}"
            else:
                if frame is None:
                    continue
                problem = None
                child._answered = arrived
            poller.unregister(fd)
            pending.discard(ai)
            yield ai, frame, problem
        if not events or time.monotonic() > deadline:
            for ai in sorted(pending):
                child = waiting[ai]
                problem = check(child) if check else (
                    "load timeout" if time.monotonic() > deadline else None)
                if problem:
                    poller.unregister(child.up_r)
                    pending.discard(ai)
                    child.kill()
                    yield ai, None, problem
