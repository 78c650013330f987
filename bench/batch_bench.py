"""Batch throughput: matches per minute at 1 worker and at every core, and the scaling.

The same batch (same bots, seeds, map) runs into a fresh results file each time, the
variants interleaved over rounds. The 1-worker run is pinned to one core, so that the
scaling efficiency (throughput at N workers / N x throughput at 1) compares N cores with
one: a single match's AIs would otherwise already spread over several cores.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orchestrator.games import get_game  # noqa: E402
from orchestrator.results.store import Store  # noqa: E402
from orchestrator.runner import execute  # noqa: E402
from orchestrator.runner.bots import read_bot, sample_bots  # noqa: E402
from orchestrator.runner.schedule import Setup, plan_batch  # noqa: E402
from orchestrator.runner.series import Series  # noqa: E402

out = Console(width=110)
WORKLOADS = {
    "arena, 4 samples, quad, 8 robots, 150 turns":
        ("arena", "quad", {"robots_per_type": 8, "max_turns": 150}, None),
    "robotgame, coordinator v survivor": ("robotgame", None, {}, ("coordinator.py",
                                                                  "survivor.py")),
}


def planned_for(game_name: str, map_ref, rules: dict, bots, seeds: int):
    game = get_game(game_name)
    setup = Setup.make(game, map_ref, game.rules(game.presets[0], **rules), game.limits,
                       "standard")
    paths = [ROOT / "bots" / game_name / b for b in bots] if bots else sample_bots(game_name)
    return plan_batch(setup, [read_bot(p) for p in paths], list(range(1, seeds + 1)))


def throughput(planned, workers: int, cores: set[int]) -> float:
    """Matches per minute, playing and storing every match, pinned to `cores`."""
    everything = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cores)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            store = Store(Path(tmp) / "bench.sqlite")
            started = time.perf_counter()
            for item, outcome in execute.run(Series(planned), "local", workers):
                store.add_match(item.match_id, outcome["result"], outcome["wall_s"])
            elapsed = time.perf_counter() - started
            store.close()
    finally:
        os.sched_setaffinity(0, everything)
    return len(planned) / elapsed * 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=48, help="matches per batch")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    n = len(cores)
    out.print(f"[bold]Batch throughput, {args.matches} matches per batch, {args.rounds} rounds, "
              f"{n} cores[/bold]\n")
    table = Table(title="matches per minute (median of rounds)")
    for column in ("workload", "1 worker, 1 core", f"{n} workers, {n} cores",
                   "1 worker, all cores", "scaling efficiency"):
        table.add_column(column, justify="right")
    for name, (game, map_ref, rules, bots) in WORKLOADS.items():
        planned = planned_for(game, map_ref, rules, bots, args.matches)
        runs: dict[str, list[float]] = {"one": [], "all": [], "one_free": []}
        for _ in range(args.rounds):
            runs["one"].append(throughput(planned, 1, {cores[0]}))
            runs["all"].append(throughput(planned, n, set(cores)))
            runs["one_free"].append(throughput(planned, 1, set(cores)))
        one, all_, free = (statistics.median(runs[k]) for k in ("one", "all", "one_free"))
        table.add_row(name, f"{one:.0f}", f"{all_:.0f}", f"{free:.0f}",
                      f"{all_ / (n * one):.0%}")
    out.print(table)
    out.print("target: scaling efficiency >= 85 %")


if __name__ == "__main__":
    main()
