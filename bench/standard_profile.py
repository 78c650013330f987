"""Where a short Robot Game match's CPU goes, per sandbox mode, side by side.

Plays `--games` matches of one pair in this process (as a batch's worker does), the
variants interleaved match by match, and prints per match, in CPU milliseconds (the
median over the matches; wall time is left out: on a shared machine it measures the
neighbours):
- host: this process (the engine, the match loop, the host's side of the sandbox);
  `turns` is its share in the turn exchange, `load` and `close` in starting and
  stopping the bots' processes;
- bots: the bots' processes, once reaped (RUSAGE_CHILDREN): `bots load` what they used
  until their bot was loaded (fork, hardening, import), the rest in turns and exit;
- all: host + bots. What a zygote's fork costs, and what the kernel does after a child
  died (a network namespace goes in a kernel worker), are not counted here: compare
  whole commands with `perf stat` for those.
Variants: `rgkit` (its own game loop, `rgkit.run.Runner`, bots loaded anew per game as
`rgrun` does), `off`, `standard`, and `standard` less one layer (`-net_ns`, ...): what
each layer costs. `--turns 1` leaves the per-match costs alone.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections import defaultdict
from pathlib import Path

from orchestrator.games import get_game
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import MatchSpec, run_match
from sandbox import host, inprocess, players

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots" / "robotgame"
CPU = defaultdict(float)          # phase -> CPU seconds of this match
COLUMNS = ("host", "turns", "load", "close", "bots", "bots load", "all")


def _timed(name, fn):
    def wrapper(*args, **kwargs):
        cpu = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            CPU[name] += time.process_time() - cpu
    return wrapper


def instrument() -> None:
    load_children = host.load_children

    def loaded(*args, **kwargs):
        children, failed = load_children(*args, **kwargs)
        CPU["bots load"] += sum(child.cpu_used for child in children.values())
        return children, failed

    host.load_children = loaded
    host.Children.__init__ = _timed("load", host.Children.__init__)
    host.Children.exchange = _timed("turns", host.Children.exchange)
    inprocess.InProcessPlayers.exchange = _timed("turns",
                                                 inprocess.InProcessPlayers.exchange)
    players.Seats.close = _timed("close", players.Seats.close)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def rgkit_match(a: Path, b: Path, seed: int) -> None:
    """One game in rgkit's own loop, in this process, as one of `rgrun -H -c`'s workers
    plays it (the bots loaded anew, then the game)."""
    from rgkit.run import Options, Runner
    options = Options(map_filepath=Runner.default_map(), headless=True, quiet=4,
                      n_of_games=1, start=seed)
    Runner(player_files=[str(a), str(b)], options=options).run()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--pair", nargs=2, default=["example.py", "example.py"])
    parser.add_argument("--variants", nargs="*", default=[
        "rgkit", "off", "standard", "-net_ns", "-fs_view", "-tasks", "-seccomp",
        "-landlock", "-pid_ns"])
    args = parser.parse_args()
    instrument()
    game = get_game("robotgame")
    pair = [BOTS / name for name in args.pair]
    bots = [read_bot(p, "robotgame") for p in pair]
    map_path = game.find_map(None)
    map_text = map_path.read_text()
    stats: dict[str, dict[str, list[float]]] = {v: defaultdict(list) for v in args.variants}
    for seed in range(1, args.games + 1):
        for variant in args.variants:
            CPU.clear()
            mine, theirs = time.process_time(), children_cpu()
            if variant == "rgkit":
                rgkit_match(pair[0], pair[1], seed)
            else:
                mode = "off" if variant == "off" else "standard"
                skip = (variant[1:],) if variant.startswith("-") else ()
                if "fs_view" in skip:
                    skip = ("fs_view", "mount_ns")
                run_match(MatchSpec("robotgame", map_path, bots, seed,
                                    game.rules("rgkit", max_turns=args.turns),
                                    sandbox=mode, skip_layers=skip, map_text=map_text))
            CPU["host"] = time.process_time() - mine
            CPU["bots"] = children_cpu() - theirs
            CPU["all"] = CPU["host"] + CPU["bots"]
            for column in COLUMNS:
                stats[variant][column].append(CPU[column])
    print(f"CPU ms per match, median of {args.games} ({' v '.join(args.pair)}, "
          f"{args.turns} turns), variants interleaved")
    print(f"{'variant':>10} " + " ".join(f"{c:>9}" for c in COLUMNS))
    for variant, row in stats.items():
        print(f"{variant:>10} " + " ".join(f"{statistics.median(row[c]) * 1000:9.1f}"
                                          for c in COLUMNS))


if __name__ == "__main__":
    main()
