"""Cave Rangers: what running programs costs, side by side in one run.

- turns per second of a game of 4 Python bots, started per turn and persistent, sandboxed
  (`standard`) and without any sandbox (`off`);
- the cost of one per-turn start for each runtime (python3, node, sh, a C binary): a lone
  bot that holds, on a bare cavern, per turn, sandboxed and not, and their ratio
  (target: at most 1.5);
- with --series N: a batch of N seeds with the five sample bots, played twice, and
  whether the two give identical results (the issue asks for 200).
Variants are interleaved, round after round, so the machine's noise hits each alike.
"""
from __future__ import annotations

import argparse
import json
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
sys.path.insert(0, str(ROOT))

from orchestrator.games import get_game  # noqa: E402
from orchestrator.results.store import Store  # noqa: E402
from orchestrator.runner.bots import read_bot  # noqa: E402
from orchestrator.runner.match import MatchSpec, run_match  # noqa: E402

GAME = get_game("cave")
PY_TURN = "import sys\nsys.stdin.read()\nprint('HNNHNN')\n"
PY_PERSISTENT = ("# cave-protocol: persistent\nimport sys\nfor line in sys.stdin:\n"
                 "    if not line.strip():\n        print('HNNHNN', flush=True)\n")
SOURCES = {"python3": ("hold.py", PY_TURN), "node": ("hold.js", "require('fs').readFileSync(0);"
                                                     "console.log('HNNHNN');\n"),
           "sh": ("hold.sh", "read -r s\necho HNNHNN\n"),
           "C": ("hold.c", '#include <stdio.h>\nint main(void){char b[4096];'
                           'while(fgets(b,sizeof b,stdin)){}puts("HNNHNN");return 0;}\n')}


def make_bots(where: Path) -> dict[str, Path]:
    bots = {}
    for runtime, (name, text) in SOURCES.items():
        path = where / name
        path.write_text(text)
        if runtime == "C":
            if shutil.which("cc") is None:
                continue
            subprocess.run(["cc", "-O2", "-o", str(where / "hold"), str(path)], check=True)
            path = where / "hold"
        elif runtime == "node" and shutil.which("node") is None:
            continue
        bots[runtime] = path
    (where / "persistent.py").write_text(PY_PERSISTENT)
    bots["persistent"] = where / "persistent.py"
    (where / "bare.txt").write_text("\n".join(["-" * 12] * 12) + "\n")
    return bots


def play(bots: list[Path], sandbox: str, turns: int, cavern: Path | None = None) -> float:
    """Seconds per turn of one game."""
    spec = MatchSpec("cave", cavern or GAME.find_map(None), [read_bot(b) for b in bots], 1,
                     GAME.rules("seed", max_turns=turns), None, sandbox)
    started = time.perf_counter()
    result = run_match(spec)
    elapsed = time.perf_counter() - started
    return elapsed / max(1, result["turns"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--series", type=int, default=0, help="seeds of the batch check")
    args = parser.parse_args()
    out = Console()
    with tempfile.TemporaryDirectory() as tmp:
        bots = make_bots(Path(tmp))
        cavern = Path(tmp) / "bare.txt"
        four = {"per turn": [bots["python3"]] * 4, "persistent": [bots["persistent"]] * 4}
        games = {(kind, sandbox): [] for kind in four for sandbox in ("standard", "off")}
        starts = {(rt, sandbox): [] for rt in SOURCES if rt in bots
                  for sandbox in ("standard", "off")}
        for _ in range(args.rounds):
            for (kind, sandbox), times in games.items():
                times.append(play(four[kind], sandbox, args.turns, cavern))
            for (runtime, sandbox), times in starts.items():
                times.append(play([bots[runtime]], sandbox, args.turns, cavern))
        table = Table(title="4 Python bots, one game: turns per second (median of rounds)")
        for column in ("protocol", "sandboxed", "no sandbox", "ratio"):
            table.add_column(column, justify="right")
        for kind in four:
            boxed = statistics.median(games[(kind, "standard")])
            plain = statistics.median(games[(kind, "off")])
            table.add_row(kind, f"{1 / boxed:.0f}", f"{1 / plain:.0f}", f"{boxed / plain:.2f}")
        out.print(table)
        table = Table(title="one per-turn start of a program that holds (ms, median)")
        for column in ("runtime", "sandboxed", "no sandbox", "ratio (target <= 1.5)"):
            table.add_column(column, justify="right")
        for runtime in SOURCES:
            if (runtime, "off") not in starts:
                table.add_row(runtime, "not installed", "", "")
                continue
            boxed = statistics.median(starts[(runtime, "standard")])
            plain = statistics.median(starts[(runtime, "off")])
            table.add_row(runtime, f"{1000 * boxed:.1f}", f"{1000 * plain:.1f}",
                          f"{boxed / plain:.2f}")
        out.print(table)
    if args.series:
        series(args.series, out)


def _stored_games(db: Path) -> list:
    store = Store(db)
    try:
        matches = store.run_results(store.runs()[-1]["id"])
        scratch = store.scratch(m["id"] for m in matches)
        return [(m["id"], [(p["seat"], p["stats"]) for p in m["players"]], scratch[m["id"]])
                for m in matches]
    finally:
        store.close()


def series(seeds: int, out: Console) -> None:
    """The five samples over `seeds` seeds, twice: identical results, game by game, down to
    each bot's scratch at the end of each game (the series carries it from game to game)?"""
    runs, games = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for attempt in range(2):
            db = Path(tmp) / f"series{attempt}.db"
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "orchestrator", "batch", "--game", "cave", "--seeds",
                 str(seeds), "--db", str(db), "--json",
                 *[str(p) for p in GAME.demo_lineup()]], cwd=ROOT, text=True,
                capture_output=True, check=False)
            if done.returncode != 0:
                out.print(f"batch failed: {done.stderr[-500:]}")
                return
            runs.append(json.loads(done.stdout))
            spent = time.perf_counter() - started
            out.print(f"batch {attempt + 1}: {seeds} games in {spent:.0f} s, one chain")
            games.append(_stored_games(db))
    same = [(r["players"], r["lengths"]) for r in runs]
    out.print(f"the two batches give identical results: {same[0] == same[1]}; "
              f"game by game, with each bot's scratch: {games[0] == games[1]}")
    for row in runs[0]["players"]:
        out.print(f"  {row['name']}: mean score {row['mean_score']}, wins {row['wins']}, "
                  f"failures {row['erased'] + row['load_errors']}")


if __name__ == "__main__":
    main()
