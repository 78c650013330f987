"""What a persistent program really used, in `arena run`'s JSON and table: CPU (every
thread, between turns too) and peak memory, within 20 % of what /proc shows while it runs.

The bots are tests/cave/figures/*: each says in a `figures:` line its game, the CPU it
burns each turn and the memory it holds, so a new file there adds its rows. Each game's
bots play one match per sandbox mode (and, as root, as an ordinary user), while a thread
here samples each program's VmHWM and utime + stime from /proc.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest
from rich.console import Console

from orchestrator.cli import run as cli
from orchestrator.games import GAMES
from sandbox.isolation import bwrap_problem
from sandbox.programs import describe
from tests.sandbox import as_user
from tests.support.paths import ARENA_CMD, ROOT
from tests.support.processes import default_sigint

FIGURES = Path(__file__).resolve().parent / "figures"
TURNS = 5
TICK_S = 1 / os.sysconf("SC_CLK_TCK")
# A Robot Game program plays beside the game's first Python sample.
PARTNERS = {"robotgame": [ROOT / "bots" / "robotgame" / "example.py"]}


@dataclass(frozen=True)
class Burner:
    path: Path
    game: str
    cpu_per_turn: float
    held_mb: float

    @property
    def missing(self) -> str | None:
        """Why its runtime cannot run here (the runtime table says), or None."""
        return describe(self.path.name, self.path.read_bytes())["problem"]


def _burners() -> list[Burner]:
    found = []
    for path in sorted(FIGURES.iterdir()):
        said = re.search(rb"figures: (.*)", path.read_bytes())
        if said:
            fields = dict(pair.split("=") for pair in said.group(1).decode().split())
            found.append(Burner(path, fields["game"], float(fields["cpu_per_turn"]),
                                float(fields["held_mb"])))
    return found


BURNERS = _burners()
BY_GAME = {game: [b for b in BURNERS if b.game == game] for game in GAMES
           if any(b.game == game for b in BURNERS)}


class Sampler(threading.Thread):
    """Reads, every 20 ms, each live descendant of `root` whose command line names one of
    the bots: its peak VmHWM (MiB) and its last utime + stime (s), per bot file name."""

    def __init__(self, root: int, names: list[str]) -> None:
        super().__init__(daemon=True)
        self.root, self.names = root, names
        self.cpu: dict[str, dict[int, float]] = {name: {} for name in names}
        self.peak: dict[str, float] = dict.fromkeys(names, 0.0)
        # The wall time between a program's last sample and the first round that no longer
        # found it: the CPU it used then is not in `cpu` (on a loaded machine this thread
        # may wait long to run), at most that time on each core.
        self.unseen: dict[str, float] = dict.fromkeys(names, 0.0)
        self.stop = threading.Event()

    def run(self) -> None:
        last_seen: dict[int, tuple[str, float]] = {}
        while not self.stop.wait(0.02):
            try:
                procs = psutil.Process(self.root).children(recursive=True)
            except psutil.Error:
                procs = []
            now = time.monotonic()
            alive = set()
            for proc in procs:
                try:
                    line = " ".join(proc.cmdline())
                except psutil.Error:
                    continue
                for name in self.names:
                    if name in line and self._sample(name, proc.pid):
                        last_seen[proc.pid] = (name, time.monotonic())
                        alive.add(proc.pid)
            for pid in [p for p in last_seen if p not in alive]:
                name, at = last_seen.pop(pid)
                self.unseen[name] += now - at
        for name, at in last_seen.values():          # still running when told to stop
            self.unseen[name] += time.monotonic() - at

    def _sample(self, name: str, pid: int) -> bool:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return False
        fields = stat.rpartition(")")[2].split()
        hwm = re.search(r"VmHWM:\s+(\d+)", status)
        if not hwm:                     # a zombie has no memory left to show
            return False
        self.cpu[name][pid] = (int(fields[11]) + int(fields[12])) * TICK_S
        self.peak[name] = max(self.peak[name], int(hwm.group(1)) / 1024)
        return True


def _play(game: str, sandbox: str, user: bool | None = None,
          bots: list[Burner] | None = None) -> tuple[dict, Sampler]:
    """`arena run --json` of the game's bots (as an ordinary user: `user` says whether
    with user namespaces), and what /proc showed of each bot meanwhile."""
    bots = bots or BY_GAME[game]
    absent = [f"{b.path.name}: {b.missing}" for b in bots if b.missing]
    if absent:
        pytest.skip("; ".join(absent))
    argv = [*ARENA_CMD, "run", "--game", game, "--max-turns", str(TURNS), "--seed", "7",
            "--sandbox", sandbox, "--json", *[str(b.path) for b in bots],
            *[str(p) for p in PARTNERS.get(game, [])]]
    if user is not None:
        home = as_user.make_home(as_user.ORDINARY_UID)
        argv = as_user.command(as_user.ORDINARY_UID, home, argv, user)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL, preexec_fn=default_sigint)
    sampler = Sampler(proc.pid, [b.path.name for b in bots])
    sampler.start()
    try:
        out, err = proc.communicate(timeout=300)
    finally:
        sampler.stop.set()
        sampler.join()
        if user is not None:
            subprocess.run(["rm", "-rf", home], check=False)
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out), sampler


def _check(result: dict, sampler: Sampler, bots: list[Burner]) -> None:
    players = {Path(p["bot"]).name: p for p in result["players"]}
    for bot in bots:
        me = players[bot.path.name]
        name = bot.path.name
        assert me["status"] == "ok", me["reason"]
        seen_cpu = sum(sampler.cpu[name].values())
        seen_mb = sampler.peak[name]
        # What the program could have used on every core while this test's sampler did not
        # look (its last rounds: a busy machine runs the sampler seldom).
        missed = sampler.unseen[name] * (os.cpu_count() or 1)
        # /proc saw it: it ran, and burned and held what it says it does.
        assert seen_cpu + missed >= 0.5 * result["turns"] * bot.cpu_per_turn, \
            (name, seen_cpu, missed)
        assert seen_mb >= bot.held_mb, (name, seen_mb)
        # Within 20 % of what /proc showed; above it by no more than it could have missed.
        assert 0.8 * seen_cpu <= me["cpu_s"] <= 1.2 * seen_cpu + missed, \
            (name, me, seen_cpu, missed)
        assert me["peak_rss_mb"] == pytest.approx(seen_mb, rel=0.2), (name, me, seen_mb)


SANDBOXES = ["standard", "bwrap", "off"]


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("game", BY_GAME)
def test_a_persistent_program_shows_the_cpu_and_memory_it_used(game: str, sandbox: str,
                                                               monkeypatch) -> None:
    if sandbox == "bwrap" and (problem := bwrap_problem()):
        pytest.skip(f"bubblewrap cannot start a sandbox here: {problem}")
    result, sampler = _play(game, sandbox)
    if not all(sampler.cpu[b.path.name] for b in BY_GAME[game]):
        # This test's own sampler never found a program alive (on a busy machine a round
        # of it, walking every process, can outlast a 5-turn match): nothing to compare
        # with, so the match is played again once; the checks below are the same.
        result, sampler = _play(game, sandbox)
    _check(result, sampler, BY_GAME[game])
    if game == "cave" and sandbox == "standard":
        _table_shows(result, monkeypatch)


def _table_shows(result: dict, monkeypatch) -> None:
    """`arena run`'s table shows the same figures as its JSON (its CPU s and MB columns)."""
    console = Console(width=200, record=True, color_system=None)
    monkeypatch.setattr(cli, "out", console)
    cli.print_result(result)
    text = console.export_text()
    for p in result["players"]:
        row = next(line for line in text.splitlines() if f" {p['name']} " in line)
        cells = [c.strip() for c in row.split("│")]
        assert f"{p['cpu_s']:.2f}" in cells and f"{p['peak_rss_mb']:.0f}" in cells, row


def _as_user_rows() -> list:
    return [pytest.param(userns, bot, id=f"{tier}-{bot.path.name}")
            for tier, userns in (("userns", True), ("no-userns", False))
            for bot in BY_GAME.get("cave", [])]


@pytest.mark.skipif(os.geteuid() != 0,
                    reason="not root: the whole suite already runs as an ordinary user")
@pytest.mark.parametrize(("user_namespaces", "bot"), _as_user_rows())
def test_the_figures_are_right_for_an_ordinary_user(user_namespaces: bool, bot: Burner
                                                    ) -> None:
    result, sampler = _play("cave", "standard", user_namespaces, [bot])
    _check(result, sampler, [bot])
