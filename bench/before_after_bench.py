"""Two checkouts side by side in one run: Robot Arena and Robot Game matches, sandboxed
and in-process, played by each checkout's own code in turn (interleaved rounds, so that
the machine's noise hits both alike). For a refactor that must not move the figures:

    python bench/before_after_bench.py /path/to/old/checkout [--rounds 3]

prints seconds per match for each (game, sandbox) and the ratio new / old.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent

# Run inside a checkout (its own code first on sys.path): seconds per match.
PLAY = r'''
import json, sys, time
from pathlib import Path
root = Path(sys.argv[1]); sys.path.insert(0, str(root))
try:
    from orchestrator.runner.bots import read_bot
    from orchestrator.runner.match import MatchSpec, run_match
except ImportError:                   # a checkout from before the folders by layer
    from orchestrator.bots import read_bot
    from orchestrator.match import MatchSpec, run_match
from engine.arena.rules import rules_from as arena_rules
from engine.robotgame.rules import rules_from as rg_rules
game, sandbox, seeds = sys.argv[2], sys.argv[3], range(1, int(sys.argv[4]) + 1)
if game == "arena":
    names = ["hunter.py", "turtle.py", "beeline.py", "randy.py"] * 2
    bots = [read_bot(root / "bots/arena" / n) for n in names]
    spec = lambda s: MatchSpec("arena", root / "maps/arena/official.txt", bots, s,
                               arena_rules("seed", max_turns=100), sandbox=sandbox)
else:
    bots = [read_bot(root / "bots/robotgame" / n) for n in ("coordinator.py", "rusher.py")]
    spec = lambda s: MatchSpec("robotgame", root / "maps/robotgame/default.py", bots, s,
                               rg_rules(), sandbox=sandbox)
started = time.perf_counter()
for seed in seeds:
    run_match(spec(seed))
print(json.dumps((time.perf_counter() - started) / len(seeds)))
'''
CASES = [("arena", "standard", 2), ("arena", "off", 2),
         ("robotgame", "standard", 6), ("robotgame", "off", 6)]


def seconds(checkout: Path, game: str, sandbox: str, matches: int) -> float:
    out = subprocess.run([sys.executable, "-c", PLAY, str(checkout), game, sandbox,
                          str(matches)], capture_output=True, text=True, check=True,
                         cwd=checkout)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="the other checkout (the code before)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    times: dict[tuple, dict[str, list[float]]] = {c[:2]: {"old": [], "new": []} for c in CASES}
    for _ in range(args.rounds):
        for game, sandbox, matches in CASES:
            for label, checkout in (("old", args.old.resolve()), ("new", ROOT)):
                times[(game, sandbox)][label].append(seconds(checkout, game, sandbox, matches))
    table = Table(title="seconds per match, median of rounds (old = the code before)")
    for column in ("game", "sandbox", "old s", "new s", "new / old"):
        table.add_column(column, justify="right")
    for (game, sandbox), got in times.items():
        old, new = statistics.median(got["old"]), statistics.median(got["new"])
        table.add_row(game, sandbox, f"{old:.3f}", f"{new:.3f}", f"{new / old:.2f}")
    Console().print(table)


if __name__ == "__main__":
    main()
