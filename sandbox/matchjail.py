"""`--sandbox match`, the host's side: a hardened child plays whole matches, and its result.

The jail gets every layer of a standard child (`_harden.harden`: namespaces, a private
read-only root, nobody or a user namespace, Landlock, seccomp, rlimits; a memory and a
pids cgroup where the machine has them), sized for the whole match. Inside it the engine
and every bot of the match run in one process (`sandbox/jailplayers.py`). This protects
the host from the bots; it does not protect the bots from each other, nor the engine
from a bot (see docs/security.md).

The host only starts the jail, watches it from outside (its CPU clock, its wall time, and
which bot a shared page says is running), and reads its result as untrusted data in a
bounded frame. Nothing the jail says decides a charge: a jail that fails in any way (killed
by the host's watchdog, dead, a bad frame, a result the host does not accept) is reported
as a `JailFailure`, and the orchestrator plays that match again in the standard mode.

A batch's worker plays the matches of one line-up in a row in one jail, which hardens
once. The jail runs no bot's code itself: it forks a process for each match, which plays
it and exits, so that each match starts from the same state, whatever ran before it. The
host watches that process's CPU clock (the jail's only child, found in /proc). A jail is
retired when a match left a file in its scratch directory, when the line-up changes, and
after a failure.
"""
from __future__ import annotations

import dataclasses
import fcntl
import logging
import mmap
import os
import pickle
import select
import signal
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sandbox import plugins
from sandbox.botlib import child_module
from sandbox.cgroups import ChildCgroups, available
from sandbox.host import F_SETPIPE_SZ, release
from sandbox.isolation import (
    CGROUP_SLACK_MB,
    Isolation,
    SandboxUnavailable,
    is_scratch,
    refusal,
)
from sandbox.jailplayers import (
    CALLING,
    IDLE,
    LOADING,
    POISONED,
    STARTING,
    poison_reason,
    read_marker,
)
from sandbox.limits import Limits
from sandbox.modes import JAIL_GAMES, get_mode
from sandbox.processes import children_of, describe_exit, kill_tree, reap
from sandbox.zygote import Zygote

if TYPE_CHECKING:
    import _harden
    import _wire
else:
    _wire = child_module("_wire")
    _harden = child_module("_harden")

log = logging.getLogger(__name__)     # the host's side only; the jail never logs
PROJECT = Path(__file__).resolve().parent.parent
JAIL_ZYGOTE = Path(__file__).resolve().parent / "_jailzygote.py"
ENGINE_MB = 768              # the engine's share of the jail's memory, beyond the bots'
RESULT_BYTES = 8 << 20       # the largest result frame accepted: a 1000-turn official
                             # match with 8 AIs and their output takes about 2 MiB
RESULT_BUDGET = 40 << 20     # the most memory decoding it may take (_wire.decode_cost;
                             # a 4-AI official match's result and replay: 8 MiB)
IDLE_WALL_S = 60.0           # no bot's code running (the engine's turn) for this long: hung
MOST_CALLS = 100             # the page's count of calls in a request, as the host reads it
POLL_S = 0.05
# The engines import numpy. Its BLAS must start no threads in the zygote: a fork keeps only
# the forking thread, and BLAS's fork handler would then wait for the others forever.
NO_THREADS = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                     "MKL_NUM_THREADS")}
SLACK_S = 0.5                # the host's watchdog comes after the jail's own guard
JAIL_SLACK_S = 60.0          # the jail's CPU rlimit: its bots' banks, and this
REUSE_CPU_S = JAIL_SLACK_S / 2   # a jail past this much CPU plays no further match
FORK_WAIT_S = 5.0            # the most a jail may take to have its match's process forked
AGAIN_WAIT_S = 5.0           # and, after a result, to say it may play another match


class JailError(RuntimeError):
    """The jail did not start, or was stopped with its batch."""


@dataclasses.dataclass
class Played:
    """A jailed match that ended: its result and replay as the jail sent them (decoded
    within bounds, not otherwise checked)."""

    result: Any           # untrusted until jail_result.refusal has checked its shape
    replay: Any
    layers: list[str]
    missing: dict[str, str]


@dataclasses.dataclass
class JailFailure:
    """A jailed match that did not end in a result: what the host saw, and the seat the
    jail's page named as running then (the jail's word: unverified)."""

    reason: str
    seat: int | None = None


_zygote: Zygote | None = None
_zygote_job = ""                 # the job module _zygote's jails run
_zygote_games: tuple[str, ...] = ()   # the games it was started for (): every game
_lock = threading.Lock()


def jail_zygote(job_module: str, games: tuple[str, ...] = ()) -> Zygote:
    """This process's jail zygote, whose jails run `job_module` (a module the project
    holds, named by the caller: see `sandbox/_jailzygote.py`), started on first use (and
    again after a fork or death, for another job module, or for a game it was not started
    for). Given `games`, it loads only what their engines import on first use (numpy is
    the arena's alone: 100 ms of CPU a Robot Game batch does not spend); () is every game."""
    global _zygote, _zygote_job, _zygote_games
    with _lock:
        covered = not _zygote_games or bool(games) and set(games) <= set(_zygote_games)
        # One started anew serves the games of the last one too: a process that
        # alternates games starts no more than one zygote per game.
        wanted = tuple(sorted({*games, *_zygote_games})) if games else ()
        if _zygote is None or _zygote.owner != os.getpid() or not _zygote.alive() \
                or _zygote_job != job_module or not covered:
            if _zygote is not None and _zygote.owner == os.getpid():
                _zygote.close()
            # A game kept elsewhere is one the jail's registry knows too: named in
            # ARENA_GAMES, or installed (its entry point's folders, should they be off the
            # site dirs the zygote is given: PYTHONPATH, an editable install).
            named = {"ARENA_GAMES": os.environ["ARENA_GAMES"]} \
                if os.environ.get("ARENA_GAMES") else {}
            told = {JAIL_GAMES: ",".join(wanted)} if wanted else {}
            _zygote = Zygote(JAIL_ZYGOTE, (job_module, str(PROJECT),
                                           *plugins.homes(plugins.GAMES_GROUP)),
                             {**NO_THREADS, **named, **told})
            _zygote_job, _zygote_games = job_module, wanted
        return _zygote


def jail_zygote_pid() -> int | None:
    """The pid of this process's jail zygote, if one runs (tests leave it out of strays)."""
    current = _zygote
    if current is not None and current.owner == os.getpid() and current.alive():
        return current.pid
    return None


def jail_limits(limits: Limits, bots: int) -> Limits:
    """The jail's own rlimits and cgroup caps: every bot's share, and the engine's."""
    return dataclasses.replace(
        limits, memory_mb=bots * limits.memory_mb + ENGINE_MB, tasks=limits.tasks + 1,
        cpu_bank_s=bots * (limits.cpu_bank_s + limits.cpu_per_call_s) + JAIL_SLACK_S)


class Jail:
    """One jailed match: spawn, hand it the match, watch the running bot, read the end."""

    def __init__(self, limits: Limits, bots: int, isolation: Isolation,
                 job_module: str, game: str = "") -> None:
        """Spawn the jail, which runs `job_module`'s `play`, and let it harden; it waits
        for its match (`run`), a match of `game` (if given: its zygote need hold no more)."""
        self.limits = limits
        self.own = jail_limits(limits, bots)
        self.layers: list[str] = []
        self.missing: dict[str, str] = {}
        self.scratch: str | None = None
        self.returncode: int | None = None
        self.peak_rss_mb = 0.0
        self.hardened = False
        self.again: bool | None = False   # the jail said it is fit for another match
                                          # (None: it is yet to say, after a result)
        self.match_pid: int | None = None     # the process of its match in play, or last
        self.match_clock: int | None = None   # that process's CPU clock
        self.match_cpu = 0.0          # its CPU, as last read
        self.stopped = False          # killed because the batch stops: no match to replay
        marker_fd = os.memfd_create("arena-marker", os.MFD_CLOEXEC)
        os.ftruncate(marker_fd, mmap.PAGESIZE)
        self.page = mmap.mmap(marker_fd, mmap.PAGESIZE)
        down_r, self.down_w = os.pipe()
        self.up_r, up_w = os.pipe()
        for fd in (down_r, self.down_w, self.up_r, up_w):
            try:
                fcntl.fcntl(fd, F_SETPIPE_SZ, 1 << 20)
            except OSError:
                pass
        self.cgroups = None
        if isolation.wants_cgroups() and available()[0]:
            self.cgroups = ChildCgroups((self.own.memory_mb + CGROUP_SLACK_MB) << 20,
                                        self.own.tasks)
        try:
            zygote = jail_zygote(job_module, (game,) if game else ())
            self.pid = zygote.spawn(down_r, up_w, isolation.namespaces(), "match",
                                    extra_fds=(marker_fd,))
        except BaseException:
            for fd in (self.down_w, self.up_r):
                os.close(fd)
            if self.cgroups:
                self.cgroups.remove()
            raise
        finally:
            for fd in (down_r, up_w, marker_fd):
                os.close(fd)
        self.clock = _harden.cpu_clock(self.pid)
        self.reader = _wire.FrameReader(self.up_r, RESULT_BYTES, RESULT_BUDGET, small=0)
        cgroups = self.cgroups.controllers if self.cgroups else []
        # The jail reads what a bot's child reads, and no more: its zygote imported the
        # engines and the match's own code before any match existed.
        config = isolation.child_config(self.own, None, cgroups)
        self._write({"config": config})
        if self.cgroups:
            self.cgroups.add(self.pid)
        self.strict = isolation.strict

    def _write(self, obj) -> None:
        try:
            _wire.write_frame(self.down_w, obj)
        except BrokenPipeError:
            pass

    def cpu_now(self) -> float:
        """The CPU of the jail and of its match's process (0 for one that is gone)."""
        try:
            total = time.clock_gettime(self.clock)
        except OSError:
            total = 0.0
        if self.match_clock is not None:
            try:
                self.match_cpu = time.clock_gettime(self.match_clock)
            except OSError:
                pass
            else:
                total += self.match_cpu
        return total

    def _found_match(self) -> bool:
        """Whether the jail's process for this match is found: the jail's only child, and
        not the last match's (which a bot could have kept alive long enough to forge the
        jail's word that the next one is forked). Its CPU clock is what the host watches."""
        deadline = time.monotonic() + FORK_WAIT_S
        while True:
            children = children_of(self.pid)
            if len(children) == 1 and children[0] != self.match_pid:
                self.match_pid = children[0]
                self.match_clock = _harden.cpu_clock(self.match_pid)
                self.match_cpu = 0.0
                return True
            if time.monotonic() >= deadline or self._reap(0) is not None:
                return False
            time.sleep(POLL_S / 10)

    def run(self, job: dict, on_turn=None, max_turns: int = 0) -> Played | JailFailure:
        """Play the match of `job` ({"spec", "replay"}): its result, or why there is none.
        Raises JailError when the jail did not start. A jail plays one match at a time, and
        another after it only if it said it may (`reusable`)."""
        if not self.hardened:
            self._hardened()
        self.again = False
        if not self._found_match():
            return self._failure("its process for the match was not found")
        self._write({"job": pickle.dumps(job)})
        bots = len(job["spec"].bots)
        # The page changes at each bot's load, start and request; past that it is forged.
        changes_left = bots * (max_turns + 3) + 10 if max_turns else None
        watching, since_wall, since_cpu, turn = None, time.monotonic(), self.cpu_now(), -1
        while True:
            frame = self._next(time.monotonic() + POLL_S)
            if isinstance(frame, dict) and "result" in frame:
                self.again = None          # read when the next match wants it
                return Played(frame["result"], frame.get("replay"), self.layers,
                              self.missing)
            if isinstance(frame, str):              # it died, or sent a bad frame
                return self._failure(frame)
            if frame is not None:
                self._reap(1.0)        # a bot wrote it: the jail poisons itself and ends
                return self._failure("protocol: wrote to the host's pipe")
            _, seat, entry, kind, calls, now = read_marker(self.page)
            if on_turn is not None and now != turn and 0 <= now <= max_turns:
                turn = now
                on_turn(now, max_turns)
            if (seat, entry, kind) != watching:
                watching, since_wall, since_cpu = (seat, entry, kind), time.monotonic(), \
                    self.cpu_now()
                if changes_left is not None:
                    changes_left -= 1
                    if changes_left < 0:
                        return self._failure("the jail's page changed more often than the "
                                             "match has turns")
            elif why := self._overrun(kind, calls, since_wall, since_cpu):
                return self._failure(why)

    def _hardened(self) -> None:
        """The jail's first frame: the layers it put on."""
        frame = self._next(time.monotonic() + self.limits.load_timeout_s + 20.0)
        if not isinstance(frame, dict) or "layers" not in frame:
            raise JailError(f"the match jail did not start ({frame!r:.100})")
        self.layers = [str(x) for x in frame["layers"]]
        self.missing = {str(k): str(v) for k, v in (frame.get("missing") or {}).items()}
        if is_scratch(frame.get("scratch")):
            self.scratch = frame["scratch"]
        for name in self.cgroups.lost if self.cgroups else ():
            if f"{name}_cgroup" in self.layers:
                self.layers.remove(f"{name}_cgroup")
        if self.strict and self.missing:
            raise SandboxUnavailable(refusal(self.missing))
        self.hardened = True

    def reusable(self) -> bool:
        """Whether the next match of the same line-up may play in this jail: it said so
        (the last match's process ended, left nothing in its scratch, and the next one is
        forked), it lives, and its own CPU is still far under its CPU rlimit. The jail's
        word comes once the match's process has ended and the next one is forked (a bot
        can only forge it to have its own jail retired): read here, when the next match
        wants the jail, so that the host records a result meanwhile."""
        if self.again is None:
            self.again = self._next(time.monotonic() + AGAIN_WAIT_S) == {"again": True}
        return self.again and self._reap(0) is None and self.cpu_now() < REUSE_CPU_S

    def _overrun(self, kind: int, calls: int, since_wall: float,
                 since_cpu: float) -> str | None:
        """A limit broken since the page last changed, as the host sees it from outside the
        jail: the running bot's limits, or, with no bot's code running, a hung engine."""
        limits = self.limits
        if kind == CALLING:
            calls = min(max(calls, 1), MOST_CALLS)
            cpu = limits.request_cpu_s(calls)
            wall = limits.request_own_s(calls) + limits.watchdog_grace_s
        elif kind in (LOADING, STARTING):
            cpu = limits.cpu_per_call_s + 0.5
            wall = limits.load_timeout_s if kind == LOADING else \
                limits.wall_per_call_s + limits.watchdog_grace_s
        else:                     # idle, poisoned or forged: the jail's own code runs
            cpu, wall = IDLE_WALL_S, IDLE_WALL_S
        if self.cpu_now() - since_cpu > cpu + SLACK_S:
            return "cpu time limit"
        if time.monotonic() - since_wall > wall + SLACK_S:
            return "wall-clock watchdog (hang)"
        return None

    def _next(self, deadline: float):
        """The next frame (a dict, or whatever the jail sent), None at the deadline, or
        a death's reason (str)."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if not select.select([self.up_r], [], [], left)[0]:
                return None
            try:
                frame = self.reader.feed()
            except EOFError:
                return self.death_reason()
            except _wire.FrameError as exc:
                self._reap(1.0)
                return f"protocol: {exc}"
            if frame is not None:
                return frame if not isinstance(frame, str) else {"text": frame}

    def _failure(self, reason: str) -> JailFailure:
        """The jail failed: end it, and note the seat its page names, unverified."""
        _, seat, _, kind, _, _ = read_marker(self.page)
        if kind == POISONED:
            reason = f"{reason}; the jail said: {poison_reason(self.page)}"
        self.kill()
        return JailFailure(reason, seat if kind != IDLE and seat >= 0 else None)

    def death_reason(self) -> str:
        self.cpu_now()
        status = self._reap(1.0)
        if self.cgroups and self.cgroups.oom_killed():
            return "memory limit (memory cgroup)"
        if self.peak_rss_mb >= self.own.memory_mb * self.own.memory_alarm:
            return "memory limit"
        if status is not None and status > 128 and \
                status - 128 in {int(sig) for sig in signal.valid_signals()}:
            status = 128 - status         # the match's process's signal, passed on
        return describe_exit(status, self.match_cpu, self.own.cpu_backstop_s)

    def _reap(self, timeout: float) -> int | None:
        """Wait up to `timeout` s for the jail to exit; keep its status and peak RSS."""
        if self.returncode is None and (ended := reap(self.pid, timeout)) is not None:
            self.returncode, usage = ended
            self.peak_rss_mb = usage.ru_maxrss / 1024
        return self.returncode

    def kill(self) -> None:
        """Kill the jail and all it started, and reap it (idempotent)."""
        if self.up_r < 0:
            return
        kill_tree(self.pid, look_for_descendants="pid_ns" not in self.layers)
        self._reap(5.0)
        release(self)


# A process (or each thread of a process) that plays match after match (a batch,
# `keep_spares`) plays the matches of one line-up in a row in one jail (`_live`, by
# thread): it hardens once, and forks a process from that state for each match.
# It keeps one more jail ready, spawned and hardened, for a new line-up or the match
# after a failure. `discard_spares` ends them all, and the jails in play (`_playing`).
keep_spares = False
_spares: dict[tuple, Future] = {}


def keep_spare_jails(keep: bool) -> None:
    """Whether this process plays match after match (a batch's worker): then it keeps a
    line-up's jail and one spare, hardened, ready for the next match; `discard_spares`
    ends them."""
    global keep_spares
    keep_spares = keep
_live: dict[int, tuple[tuple, tuple, Jail]] = {}
_playing: set[Jail] = set()
_taken: set[tuple] = set()           # keys that took a jail before
_helper: ThreadPoolExecutor | None = None


def _in_background(work, *args) -> Future:
    """Run `work` on this process's one helper thread: the host's side of starting and
    ending jails (moving one into its cgroups waits out an RCU grace period, reaping one
    waits for its mounts to go) happens while the match plays."""
    global _helper
    if _helper is None:
        _helper = ThreadPoolExecutor(1, thread_name_prefix="arena-jails")
    return _helper.submit(work, *args)


def _take(key: tuple, limits: Limits, bots: int, isolation: Isolation,
          job_module: str, game: str = "") -> Jail:
    """The jail kept ready for `key`, or a new one; and, if kept, the next one started.
    The first take starts none: a batch's one line-up plays on in the jail it gets, and
    a spare is wanted only once jails change (a new line-up, a kill)."""
    ready = _spares.pop(key, None)
    if keep_spares and key in _taken:
        _spares[key] = _in_background(Jail, limits, bots, isolation, job_module, game)
    _taken.add(key)
    if ready is not None:
        try:
            return ready.result()
        except Exception:
            pass                # the next attempt says why, if it fails again
    return Jail(limits, bots, isolation, job_module, game)


def _reused(key: tuple, lineup: tuple) -> Jail | None:
    """The jail that played this line-up's last match, if it may play this one."""
    live = _live.pop(threading.get_ident(), None)
    if live is None:
        return None
    if live[:2] == (key, lineup) and live[2].reusable():
        return live[2]
    _end(live[2])
    return None


def _end(jail: Jail) -> None:
    if keep_spares:
        _in_background(jail.kill)
    else:
        jail.kill()


def discard_spares() -> None:
    """Kill the jails kept ready, live or in play (a batch that stops), and remove their
    cgroups. A match in play fails (JailError), and is not played again."""
    global _helper
    for jail in list(_playing):
        jail.stopped = True
        jail.kill()
    while _live:
        _live.popitem()[1][2].kill()
    while _spares:
        try:
            _spares.popitem()[1].result().kill()
        except Exception:
            pass
    if _helper is not None:
        _helper.shutdown(wait=True)
        _helper = None


def run(spec, check, on_turn=None, replay: bool = False, max_turns: int = 0, *,
        job_module: str) -> Played | JailFailure:
    """Play `spec` (its limits and map text filled in) in a match jail, once: the jail
    runs `job_module`'s `play` (the caller's: `sandbox/_jailzygote.py`). `check(
    result, replay)` says why the result is not taken, and the seat it charges, or (None,
    None): a result not taken is a failure, and retires its jail. In a worker the jail of
    the line-up's previous match plays it, if it may. `strict` raises SandboxUnavailable
    where the jail lacks a layer."""
    isolation = Isolation(get_mode(spec.sandbox).tier, spec.skip_layers)  # type: ignore[arg-type]  # a jail's mode has a tier
    key = (os.getpid(), threading.get_ident(), spec.limits, len(spec.bots), isolation,
           job_module, spec.game)
    lineup = tuple(sorted(bot.sha256 for bot in spec.bots))
    jail = _reused(key, lineup) or _take(key, spec.limits, len(spec.bots), isolation,
                                         job_module, spec.game)
    _playing.add(jail)
    log.debug("seed %d: match jail %d plays it", spec.seed, jail.pid)
    try:
        outcome = jail.run({"spec": spec, "replay": replay}, on_turn, max_turns)
    except JailError as exc:
        outcome = JailFailure(str(exc))
    except BaseException:
        jail.kill()
        raise
    finally:
        _playing.discard(jail)
    if jail.stopped:
        raise JailError("the match jail was stopped with its batch")
    if isinstance(outcome, Played):
        try:
            why, seat = check(outcome.result, outcome.replay)
        except Exception as exc:     # the jail's data: whatever fails reading it refuses it
            why, seat = f"its result could not be read ({type(exc).__name__})", None
        if why is not None:
            outcome = JailFailure(why, seat)
    if isinstance(outcome, JailFailure):
        log.debug("seed %d: match jail %d failed: %s", spec.seed, jail.pid, outcome.reason)
    if isinstance(outcome, Played) and keep_spares and jail.returncode is None:
        _live[threading.get_ident()] = (key, lineup, jail)   # `_reused` asks if it may
    else:
        _end(jail)
    return outcome
