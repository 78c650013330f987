"""`arena results`: what a results file holds (its runs, one run, the matrix of who
beats whom, a bot's games, an export), printed for people or as `--json`."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.table import Table

from orchestrator.cli.batch import print_summary
from orchestrator.cli.options import JsonOption, grouped
from orchestrator.options import ResultsQuery
from orchestrator.service import matchups
from orchestrator.service import results as stored
from orchestrator.text import console, shown_text
from orchestrator.views import matchups as matchups_cmd
from orchestrator.views import matrix_page
from orchestrator.views.compare import print_record

if TYPE_CHECKING:
    from orchestrator.results.store import StoredRun

err = console(stderr=True)
out = console()


@grouped
def results(
    db: Path = typer.Argument(..., help="A results file written by batch or tournament."),
    query: ResultsQuery = ResultsQuery(),
    export: Optional[str] = typer.Option(None, help="csv: every participant of every match "
                                         "(or of --run), one row each, with its penalties; "
                                         "with --matrix, its cells; with --games, the games."),
    output: Optional[Path] = typer.Option(None, "--out", help="Write the export here "
                                          "\\[default: standard output]."),
    matrix: bool = typer.Option(False, "--matrix", help="Who beats whom: games, wins, draws, "
                                "losses and the win rate with its 95% interval, for every "
                                "pair of entrants (of --run, else of the whole file)."),
    html: Optional[Path] = typer.Option(None, "--html", help="--matrix as a self-contained "
                                        "page: a heat map, the interval on hover, a cell's "
                                        "games on click.", show_default=False),
    games: bool = typer.Option(False, "--games", help="List every game (its players by "
                               "rank, result and score), or those of --bot, each with the "
                               "command that opens its replay."),
    as_json: JsonOption = False,
) -> None:
    """Show past runs in a results file, one run's table, who beats whom, or the games a
    bot lost; or export them as CSV.

    Examples:

      arena results runs/arena.sqlite

      arena results runs/arena.sqlite --run 3f2a --json

      arena results runs/arena.sqlite --export csv \\
          --out results.csv

      arena results runs/arena.sqlite --matrix --by map \\
          --html matrix.html

      arena results runs/arena.sqlite --games --bot Hunter \\
          --lost --vs Turtle
    """
    run, bot, vs, map = query.run, query.bot, query.vs, query.map
    lost, by = query.lost, query.by
    stored.check_results_options(matrix=matrix, games=games, by=by, bot=bot, html=html,
                                 lost=lost, vs=vs, map=map)
    store = stored.open_results(db)
    try:
        runs = store.runs()
        chosen = stored.chosen_run(store, run) if run else None
        run_id = chosen["id"] if chosen else None
        if matrix:
            report = stored.matrix(store, run_id, bot=bot, by=by, map=map, export=export)
            if export is not None:
                matchups_cmd.write_csv(*matchups.matrix_rows(report), output)
            elif html is not None:
                err.print(shown_text(f"wrote {matrix_page.write_page(report, html)}"))
            elif as_json:
                print(json.dumps(report))
            else:
                matchups_cmd.print_matrix(report)
            return
        if games:
            report = matchups.games(store, bot, run_id, lost=lost, vs=vs, map=map)
            if export is not None:
                stored.check_export(export)
                matchups_cmd.write_csv(*matchups.games_rows(report), output)
            elif as_json:
                print(json.dumps(report))
            else:
                matchups_cmd.print_games(report)
            return
        if export is not None:
            matchups_cmd.write_csv(*stored.export_rows(store, run_id, export), output)
            return
        if chosen:
            _show_run(store, chosen, as_json)
            return
        if as_json:
            print(json.dumps({"db": str(db), "runs": runs}))
            return
        table = Table(title=shown_text(f"runs in {db}"))
        for column in ("run", "kind", "game", "started", "matches", "bots"):
            table.add_column(column)
        for r in runs:
            table.add_row(*(shown_text(r[key])[:10 if key == "id" else 40]    # a file's text
                            for key in ("id", "kind", "game")),
                          time.strftime("%Y-%m-%d %H:%M", time.localtime(r["created"])),
                          f"{r['finished']}/{r['planned']}",
                          shown_text(", ".join(Path(str(b)).name
                                               for b in _listed(r["args"].get("bots")))))
        out.print(table)
    finally:
        store.close()


def _listed(value: object) -> list:
    """A list a results file's run holds (any other value of a forged one: none)."""
    return value[:100] if isinstance(value, list) else []


def _show_run(store, run: StoredRun, as_json: bool) -> None:
    report = stored.run_report(store, run)
    if as_json:
        print(json.dumps(report))
    elif run["kind"] == "compare":           # NEW against OLD, as `arena compare` shows it
        out.print(shown_text(stored.run_title(run, report), style="bold"))
        print_record(report, report["new_name"], report["old_name"])
    else:
        print_summary(report, stored.run_title(run, report))
