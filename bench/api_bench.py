"""The bot-side api: CPU per decision before and after its rework, on the same views.

Records the views of one match on the official map (8 sample AIs x 40 robots), then
replays them through two helper-heavy bench bots (bench/arena_bots/), each with the api
as it was (bench/api_before/) and as it is, in fresh interpreters, rounds interleaved so
that the machine's noise hits both alike. Each figure is the fastest of the rounds; the
moves of both versions must be identical. Target: at least 3x fewer us per decision.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from api_replay import record, replay_fresh  # noqa: E402

BOTS = sorted((ROOT / "bench" / "arena_bots").glob("*.py"))
out = Console(width=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--turns", type=int, default=60, help="turns of the recorded match")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        views = Path(tmp) / "views.msgpack"
        count = record(views, turns=args.turns)
        best: dict[tuple[str, str], dict] = {}
        for _ in range(args.rounds):
            for bot in BOTS:
                for api in ("before", "after"):
                    got = replay_fresh(api, bot, views, repeat=2)
                    key = (bot.stem, api)
                    if key not in best or got["cpu_s"] < best[key]["cpu_s"]:
                        best[key] = got
    table = Table(title=f"roborally.api: CPU per decision on {count} recorded views")
    for column in ("bot", "decisions", "before us", "after us", "fewer us", "same moves"):
        table.add_column(column, justify="right")
    for bot in BOTS:
        before, after = best[(bot.stem, "before")], best[(bot.stem, "after")]
        per = [r["cpu_s"] / r["decisions"] * 1e6 for r in (before, after)]
        table.add_row(bot.stem, str(after["decisions"]), f"{per[0]:.1f}", f"{per[1]:.1f}",
                      f"{per[0] / per[1]:.2f}x",
                      "yes" if before["moves"] == after["moves"] else "[red]NO[/red]")
    out.print(table)
    out.print("target: at least 3x fewer us per decision on every bot\n")


if __name__ == "__main__":
    main()
