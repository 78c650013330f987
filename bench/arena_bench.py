"""Robot Arena throughput: the official-size map, 8 sample AIs x 40 robots.

Runs sandboxed and in-process (--sandbox off) matches on the same seeds, interleaved so
the machine's noise hits both alike, and prints:
- turns per second and robot decisions per second;
- the median per-turn time split into engine, IPC and bot time;
- the ratio of sandboxed to in-process time, seed by seed.
The phase of the target: 200 turns (sandboxed at most 1.15x in-process, median of
the seeds). With --all, two more: whole matches (up to 1000 turns, most robots die early)
and the opening 100 turns, when all 320 robots are alive and every turn is full.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.arena.rules import rules_from  # noqa: E402
from orchestrator.runner.bots import read_bot, sample_bots  # noqa: E402
from orchestrator.runner.match import MatchSpec, Timing, run_match  # noqa: E402

out = Console(width=110)


def one(mode: str, seed: int, turns: int) -> tuple[float, int, Timing]:
    bots = [read_bot(p) for p in sample_bots("arena")] * 2
    spec = MatchSpec("arena", ROOT / "maps/arena/official.txt", bots, seed,
                     rules_from("seed", max_turns=turns), sandbox=mode)
    timing = Timing()
    started = time.perf_counter()
    result = run_match(spec, timing=timing)
    return time.perf_counter() - started, result["turns"], timing


def phase(title: str, seeds: list[int], turns: int, target: float) -> None:
    runs = {"standard": [], "off": []}
    for seed in seeds:
        for mode in ("standard", "off"):
            runs[mode].append(one(mode, seed, turns))
    table = Table(title=title)
    for column in ("mode", "turns", "turns/s", "decisions/s", "engine ms", "IPC ms",
                   "bots ms", "match s"):
        table.add_column(column, justify="right")
    for mode, got in runs.items():
        wall = sum(w for w, _, _ in got)
        turns_played = sum(t for _, t, _ in got)
        decisions = sum(tm.decisions for _, _, tm in got)
        engine = [x for _, _, tm in got for x in tm.engine_s]
        # IPC: the exchange's wall time beyond what the slowest child spent answering.
        ipc = [e - b for _, _, tm in got for e, b in zip(tm.exchange_s, tm.child_busy_s,
                                                                      strict=True)]
        bots = [x for _, _, tm in got for x in tm.bot_s]
        table.add_row(mode, str(turns_played), f"{turns_played / wall:.0f}",
                      f"{decisions / wall:.0f}", f"{statistics.median(engine) * 1e3:.2f}",
                      f"{statistics.median(ipc) * 1e3:.2f}" if mode != "off" else "-",
                      f"{statistics.median(bots) * 1e3:.2f}", f"{wall:.2f}")
    out.print(table)
    ratios = [s[0] / o[0] for s, o in zip(runs["standard"], runs["off"], strict=True)]
    out.print(f"sandboxed / in-process match time, per seed: "
              f"{', '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f}"
              f" (target <= {target})\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="matches per mode and phase")
    parser.add_argument("--all", action="store_true",
                        help="also the opening 100 turns and whole matches (up to 1000)")
    args = parser.parse_args()
    seeds = list(range(1, args.seeds + 1))
    out.print("[bold]Robot Arena, official map (77x77), 8 sample AIs x 40 robots[/bold]")
    out.print("engine: the host's views + rules; IPC: exchange wall time beyond the slowest "
              "child's own time; bots: the sum of all AIs' time inside move().\n")
    # The target: 200 turns, sandboxed within 1.15x of in-process.
    phase("200 turns", seeds, 200, target=1.15)
    if args.all:
        phase("opening: first 100 turns, all 320 robots alive", seeds, 100, target=1.5)
        phase("whole matches (up to 1000 turns)", seeds, 1000, target=1.15)


if __name__ == "__main__":
    main()
