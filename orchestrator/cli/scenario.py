"""`arena scenario FILE`: play a scenario file's scripted moves (or a shipped example's, by
name), print the final state."""
from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from orchestrator import api
from orchestrator.cli.options import JsonOption
from orchestrator.games import DEFAULT_GAME, GAMES
from orchestrator.text import console, shown_text

out = console()


def scenario(
    file: Path = typer.Argument(..., help="A scenario JSON file, or the name of an example "
                                "shipped with the game (laser_fires_twice; "
                                "listed when a name is not found)."),
    game: str = typer.Option(DEFAULT_GAME, help=f"Which game: "
                             f"{', '.join(g.name for g in GAMES.values() if g.scenario)} "  # type: ignore[name-defined]  # mypy misreads
                             f"(their formats: docs/scenarios.md)."),
    as_json: JsonOption = False,
) -> None:
    """Play scripted moves on a hand-made position, print the final state."""
    state = api.scenario(file, game=game)
    if as_json:
        print(json.dumps(state))
        return
    _print_state(state)


# `arena scenario --help`: each game's file format, as its entry gives it.
scenario.__doc__ = "\n\n".join([scenario.__doc__, *(  # type: ignore[list-item]  # it has one
    game.options.scenario_help for game in GAMES.values()
    if game.scenario and game.options.scenario_help)])


def _print_state(state: dict) -> None:
    """Any game's scenario state: its counters as a title, each list of pieces (robots,
    bots, objects) as a table, and rows of text (a cavern) as they are."""
    title = ", ".join(f"{key} {value}" for key, value in state.items()
                      if not isinstance(value, (list, dict)) and value is not None)
    for key, value in state.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            _print_rows(f"{key}: {title}", value, tuple(value[0]))
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            out.print(shown_text("\n".join(value), lines=True))


def _print_rows(title: str, rows: list[dict], columns: tuple[str, ...]) -> None:
    table = Table(title=shown_text(title))
    for column in columns:
        table.add_column(shown_text(column))
    for row in rows:
        table.add_row(*(shown_text(row[k]) for k in columns))
    out.print(table)
