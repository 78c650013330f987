"""`--sandbox off`: bots run inside the host process, for stepping through them with pdb.

No isolation, and no limit that could stop a bot mid-call. The same child-side runtime
plays the same match as the sandbox does for the same seed; only the bots' output goes to
stderr instead of the result. An executable bot runs as a plain child process of the host,
with the same turn timing (its program's own time judged as the host judges it).

A Python bot's own time (its call's wall time less this thread's run-queue wait, from
/proc) is judged after each request, as far as this mode can: past the request's limit or
the match's own bank, the AI is erased, as in the standard mode, once the call has
returned. Not while a debugger holds it: a match in which `breakpoint()` was called, or a
call that ends with a trace function set (pdb stepping), is not judged for time.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import threading
import time
import warnings

from sandbox.frames import BotSpec, side_parts, start_frame
from sandbox.limits import Limits
from sandbox.paths import BOTLIB
from sandbox.players import Exchanged, Payloads, Seats
from sandbox.processes import live_usage
from sandbox.replies import Reply, checked_reply
from sandbox.shown import shown


def child_runtime():
    """The child-side modules, imported from the bot path exactly as a child imports them."""
    if str(BOTLIB) not in sys.path:
        sys.path.insert(0, str(BOTLIB))
    import _runtime  # noqa: PLC0415
    return _runtime


class _Shown:
    """What a bot in this process prints (stdout and stderr, at import and in its calls),
    written to this process's stderr as text: its control, escape and bidi characters
    shown as their escapes, lines and tabs kept (`sandbox.shown`), so print
    debugging and pdb work while a bot's OSC retitle or screen clear reaches the terminal
    as characters, as everywhere else a bot's text is shown."""

    def __init__(self, target) -> None:
        self._target, self._shown = target, shown

    def write(self, text) -> int:
        if not isinstance(text, str):
            raise TypeError("write() argument must be str")
        self._target.write(self._shown(text, lines=True))
        return len(text)

    def __getattr__(self, name):        # flush, isatty, fileno, encoding...: the target's
        return getattr(self._target, name)


@contextlib.contextmanager
def _bot_output():
    """A bot's stdout and stderr, shown as text on this process's stderr."""
    shown = _Shown(sys.stderr)
    with contextlib.redirect_stdout(shown), contextlib.redirect_stderr(shown):
        yield


_debugged = [False]          # breakpoint() was called in this process: time is not judged


def _note_breakpoint(*args, **kwargs):
    """sys.breakpointhook, wrapped once: a debugger's pause is not the bot's own time."""
    _debugged[0] = True
    return _note_breakpoint.inner(*args, **kwargs)


def _watch_breakpoints() -> None:
    if sys.breakpointhook is not _note_breakpoint:
        _note_breakpoint.inner = sys.breakpointhook      # type: ignore[attr-defined]
        sys.breakpointhook = _note_breakpoint


class InProcessPlayer:
    """One AI loaded in this process."""

    def __init__(self, bot_side: str, bot: BotSpec, ai: int, limits: Limits) -> None:
        runtime = child_runtime()
        _watch_breakpoints()
        self.limits = limits
        self.own_used = 0.0
        self.cpu_used = 0.0
        self.peak_rss_mb = 0.0
        self.startup_output = ""
        self.startup_violations: list[str] = []
        self.game = runtime.bot_side(*side_parts(bot_side))
        self.guard = runtime.NoGuard()
        with _bot_output():
            self.module = runtime.load_checked(self.game, bot.source, bot.filename,
                                               self.guard, module_name=f"bot_{ai}")
        self.watch = runtime.module_watch(self.game, self.module)
        self.runtime_mod = runtime
        self.limits_out = 0                # its output goes to stderr, not to the reply

    def start(self, names: list[str], ai: int, key: str, info: dict | None = None) -> None:
        self.runtime = self.runtime_mod.start_runtime(
            self.game, self.module, start_frame(names, ai, key, info), self.guard)

    def kill(self) -> None:
        """Nothing to kill in-process."""

    def usage(self) -> tuple[float, float, float]:
        """CPU s and own time of its calls; its memory is this process's, not its own (0)."""
        return self.cpu_used, self.peak_rss_mb, self.own_used

    def call(self, payload: dict, calls: int = 1) -> dict:
        thread = threading.get_native_id()
        waited = _sched().waited_s(thread)
        started, cpu = time.perf_counter(), time.process_time()
        with _bot_output():
            reply = self.runtime.handle(payload)
        spent = time.process_time() - cpu
        self.cpu_used += spent
        self._judge(time.perf_counter() - started, waited, _sched().waited_s(thread), calls,
                    spent)
        reply["warn"] = self.watch.changes() if self.watch else []
        reply["out"] = ""
        reply["busy_s"] = time.perf_counter() - started
        return self.runtime_mod._marks.take(reply)

    def _judge(self, took: float, waited: float | None, now_waited: float | None,
               calls: int, cpu: float) -> None:
        """The request's own time (`took` less this thread's wait to run meanwhile) to the
        bank; Fatal past the bank, or past its limit in time it did not compute (`cpu`:
        a computing call is the CPU limits' to judge, as the host judges a child that is
        running when it looks), unless a debugger held the call."""
        own = took - (now_waited - waited) if waited is not None and now_waited is not None \
            else took
        self.own_used += max(0.0, own)
        if _debugged[0] or sys.gettrace() is not None:
            return
        limits = self.limits
        if own - cpu > limits.request_own_s(calls):
            raise self.runtime_mod.Fatal("wall time limit (hang)")
        if self.own_used > limits.own_bank_s:
            raise self.runtime_mod.Fatal(_sched().bank_reason(self.own_used,
                                                              limits.own_bank_s))


def _sched():
    """The child side's `_sched`, imported from the bot path as a child imports it."""
    child_runtime()
    import _sched  # noqa: PLC0415
    return _sched


class ProgramPlayer:
    """An executable bot, run without a sandbox: its file and scratch in a temp directory."""

    def __init__(self, bot_side: str, bot: BotSpec, limits: Limits) -> None:
        runtime = child_runtime()
        import _program  # noqa: PLC0415
        self.bot_side = bot_side
        self.limits = limits.for_child()
        self.limits_out = limits.output_bytes     # its program's stderr, per turn
        self.adapter = None
        program = bot.program
        if program is None:
            raise runtime.LoadError("not an executable bot")
        if program["problem"]:
            raise runtime.LoadError(program["problem"])
        self.cpu_used = 0.0
        self.peak_rss_mb = 0.0
        self.startup_output = ""
        self.startup_violations: list[str] = []
        self.home = tempfile.mkdtemp(prefix="arena-program-")
        workdir = os.path.join(self.home, "scratch")
        os.mkdir(workdir)
        path = os.path.join(self.home, program["file"])
        with open(path, "wb") as f:
            f.write(bot.source)
        os.chmod(path, 0o555)
        self.runner = _program.runner_for(program, path, self.limits, workdir,
                                          bot.scratch or {})

    def start(self, names: list[str], ai: int, key: str, info: dict | None = None) -> None:
        """A Cave program learns everything from its turns; a game whose players may be
        Python or programs (Robot Game) speaks to it through the keeper's adapter."""
        import _keeper  # noqa: PLC0415
        adapter = _keeper.program_adapter(*side_parts(self.bot_side))
        if adapter is not None:
            self.adapter = adapter(self.runner, start_frame(names, ai, key, info), self.limits)

    def call(self, payload: dict, calls: int = 1) -> dict:
        started = time.perf_counter()
        reply = self.adapter.turn(payload) if self.adapter else self.runner.turn(payload["input"])
        reply["busy_s"] = time.perf_counter() - started
        self._look()
        if "fatal" in reply:
            raise child_runtime().Fatal(str(reply["fatal"]))
        if self.runner.own_s > self.limits["own_bank_s"]:     # its runner judged each turn
            raise child_runtime().Fatal(_sched().bank_reason(self.runner.own_s,
                                                             self.limits["own_bank_s"]))
        return reply

    def _look(self) -> None:
        """Read the running program (a child of this process), as the host reads a
        sandboxed one: its CPU clock and VmHWM."""
        runner = self.runner
        if runner.program is not None:
            cpu, peak = live_usage(runner.program.pid)
            self.cpu_used = max(self.cpu_used, runner.ended_cpu_s + cpu)
            self.peak_rss_mb = max(self.peak_rss_mb, peak)
        self.cpu_used = max(self.cpu_used, runner.ended_cpu_s)
        self.peak_rss_mb = max(self.peak_rss_mb, runner.ended_peak / (1 << 20))

    def usage(self) -> tuple[float, float, float]:
        """CPU s, peak RSS MiB and own time of its programs over the match."""
        return self.cpu_used, self.peak_rss_mb, self.runner.own_s

    def kill(self) -> None:
        self._look()
        self.runner.stop()
        self._look()                 # the last program's figures, from wait4
        shutil.rmtree(self.home, ignore_errors=True)


HASH_WARNING = ("--sandbox off: this process hashes strings with a random seed, not the "
                "standard children's PYTHONHASHSEED=0, so a Python bot that iterates a set "
                "of strings may play another game than in the standard mode; start Python "
                "with PYTHONHASHSEED=0 (the `arena` command does so itself)")


def load_players(bot_side: str, bots: dict[int, BotSpec], limits: Limits
                 ) -> tuple[dict, dict[int, str]]:
    """Load every bot in this process. Returns the players and the load errors. A Python
    bot here hashes as this process does: the `arena` command gives itself the children's
    seed (orchestrator/cli/launch.py); a caller of the API that did not is warned."""
    if sys.flags.hash_randomization and any(bot.program is None for bot in bots.values()):
        warnings.warn(HASH_WARNING, RuntimeWarning, stacklevel=2)
    players: dict = {}
    failed: dict[int, str] = {}
    runtime = child_runtime()
    for ai, bot in bots.items():
        try:
            if bot.program is not None:
                players[ai] = ProgramPlayer(bot_side, bot, limits)
                continue
            players[ai] = InProcessPlayer(bot_side, bot, ai, limits)
        except runtime.LoadError as exc:
            failed[ai] = str(exc)
        except Exception as exc:
            failed[ai] = runtime.describe_error(exc)
    return players, failed


def exchange(players: dict, payloads: Payloads) -> Exchanged:
    """Call each AI in turn. A MemoryError or SystemExit in a bot still erases it."""
    runtime = child_runtime()
    replies: dict[int, Reply] = {}
    failed: dict[int, str] = {}
    for ai, (payload, calls) in payloads.items():
        try:
            answer = players[ai].call(payload, calls)
        except runtime.Fatal as exc:
            failed[ai] = str(exc)
            continue
        # The protocol's envelope, as the host checks a child's (sandbox/replies.py).
        reply = checked_reply(answer, calls, players[ai].limits_out,
                              isinstance(players[ai], ProgramPlayer))
        if isinstance(reply, str):
            failed[ai] = reply
        else:
            replies[ai] = reply
    return replies, failed


class InProcessPlayers(Seats):
    """The players of `--sandbox off`: every bot in this process, called in turn."""

    def __init__(self, mode, bot_side: str, bots: dict[int, BotSpec], limits: Limits,
                 skip: tuple[str, ...] = ()) -> None:
        super().__init__(*load_players(bot_side, bots, limits))

    def exchange(self, payloads: Payloads) -> Exchanged:
        return exchange(self.loaded, payloads)
