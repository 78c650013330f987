"""Race some Robots: rounds per second for six sample bots, sandboxed and in-process,
side by side in one run (target: at least 200 rounds/s sandboxed, and sandboxed within
1.5x of in-process); and the planner against five random bots over 200 seeds, with its
win rate's 95 % interval (target: more than 80 %).

Rounds are timed from the first round to the last (start-up is reported apart). Games are
capped at 100 rounds; a win ends one sooner. The variants alternate, seed after seed, so
the machine's noise hits each alike.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orchestrator.games import get_game  # noqa: E402
from orchestrator.runner.bots import read_bot  # noqa: E402
from orchestrator.runner.match import MatchSpec, run_match  # noqa: E402

GAME = get_game("race")
SIX = ["planner.py", "random_bot.py", "cautious.py", "sprinter.py", "planner.py",
       "random_bot.py"]


def one_race(sandbox: str, seed: int) -> tuple[int, float, float]:
    """(rounds, seconds from round 1 to the end, seconds of start-up)."""
    bots = [read_bot(ROOT / "bots" / "race" / name) for name in SIX]
    marks: list[float] = []
    spec = MatchSpec("race", GAME.find_map(None), bots, seed, GAME.rules("seed"), None,
                     sandbox)
    started = time.perf_counter()
    result = run_match(spec, on_turn=lambda turn, cap: marks.append(time.perf_counter()))
    # marks[0]: round 0 (the facings) is done; the rest are rounds 1..n
    return result["turns"], marks[-1] - marks[0], marks[0] - started


def planner_series(seeds: int, out: Console) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "orchestrator", "batch", "--game", "race", "--seeds",
             str(seeds), "--db", f"{tmp}/race.db", "--json",
             str(ROOT / "bots/race/planner.py"), *[str(ROOT / "bots/race/random_bot.py")] * 5],
            cwd=ROOT, text=True, capture_output=True, check=False)
        spent = time.perf_counter() - started
    if done.returncode != 0:
        out.print(f"batch failed: {done.stderr[-500:]}")
        return
    planner = next(p for p in json.loads(done.stdout)["players"] if p["name"] == "planner")
    low, high = planner["win_ci"]
    out.print(f"planner vs 5 random bots, {seeds} seeds ({spent:.0f} s, sandboxed): wins "
              f"{planner['wins']} = {planner['win_rate']:.1%} (95 % interval {low:.1%} - "
              f"{high:.1%}; target > 80 %)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="races per variant")
    parser.add_argument("--series", type=int, default=200, help="planner check seeds")
    args = parser.parse_args()
    out = Console()
    totals = {mode: [0, 0.0, []] for mode in ("standard", "off")}
    for seed in range(1, args.seeds + 1):
        for mode in ("standard", "off"):
            rounds, spent, start = one_race(mode, seed)
            totals[mode][0] += rounds
            totals[mode][1] += spent
            totals[mode][2].append(start)
    table = Table(title=f"six sample bots, {args.seeds} races each (rounds 1..n)")
    for column in ("", "rounds", "rounds/s", "start-up (median)"):
        table.add_column(column, justify="right")
    rate = {}
    for mode, (rounds, spent, starts) in totals.items():
        rate[mode] = rounds / spent
        table.add_row("sandboxed" if mode == "standard" else "in-process (off)", str(rounds),
                      f"{rate[mode]:.0f}", f"{statistics.median(starts) * 1000:.0f} ms")
    out.print(table)
    out.print(f"in-process / sandboxed: {rate['off'] / rate['standard']:.2f}x (target <= 1.5); "
              f"sandboxed {rate['standard']:.0f} rounds/s (target >= 200)")
    if args.series:
        planner_series(args.series, out)


if __name__ == "__main__":
    main()
