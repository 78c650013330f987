"""`arena bots`: the bundled sample bots, read from the files on disk, with how each runs."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table
from rich.text import Text

from orchestrator.cli.options import JsonOption
from orchestrator.games import GAMES, Game, games_help, get_game
from orchestrator.runner.samples import COMPILED, named_samples, summary
from orchestrator.text import console
from sandbox.programs import describe

out = console()


def runtime_of(game: Game, path: Path) -> dict:
    """How a sample runs: its runtime, whether it is persistent (a program started once
    per game), and a problem if this machine cannot run it."""
    if path.suffix in COMPILED:
        compiler = COMPILED[path.suffix][0]
        problem = None if shutil.which(compiler) else f"needs {compiler} to build it"
        return {"runtime": f"native ({path.suffix[1:].upper()}, built on first use)",
                "persistent": False, "problem": problem}
    driver = dict(game.drivers).get(path.suffix.lower())
    if not game.programs and driver is None:
        return {"runtime": "python (module)", "persistent": False, "problem": None}
    info = describe(path.name, path.read_bytes())
    return {"runtime": info["runtime"] or "unknown",
            "persistent": info["persistent"] or driver is not None,
            "problem": info["problem"]}


def listing(games: list[Game]) -> list[dict]:
    """Every sample of these games, in game then name order."""
    return [{"game": game.name, "name": name, "file": path.name, **runtime_of(game, path),
             "summary": summary(path), "path": str(path)}
            for game in games for name, path in named_samples(game.name)]


def bots(game: Optional[str] = typer.Option(None, help=f"Only this game's samples: "
                                            f"{games_help()} \\[default: every game's].",
                                            show_default=False),
         as_json: JsonOption = False) -> None:
    """List the bundled sample bots: their game, runtime and what each does.

    Give a sample's name wherever a bot file goes, when no file of that name is here:

      arena run --game cave forager scout

      arena check --game robotgame survivor.rb
    """
    rows = listing([get_game(game)] if game else list(GAMES.values()))
    if as_json:
        print(json.dumps(rows))
        return
    table = Table(title="bundled sample bots: give a name where a bot file goes")
    for column in ("game", "name", "runtime", "about"):
        table.add_column(column, overflow="fold", ratio=3 if column == "about" else None)
    for row in rows:
        runtime = row["runtime"] + (", persistent" if row["persistent"] else "")
        cell = Text(runtime)
        if row["problem"]:
            cell.append(f" ({row['problem']})", style="yellow")
        table.add_row(Text(row["game"]), Text(row["name"], style="bold"), cell,
                      Text(row["summary"]))
    out.print(table)
