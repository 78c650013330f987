"""Robot Game: Ruby bots against Python bots, sandboxed, games per second side by side.

The seed's example robot in both languages (bots/robotgame/example.rb and example.py,
which act identically), each against itself, same seeds, one core, rounds interleaved.
A Ruby player is a program under the executables sandbox: a keeper, and the Ruby driver
started once per game; a Python player is one sandboxed child.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.robotgame.rules import rules_from  # noqa: E402
from orchestrator.runner.bots import read_bot  # noqa: E402
from orchestrator.runner.match import MatchSpec, run_match  # noqa: E402

MAP = ROOT / "maps" / "robotgame" / "default.py"
out = Console(width=110)


def games_per_second(bot: Path, seeds: list[int]) -> float:
    bots = [read_bot(bot), read_bot(bot)]
    started = time.perf_counter()
    for seed in seeds:
        run_match(MatchSpec("robotgame", MAP, bots, seed, rules_from(), sandbox="standard"))
    return len(seeds) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    os.sched_setaffinity(0, {0})
    bots = {"Python": ROOT / "bots/robotgame/example.py",
            "Ruby": ROOT / "bots/robotgame/example.rb"}
    games_per_second(bots["Python"], [0])                 # start the zygote
    rates: dict[str, list[float]] = {name: [] for name in bots}
    for round_ in range(args.rounds):
        seeds = list(range(round_ * args.games, (round_ + 1) * args.games))
        for name, bot in bots.items():
            rates[name].append(games_per_second(bot, seeds))
    table = Table(title=f"example v example, sandboxed, one core, {args.games} games x "
                        f"{args.rounds} rounds")
    for column in ("language", "games/s (median)", "min", "max"):
        table.add_column(column, justify="right")
    for name, got in rates.items():
        table.add_row(name, f"{statistics.median(got):.1f}", f"{min(got):.1f}", f"{max(got):.1f}")
    out.print(table)
    ratio = statistics.median(rates["Ruby"]) / statistics.median(rates["Python"])
    out.print(f"Ruby / Python: {ratio:.2f}x\n")


if __name__ == "__main__":
    main()
