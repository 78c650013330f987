"""Where a short Robot Game match's CPU goes, per sandbox mode, side by side.

Plays `--games` matches of one pair in this process (as a batch's worker does), the
variants interleaved match by match, and reports per match: wall time, the host's CPU,
the bot processes' CPU (reaped children: `RUSAGE_CHILDREN`), and the host's wall time in
each phase of a match (load: spawn, harden, import the bot; start; the turns; close:
kill and reap). Variants: `off`, `standard`, `standard` less one layer at a time (what
each layer costs), and rgkit's own game loop in-process (`rgkit.game.Game`, no sandbox).
"""
from __future__ import annotations

import argparse
import resource
import statistics
import time
from collections import defaultdict
from pathlib import Path

from orchestrator.bots import read_bot
from orchestrator.games import get_game
from orchestrator.match import MatchSpec, run_match
from sandbox import host, inprocess, players

ROOT = Path(__file__).resolve().parent.parent
BOTS = ROOT / "bots" / "robotgame"
PHASES = defaultdict(float)


def _timed(name, fn):
    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            PHASES[name] += time.perf_counter() - started
    return wrapper


def instrument() -> None:
    load_children, exchange = host.load_children, host.exchange

    def loaded(*args, **kwargs):
        children, failed = load_children(*args, **kwargs)
        PHASES["bots load cpu"] += sum(child.cpu_used for child in children.values())
        return children, failed

    def exchanged(*args, **kwargs):
        replies, failed = exchange(*args, **kwargs)
        for reply in replies.values():
            PHASES["bots busy"] += reply.get("busy_s", 0.0)
            PHASES["bot code"] += reply.get("bot_s", 0.0)
        return replies, failed

    host.load_children, host.exchange = loaded, exchanged
    inprocess_exchange = inprocess.exchange

    def exchanged_here(*args, **kwargs):
        replies, failed = inprocess_exchange(*args, **kwargs)
        for reply in replies.values():
            PHASES["bots busy"] += reply.get("busy_s", 0.0)
            PHASES["bot code"] += reply.get("bot_s", 0.0)
        return replies, failed

    inprocess.exchange = exchanged_here
    host.Children.__init__ = _timed("load", host.Children.__init__)
    host.Children.exchange = _timed("turns", host.Children.exchange)
    players.Seats.start = _timed("start", players.Seats.start)
    players.Seats.close = _timed("close", players.Seats.close)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
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
            PHASES.clear()
            wall, mine, theirs = time.perf_counter(), self_cpu(), children_cpu()
            if variant == "rgkit":
                rgkit_match(pair[0], pair[1], seed)
            else:
                mode = "off" if variant == "off" else "standard"
                skip = (variant[1:],) if variant.startswith("-") else ()
                if "fs_view" in skip:
                    skip = ("fs_view", "mount_ns")
                run_match(MatchSpec("robotgame", map_path, bots, seed, game.rules("rgkit", max_turns=args.turns),
                                    sandbox=mode, skip_layers=skip, map_text=map_text))
            row = stats[variant]
            row["wall"].append(time.perf_counter() - wall)
            row["host cpu"].append(self_cpu() - mine)
            row["bots cpu"].append(children_cpu() - theirs)
            for phase in ("load", "start", "turns", "close", "bots load cpu", "bots busy",
                          "bot code"):
                row[phase].append(PHASES[phase])
    columns = ["wall", "host cpu", "bots cpu", "load", "start", "turns", "close",
               "bots load cpu", "bots busy", "bot code"]
    print(f"ms per match, median of {args.games} ({' v '.join(args.pair)}), interleaved")
    print(f"{'variant':>10} " + " ".join(f"{c.split()[-1] if c.startswith('bots ') and c != 'bots cpu' else c:>9}" for c in columns) + f" {'all cpu':>9}")
    for variant, row in stats.items():
        cells = [statistics.median(row[c]) * 1000 for c in columns]
        cpu = statistics.median([a + b for a, b in zip(row["host cpu"], row["bots cpu"])])
        print(f"{variant:>10} " + " ".join(f"{c:9.1f}" for c in cells) + f" {cpu * 1000:9.1f}")


if __name__ == "__main__":
    main()
