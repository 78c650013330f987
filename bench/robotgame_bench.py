"""Robot Game: our sandboxed engine against rgkit's, same bots, same seeds, one core.

Everything runs pinned to CPU 0 (children inherit the pinning), variants interleaved:
- rgkit's engine in a loop (rgkit-py3's Game, bots in its own process, no limits);
- rgkit the way its users run a game: one `rgrun -H` process per game;
- ours, sandboxed (`standard`): two isolated children per game;
- ours in-process (`--sandbox off`).
It prints games per second, the ratio to rgkit, and where our time goes.
"""
from __future__ import annotations

import argparse
import ast
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.robotgame.rules import rules_from  # noqa: E402
from orchestrator.runner.bots import read_bot  # noqa: E402
from orchestrator.runner.match import MatchSpec, Timing, run_match  # noqa: E402

out = Console(width=110)
MAP = ROOT / "maps" / "robotgame" / "default.py"
PAIRS = [("example.py", "example.py"), ("survivor.py", "example.py"),
         ("coordinator.py", "rusher.py")]


def rgkit_loop(a: Path, b: Path, seeds: list[int]) -> float:
    """Seconds per game in rgkit's engine, bots in-process, as `rgrun -c` plays them."""
    from rgkit import game as rgkit_game
    from rgkit import rg as rgkit_rg
    from rgkit.settings import settings
    settings.init_map(ast.literal_eval(MAP.read_text()))
    sys.modules["rg"] = rgkit_rg
    players = [rgkit_game.Player(file_name=str(a)), rgkit_game.Player(file_name=str(b))]
    started = time.perf_counter()
    for seed in seeds:
        for player in players:
            player.load()
        rgkit_game.Game(players, seed=seed).run_all_turns()
    return (time.perf_counter() - started) / len(seeds)


def rgkit_processes(a: Path, b: Path, seeds: list[int]) -> float | None:
    """Seconds per game with one `rgrun -H` process per game."""
    rgrun = shutil.which("rgrun", path=str(Path(sys.executable).parent)) or shutil.which("rgrun")
    if rgrun is None:
        return None
    started = time.perf_counter()
    for seed in seeds:
        subprocess.run([rgrun, "-H", "--game-seed", str(seed), str(a), str(b)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - started) / len(seeds)


def ours(a: Path, b: Path, seeds: list[int], sandbox: str, timing: Timing | None = None
         ) -> float:
    bots = [read_bot(a), read_bot(b)]
    started = time.perf_counter()
    for seed in seeds:
        run_match(MatchSpec("robotgame", MAP, bots, seed, rules_from(), sandbox=sandbox),
                  timing=timing)
    return (time.perf_counter() - started) / len(seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per pair and variant")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    args = parser.parse_args()
    os.sched_setaffinity(0, {0})
    bots = ROOT / "bots" / "robotgame"
    ours(bots / "example.py", bots / "example.py", [0], "standard")     # start the zygote
    out.print(f"[bold]Robot Game, {args.games} games x {args.rounds} rounds per pair, "
              f"pinned to one core[/bold]\n")
    table = Table(title="games per second (median of rounds)")
    for column in ("bots", "rgkit loop", "rgrun per game", "ours sandboxed", "ours off",
                   "sandboxed / rgkit loop"):
        table.add_column(column, justify="right")
    breakdown = []
    for a, b in PAIRS:
        runs: dict[str, list[float]] = {k: [] for k in ("loop", "proc", "std", "off")}
        timing = Timing()
        for round_ in range(args.rounds):
            seeds = list(range(round_ * args.games, (round_ + 1) * args.games))
            runs["loop"].append(rgkit_loop(bots / a, bots / b, seeds))
            proc = rgkit_processes(bots / a, bots / b, seeds[:5])
            if proc is not None:
                runs["proc"].append(proc)
            runs["std"].append(ours(bots / a, bots / b, seeds, "standard", timing))
            runs["off"].append(ours(bots / a, bots / b, seeds, "off"))
        rate = {k: 1 / statistics.median(v) if v else None for k, v in runs.items()}
        table.add_row(f"{a} v {b}", f"{rate['loop']:.1f}",
                      f"{rate['proc']:.1f}" if rate["proc"] else "-", f"{rate['std']:.1f}",
                      f"{rate['off']:.1f}", f"{rate['std'] / rate['loop']:.2f}")
        games = args.games * args.rounds
        breakdown.append((f"{a} v {b}", statistics.median(runs["std"]) * 1e3,
                          sum(timing.engine_s) / games * 1e3,
                          sum(timing.exchange_s) / games * 1e3,
                          sum(timing.bot_s) / games * 1e3))
    out.print(table)
    split = Table(title="ours sandboxed, per game (ms)")
    for column in ("bots", "total", "engine", "exchange", "in act()", "start + stop"):
        split.add_column(column, justify="right")
    for name, total, engine, exchange, act in breakdown:
        split.add_row(name, f"{total:.1f}", f"{engine:.1f}", f"{exchange:.1f}", f"{act:.1f}",
                      f"{total - engine - exchange:.1f}")
    out.print(split)
    out.print("target: sandboxed >= 2x the rgkit loop's games per second")


if __name__ == "__main__":
    main()
