"""Robot Game batches against rgkit's own parallel runner, same bots, games and cores.

For each pair of bots, in one run with the variants interleaved:
- `rgrun -H -qqqq -c N a b`: rgkit's runner, a process pool on every core, bots loaded in
  its workers, no limits and no isolation;
- `arena batch a b --game robotgame --seeds N`, sandboxed (`standard`): every game's two
  players isolated and limited, every result stored;
- the same with `--sandbox match` (the engine and both bots in one jail, which plays the
  line-up's matches in a row, loading the bots anew for each);
- the same with `--sandbox off` (bots in the workers' own processes).
Each is a whole command, start to exit, on every core; each round runs the four one after
another, so the machine's noise falls on all of them alike. Targets: standard
at least 1.0x rgkit's runner on every pair, match at least 1.2x; the last line says the
worst pair of the run against them.
Then an arena batch of the arena samples in the three modes.

With `--old CHECKOUT`: only `--sandbox match`, this checkout's against the other's (the
code before a change), on the same pairs, interleaved round by round (each round in the
other order), the same seeds in both, and the ratio of their games/s and of their CPU
per game.
"""
from __future__ import annotations

import argparse
import compileall
import os
import resource
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


CPU_S: list[float] = []        # each timed command's CPU seconds, its whole tree's
FAULTS: list[int] = []         # and its page faults (perf's count; 0 without perf)
PERF = shutil.which("perf")


def timed(command: list[str], cwd: Path = ROOT) -> float:
    """The command's wall seconds; its CPU seconds go to CPU_S. On a shared machine the
    CPU is the steadier figure: wall time also measures the neighbours. The CPU is `perf
    stat`'s task-clock where perf runs (every process the command started, the zygotes
    it leaves to die unreaped too), else what the command reaped (RUSAGE_CHILDREN),
    which leaves those out: 10-20 % less for a 20-game batch, measured."""
    with tempfile.NamedTemporaryFile("r", suffix=".perf") as report:
        wrapped = [PERF, "stat", "-x,", "-e", "task-clock,page-faults", "-o", report.name,
                   *command] \
            if PERF else command
        started, before = time.perf_counter(), _children_cpu()
        subprocess.run(wrapped, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - started
        cpu, faults = _children_cpu() - before, 0
        if PERF:
            for line in report.read().splitlines():
                fields = line.split(",")
                try:
                    if len(fields) > 2 and fields[2].startswith("task-clock"):
                        cpu = float(fields[0]) / 1000
                    elif len(fields) > 2 and fields[2].startswith("page-faults"):
                        faults = int(fields[0])
                except ValueError:
                    pass
    CPU_S.append(cpu)
    FAULTS.append(faults)
    return wall


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compiled(root: Path = ROOT) -> None:
    """The tree's modules compiled to their caches, as an installed package has them (pip
    compiles rgkit's): where PYTHONDONTWRITEBYTECODE is set, each command (and each jail
    zygote) would compile the ones without a cache from source again, 70-150 ms of CPU
    that rgrun does not spend."""
    for package in ("orchestrator", "engine", "sandbox"):
        compileall.compile_dir(root / package, quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair and variant")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--arena-games", type=int, default=20,
                        help="games of the arena batch (0: none)")
    parser.add_argument("--pairs", type=int, default=len(PAIRS), help="how many of the pairs")
    parser.add_argument("--old", type=Path, help="another checkout: compare match mode only")
    args = parser.parse_args()
    compiled()
    if args.old:
        compiled(args.old)
        return against(args.old.resolve(), args)
    rgrun = shutil.which("rgrun", path=str(Path(sys.executable).parent))
    cores = len(os.sched_getaffinity(0))
    table = Table(title=f"Robot Game, {args.games} games per batch, {cores} cores, games/s "
                        f"(median of {args.rounds} rounds)")
    for column in ("bots", "rgrun -H -c N", "standard", "match", "off",
                   "standard / rgrun", "match / rgrun", "off / rgrun", "match / off"):
        table.add_column(column, justify="right")
    worst: dict[str, float] = {}
    cpu_table = Table(title="the same runs, CPU ms per game (every process of the command)")
    for column in ("bots", "rgrun", *MODES, *(f"{m} / rgrun" for m in MODES)):
        cpu_table.add_column(column, justify="right")
    with tempfile.TemporaryDirectory() as tmp:
        for a, b in PAIRS[:args.pairs]:
            pair = [str(BOTS / a), str(BOTS / b)]
            runs: dict[str, list[float]] = {"rgrun": [], **{m: [] for m in MODES}}
            cpu: dict[str, list[float]] = {k: [] for k in runs}
            for round_ in range(args.rounds):
                runs["rgrun"].append(timed([rgrun, "-H", "-qqqq", "-c", str(args.games),
                                            *pair]))
                cpu["rgrun"].append(CPU_S[-1])
                for mode in MODES:
                    runs[mode].append(timed(batch(pair, "robotgame", args.games, mode,
                                                  Path(tmp) / f"{a}-{b}-{mode}-{round_}")))
                    cpu[mode].append(CPU_S[-1])
            label = f"{Path(a).stem} v {Path(b).stem}"
            per_game = {k: statistics.median(v) / args.games for k, v in cpu.items()}
            cpu_table.add_row(label, *(f"{per_game[k] * 1000:.0f}" for k in ("rgrun", *MODES)),
                              *(f"{per_game['rgrun'] / per_game[m]:.2f}x" for m in MODES))
            rate = {k: args.games / statistics.median(v) for k, v in runs.items()}
            ratios = {m: rate[m] / rate["rgrun"] for m in MODES}
            for mode, ratio in ratios.items():
                worst[mode] = min(worst.get(mode, ratio), ratio)
            table.add_row(label, *(f"{rate[k]:.1f}" for k in ("rgrun", *MODES)),
                          *(f"{ratios[m]:.2f}x" for m in MODES),
                          f"{rate['match'] / rate['off']:.2f}x")
        out.print(table)
        out.print(cpu_table)
        verdict = {m: "met" if worst[m] >= TARGETS[m] else "NOT met" for m in TARGETS}
        out.print(f"worst pair vs rgrun: standard {worst['standard']:.2f}x (target "
                  f"{TARGETS['standard']}x: {verdict['standard']}), match "
                  f"{worst['match']:.2f}x (target {TARGETS['match']}x: {verdict['match']}), "
                  f"off {worst['off']:.2f}x\n")
        if args.arena_games <= 0:
            return
        samples = [str(p) for p in sorted((ROOT / "bots" / "arena").glob("*.py"))]
        arena = Table(title=f"arena batch of the {len(samples)} arena samples, "
                            f"{args.arena_games} games, games/s (median of {args.rounds})")
        for column in (*MODES, "match / in-process", "match / standard"):
            arena.add_column(column, justify="right")
        runs = {m: [] for m in MODES}
        for round_ in range(args.rounds):
            for mode in MODES:
                runs[mode].append(timed(batch(samples, "arena", args.arena_games, mode,
                                              Path(tmp) / f"arena-{mode}-{round_}")))
        rate = {k: args.arena_games / statistics.median(v) for k, v in runs.items()}
        arena.add_row(*(f"{rate[m]:.1f}" for m in MODES), f"{rate['match'] / rate['off']:.2f}x",
                      f"{rate['match'] / rate['standard']:.2f}x")
        out.print(arena)


def against(old: Path, args: argparse.Namespace) -> None:
    """`--sandbox match` batches of this checkout and of `old`, side by side in one run:
    each command is `python -m orchestrator` run in its own checkout (cwd first on the
    path), the two interleaved, each round in the other order."""
    trees = {"new": ROOT, "old": old}
    table = Table(title=f"--sandbox match, {args.games} games per batch, this checkout "
                        f"(new) against {old} (old), median of {args.rounds} rounds")
    for column in ("bots", "old games/s", "new games/s", "new / old", "old CPU ms/game",
                   "new CPU ms/game", "new / old CPU", "each round's", "faults/game old, new"):
        table.add_column(column, justify="right")
    with tempfile.TemporaryDirectory() as tmp:
        for a, b in PAIRS[:args.pairs]:
            pair = [str(BOTS / a), str(BOTS / b)]
            wall: dict[str, list[float]] = {"new": [], "old": []}
            cpu: dict[str, list[float]] = {"new": [], "old": []}
            faults: dict[str, list[int]] = {"new": [], "old": []}
            for round_ in range(args.rounds):
                for name in ("new", "old") if round_ % 2 == 0 else ("old", "new"):
                    db = Path(tmp) / f"{a}-{b}-{name}-{round_}"
                    wall[name].append(timed([*batch(pair, "robotgame", args.games, "match",
                                                    db), "--first-seed", str(SAME_SEEDS)],
                                            cwd=trees[name]))
                    cpu[name].append(CPU_S[-1])
                    faults[name].append(FAULTS[-1])
            rate = {k: args.games / statistics.median(v) for k, v in wall.items()}
            ms = {k: statistics.median(v) / args.games * 1000 for k, v in cpu.items()}
            rounds = [n / o for n, o in zip(cpu["new"], cpu["old"], strict=True)]
            per_game = {k: statistics.median(v) / args.games for k, v in faults.items()}
            table.add_row(f"{Path(a).stem} v {Path(b).stem}", f"{rate['old']:.1f}",
                          f"{rate['new']:.1f}", f"{rate['new'] / rate['old']:.3f}x",
                          f"{ms['old']:.1f}", f"{ms['new']:.1f}",
                          f"{ms['new'] / ms['old']:.3f}x",
                          f"{min(rounds):.2f}-{max(rounds):.2f}x",
                          f"{per_game['old']:.0f}, {per_game['new']:.0f}")
    Console(width=150).print(table)


MODES = ("standard", "match", "off")
SAME_SEEDS = 1000        # --old: both trees play the same games (a game's length varies)
TARGETS = {"standard": 1.0, "match": 1.2}          # games/s vs rgrun, on every pair


def batch(bots: list[str], game: str, games: int, mode: str, db: Path) -> list[str]:
    """`arena batch` of `bots`, a whole command."""
    return [sys.executable, "-m", "orchestrator", "batch", *bots, "--game", game, "--seeds",
            str(games), "--sandbox", mode, "--db", f"{db}.sqlite", "--json"]


if __name__ == "__main__":
    main()
