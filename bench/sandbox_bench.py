"""What the sandbox costs: child spawn time, one turn's round trip, and the isolation layers.

Everything is measured side by side in one run, interleaved, so the machine's noise hits
each variant alike:
- spawn: from asking for a child to its first reply (bot loaded), median, for a child
  forked from the zygote with every layer, with no layers, from a fresh interpreter, and
  in the bwrap tier; run as root, also the same every-layer child of an ordinary user
  (the user-namespace path, in a second process under an unprivileged uid, asked for one
  spawn at a time between the root ones);
- round trip: one request carrying 40 robots' views to one AI, and its reply;
- match time of `standard` against the same sandbox with no isolation layers, and `off`.
"""
from __future__ import annotations

import argparse
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

from engine.arena.game import ArenaGame  # noqa: E402
from engine.arena.mapfile import load_map  # noqa: E402
from engine.arena.rules import rules_from  # noqa: E402
from orchestrator.runner.bots import read_bot, sample_bots  # noqa: E402
from orchestrator.runner.match import MatchSpec, run_match  # noqa: E402
from sandbox import host  # noqa: E402
from sandbox.isolation import LAYERS, Isolation  # noqa: E402
from sandbox.limits import Limits  # noqa: E402
from sandbox.paths import BOTLIB, site_dirs  # noqa: E402
from tests.sandbox import as_user  # noqa: E402  runs a command as an unprivileged uid

out = Console(width=110)
OFFICIAL = ROOT / "maps/arena/official.txt"
NO_LAYERS = Isolation(skip=LAYERS)


def spawn_ms(isolation: Isolation) -> float:
    bot = read_bot(ROOT / "bots/arena/beeline.py").spec
    started = time.perf_counter()
    children, failed = host.load_children("_arena", {0: bot}, Limits(), isolation)
    took = (time.perf_counter() - started) * 1e3
    assert not failed, failed
    for child in children.values():
        child.kill()
    return took


def fresh_interpreter_ms() -> float:
    """A new `python -I -S` importing the child side, to its first reply: the cost a
    zygote saves (what a child started without one pays)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-I", "-S", "-c",
                    f"import sys; sys.path[:0] = {[str(BOTLIB), *site_dirs()]!r}; "
                    "import _child, _arena"], check=True, env={})
    return (time.perf_counter() - started) * 1e3


def spawn_server() -> None:
    """`--spawn-server`: one every-layer spawn per line read, its time printed back."""
    spawn_ms(Isolation())
    print("ready", flush=True)
    for _ in sys.stdin:
        print(f"{spawn_ms(Isolation()):.4f}", flush=True)


class OrdinaryUserSpawns:
    """A spawn server running as an unprivileged uid: the non-root path, for real."""

    def __init__(self) -> None:
        self.home = as_user.make_home(as_user.ORDINARY_UID)
        self.proc = subprocess.Popen(
            as_user.command(as_user.ORDINARY_UID, self.home,
                            [sys.executable, str(Path(__file__).resolve()), "--spawn-server"]),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.proc.stdout.readline().strip() != "ready":
            raise RuntimeError("the ordinary user's spawn server did not start")

    def __call__(self) -> float:
        self.proc.stdin.write("spawn\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(30)
        shutil.rmtree(self.home, ignore_errors=True)


def bench_spawn(rounds: int) -> None:
    spawn_ms(Isolation())                       # start the zygote outside the timing
    root = os.geteuid() == 0
    every_layer = "zygote, every layer" + (" (root: the real nobody)" if root else
                                           " (this ordinary user: a user namespace)")
    variants = {every_layer: lambda: spawn_ms(Isolation())}
    ordinary = OrdinaryUserSpawns() if root else None
    if ordinary:
        variants["zygote, every layer (ordinary user: a user namespace)"] = ordinary
        variants["zygote, every layer, user-namespace path taken as root"] = \
            lambda: spawn_ms(Isolation(user_ns=True))
    variants.update({"zygote, no layers": lambda: spawn_ms(NO_LAYERS),
                     "fresh interpreter (no bot, no layers)": fresh_interpreter_ms})
    if shutil.which("bwrap"):
        variants["bwrap tier: bubblewrap + fresh interpreter"] = \
            lambda: spawn_ms(Isolation("bwrap"))
    times: dict[str, list[float]] = {name: [] for name in variants}
    try:
        for _ in range(rounds):
            for name, measure in variants.items():
                times[name].append(measure())
    finally:
        if ordinary:
            ordinary.close()
    table = Table(title=f"spawn: ask for a child -> first reply, {rounds} rounds")
    for column in ("variant", "median ms", "p90 ms"):
        table.add_column(column, justify="right")
    for name, got in times.items():
        table.add_row(name, f"{statistics.median(got):.1f}",
                      f"{statistics.quantiles(got, n=10)[-1]:.1f}")
    out.print(table)
    best = statistics.median(times[every_layer])
    out.print(f"sandboxed child spawn, median: {best:.1f} ms (target < 20 ms)")
    if ordinary:
        user = statistics.median(times["zygote, every layer (ordinary user: a user namespace)"])
        out.print(f"ordinary user / root, every layer: {user / best:.2f}x "
                  f"({user:.1f} / {best:.1f} ms; target <= 1.5x)")
    out.print()


def bench_round_trip(rounds: int) -> None:
    bots = [read_bot(p) for p in sample_bots("arena")] * 2
    match = ArenaGame(load_map(OFFICIAL), [b.name for b in bots], 1, rules_from("seed"))
    view, calls = match.views()[0], match.calls(0)
    table = Table(title=f"one turn, one AI with {calls} robots: request -> reply, "
                        f"median of {rounds}")
    for column in ("sandbox", "round trip ms", "in move() ms", "overhead ms"):
        table.add_column(column, justify="right")
    for name, isolation in (("standard", Isolation()), ("no layers", NO_LAYERS)):
        children, _ = host.load_children("_arena", {0: bots[0].spec}, Limits(), isolation)
        children[0].start([b.name for b in bots], 0, 1)
        total, inside = [], []
        try:
            for _ in range(rounds):
                started = time.perf_counter()
                replies, failed = host.exchange(children, {0: (view, calls)})
                total.append(time.perf_counter() - started)
                inside.append(replies[0]["bot_s"])
        finally:
            children[0].kill()
        med, bot = statistics.median(total) * 1e3, statistics.median(inside) * 1e3
        table.add_row(name, f"{med:.2f}", f"{bot:.2f}", f"{med - bot:.2f}")
    out.print(table)


def one_match(sandbox: str, skip: tuple[str, ...], seed: int, turns: int) -> float:
    bots = [read_bot(p) for p in sample_bots("arena")] * 2
    spec = MatchSpec("arena", OFFICIAL, bots, seed, rules_from("seed", max_turns=turns),
                     sandbox=sandbox, skip_layers=skip)
    started = time.perf_counter()
    run_match(spec)
    return time.perf_counter() - started


def bench_layers(seeds: list[int], turns: int) -> None:
    variants = {"standard": ("standard", ()), "no layers": ("standard", LAYERS),
                "off": ("off", ())}
    times: dict[str, list[float]] = {name: [] for name in variants}
    for seed in seeds:
        for name, (sandbox, skip) in variants.items():
            times[name].append(one_match(sandbox, skip, seed, turns))
    table = Table(title=f"match time, official map, 8 AIs x 40 robots, up to {turns} turns")
    table.add_column("variant")
    for seed in seeds:
        table.add_column(f"seed {seed} s", justify="right")
    for name, got in times.items():
        table.add_row(name, *(f"{t:.2f}" for t in got))
    out.print(table)
    ratios = [s / n for s, n in zip(times["standard"], times["no layers"], strict=True)]
    out.print(f"standard / no layers, per seed: {', '.join(f'{r:.3f}' for r in ratios)}; "
              f"median {statistics.median(ratios):.3f} (target <= 1.10)")
    off = [s / o for s, o in zip(times["standard"], times["off"], strict=True)]
    out.print(f"standard / off, per seed: {', '.join(f'{r:.2f}' for r in off)}; "
              f"median {statistics.median(off):.2f}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spawns", type=int, default=30, help="spawn rounds per variant")
    parser.add_argument("--trips", type=int, default=300, help="round trips per variant")
    parser.add_argument("--seeds", type=int, default=3, help="matches per variant")
    parser.add_argument("--spawn-server", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spawn_server:
        return spawn_server()
    out.print(f"[bold]Sandbox costs[/bold] (euid {os.geteuid()}, {os.cpu_count()} CPUs)\n")
    bench_spawn(args.spawns)
    bench_round_trip(args.trips)
    bench_layers(list(range(1, args.seeds + 1)), 1000)


if __name__ == "__main__":
    main()
