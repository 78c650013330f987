"""`--sandbox off`: bots run inside the host process, for stepping through them with pdb.

No limits and no isolation. The same child-side runtime plays the same match as the
sandbox does for the same seed; only the bots' output goes to stderr instead of the result.
An executable bot runs as a plain child process of the host, with the same turn timing.
"""
from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import sys
import tempfile
import time

from sandbox.host import BotSpec, start_frame
from sandbox.limits import Limits
from sandbox.paths import BOTLIB


def _botlib():
    """The child-side modules, imported from the bot path exactly as a child imports them."""
    if str(BOTLIB) not in sys.path:
        sys.path.insert(0, str(BOTLIB))
    import _runtime  # noqa: PLC0415
    return _runtime


class InProcessPlayer:
    """One AI loaded in this process."""

    def __init__(self, bot_side: str, bot: BotSpec, ai: int) -> None:
        runtime = _botlib()
        self.cpu_used = 0.0
        self.peak_rss_mb = 0.0
        self.startup_output = ""
        self.startup_violations: list[str] = []
        self.game = importlib.import_module(bot_side)
        self.guard = runtime.NoGuard()
        with contextlib.redirect_stdout(sys.stderr):
            self.module = runtime.load_bot(bot.source, bot.filename, self.guard,
                                           module_name=f"bot_{ai}")
            self.game.check_module(self.module)
        self.watch = runtime.ModuleWatch(self.module) if self.game.WATCH_MODULE_STATE else None

    def start(self, names: list[str], ai: int, seed: int, info: dict | None = None) -> None:
        self.runtime = self.game.RUNTIME(self.module, start_frame(names, ai, seed, info),
                                         self.guard)

    def kill(self) -> None:
        """Nothing to kill in-process."""

    def call(self, payload: dict) -> dict:
        started, cpu = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(sys.stderr):
            reply = self.runtime.handle(payload)
        self.cpu_used += time.process_time() - cpu
        reply["warn"] = self.watch.changes() if self.watch else []
        reply["out"] = ""
        reply["busy_s"] = time.perf_counter() - started
        return reply


class ProgramPlayer:
    """An executable bot, run without a sandbox: its file and scratch in a temp directory."""

    def __init__(self, bot: BotSpec, limits: Limits) -> None:
        runtime = _botlib()
        import _program  # noqa: PLC0415
        program = bot.program
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
        self.runner = _program.runner_for(program, path, limits.for_child(), workdir,
                                          bot.scratch or {})

    def start(self, names: list[str], ai: int, seed: int, info: dict | None = None) -> None:
        """A program learns everything from its turns."""

    def call(self, payload: dict) -> dict:
        started = time.perf_counter()
        reply = self.runner.turn(payload["input"])
        reply["busy_s"] = time.perf_counter() - started
        return reply

    def kill(self) -> None:
        self.runner.stop()
        shutil.rmtree(self.home, ignore_errors=True)


def load_players(bot_side: str, bots: dict[int, BotSpec], limits: Limits
                 ) -> tuple[dict, dict[int, str]]:
    """Load every bot in this process. Returns the players and the load errors."""
    players: dict = {}
    failed: dict[int, str] = {}
    runtime = _botlib()
    for ai, bot in bots.items():
        try:
            if bot.program is not None:
                players[ai] = ProgramPlayer(bot, limits)
                continue
            players[ai] = InProcessPlayer(bot_side, bot, ai)
        except runtime.LoadError as exc:
            failed[ai] = str(exc)
        except Exception as exc:
            failed[ai] = runtime.describe_error(exc)
    return players, failed


def exchange(players: dict, payloads: dict[int, tuple[dict, int]]
             ) -> tuple[dict[int, dict], dict[int, str]]:
    """Call each AI in turn. A MemoryError or SystemExit in a bot still erases it."""
    runtime = _botlib()
    replies, failed = {}, {}
    for ai, (payload, _calls) in payloads.items():
        try:
            replies[ai] = players[ai].call(payload)
        except runtime.Fatal as exc:
            failed[ai] = str(exc)
    return replies, failed
