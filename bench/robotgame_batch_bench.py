"""Robot Game batches against rgkit's own parallel runner, same bots, games and cores.

For each pair of bots, in one run with the variants interleaved:
- `rgrun -H -qqqq -c N a b`: rgkit's runner, a process pool on every core, bots loaded in
  its workers, no limits and no isolation;
- `arena batch a b --game robotgame --seeds N`, sandboxed (`standard`): every game's two
  players isolated and limited, every result stored;
- the same with `--sandbox off` (bots in the workers' own processes).
Each is a whole command, start to exit, on every core. Target: sandboxed at least 1.0x
rgkit's runner on every pair.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots" / "robotgame"
PAIRS = [("example.py", "example.py"), ("survivor.py", "example.py"),
         ("coordinator.py", "rusher.py")]
out = Console(width=110)


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair and variant")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    rgrun = shutil.which("rgrun", path=str(Path(sys.executable).parent))
    cores = len(os.sched_getaffinity(0))
    table = Table(title=f"Robot Game, {args.games} games per batch, {cores} cores, games/s "
                        f"(median of {args.rounds} rounds)")
    for column in ("bots", "rgrun -H -c N", "ours sandboxed", "ours in-process",
                   "sandboxed / rgrun"):
        table.add_column(column, justify="right")
    with tempfile.TemporaryDirectory() as tmp:
        for a, b in PAIRS:
            pair = [str(BOTS / a), str(BOTS / b)]
            runs: dict[str, list[float]] = {"rgrun": [], "standard": [], "off": []}
            for round_ in range(args.rounds):
                runs["rgrun"].append(timed([rgrun, "-H", "-qqqq", "-c", str(args.games),
                                            *pair]))
                for mode in ("standard", "off"):
                    db = Path(tmp) / f"{a}-{b}-{mode}-{round_}.sqlite"
                    runs[mode].append(timed([sys.executable, "-m", "orchestrator", "batch",
                                             *pair, "--game", "robotgame", "--seeds",
                                             str(args.games), "--sandbox", mode,
                                             "--db", str(db), "--json"]))
            rate = {k: args.games / statistics.median(v) for k, v in runs.items()}
            table.add_row(f"{a} v {b}", f"{rate['rgrun']:.1f}", f"{rate['standard']:.1f}",
                          f"{rate['off']:.1f}", f"{rate['standard'] / rate['rgrun']:.2f}x")
    out.print(table)
    out.print("target: sandboxed at least 1.0x rgrun on every pair\n")


if __name__ == "__main__":
    main()
