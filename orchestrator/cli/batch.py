"""`arena batch` and `arena tournament`: many matches into one results file (the work:
orchestrator/service/batch.py); `arena results` reads it (orchestrator/cli/results.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, List, Optional

import typer
from rich.table import Table

from orchestrator import api
from orchestrator.cli.options import JsonOption, grouped
from orchestrator.cli.run import warn_shared_names
from orchestrator.options import Execution, MatchSettings, TournamentFormat
from orchestrator.results.ratings import ELO_INITIAL, ELO_K
from orchestrator.text import console, seconds, shown_text

err = console(stderr=True)
out = console()

ReplaysOption = Annotated[bool, typer.Option("--replays", help="Keep every match's replay, "
                                             "in replays/ beside the results file.")]


@grouped
def batch(
    bots: List[Path] = typer.Argument(..., help="Bot files (or samples' names, see `arena "
                                      "bots`), in seat order.", show_default=False),
    seeds: int = typer.Option(100, "--seeds", help="How many matches: one per seed."),
    first_seed: Optional[int] = typer.Option(None, help="The first seed; then first+1, first+2, ... \\[default: drawn from the OS (63 bits), or the one the same command drew before in the same --db]", show_default=False),
    match: MatchSettings = MatchSettings(),
    execution: Execution = Execution(),
    replays: ReplaysOption = False,
    as_json: JsonOption = False,
) -> None:
    """Play the same lineup over many seeds, in parallel, and rate it.

    Every match is recorded in a SQLite file as it finishes. Run the same command again
    after Ctrl-C (or a crash) and it plays only what is missing.

    Examples:

      arena batch my_bot.py bots/arena/hunter.py --seeds 200

      arena batch a.py b.py --game robotgame --seeds 500 \\
          --json
    """
    warn_shared_names(bots, match.game)
    found = api.batch(bots, seeds=seeds, first_seed=first_seed, match=match,
                      execution=execution, replays=replays, progress=not as_json)
    if as_json:
        print(json.dumps(found.to_json()))
    else:
        print_summary(found.to_json(), found.title)


@grouped
def tournament(
    bots: List[Path] = typer.Argument(..., help="Bot files, or samples' names (see `arena "
                                      "bots`).", show_default=False),
    shape: TournamentFormat = TournamentFormat(),
    first_seed: Optional[int] = typer.Option(None, help="The first seed. \\[default: drawn from the OS (63 bits), or the one the same command drew before in the same --db]", show_default=False),
    match: MatchSettings = MatchSettings(),
    execution: Execution = Execution(),
    replays: ReplaysOption = False,
    as_json: JsonOption = False,
) -> None:
    """Play a tournament and rate every bot: Elo, and openskill for any match size.

    Elo starts at 1200 with K = 32 (a match of n players counts as every pair playing,
    scaled by 1/(n-1)); openskill is Plackett-Luce. Ratings are recomputed from the stored
    results in schedule order, so the same results always give the same table.

    Examples:

      arena tournament bots/arena/*.py --format ffa \\
          --games 10 --map quad

      arena tournament a.py b.py c.py --game robotgame \\
          --games 20

      arena tournament *.py --format combinations --size 6 \\
          --games 3 --map official
    """
    warn_shared_names(bots, match.game)
    found = api.tournament(bots, shape=shape, first_seed=first_seed, match=match,
                           execution=execution, replays=replays, progress=not as_json)
    report = found.to_json()
    if as_json:
        print(json.dumps(report))
        return
    table = Table(title=shown_text(found.title))
    points = report["ranked_by"] == "points"
    scored = any(row.get("mean_score") is not None for row in report["players"])
    for column in ("#", "AI", "games", "points" if points else "wins",
                   *(("mean score",) if scored else ()), "win",
                   "mean rank", "Elo", "openskill", "ordinal", "CPU s", "own s", "failed"):
        table.add_column(column, justify="left" if column in ("AI", "failed") else "right",
                         overflow="fold" if column == "AI" else "ellipsis")
    for i, row in enumerate(report["players"], start=1):
        failures = row["erased"] + row["forfeits"] + row["load_errors"]
        score = (f"{row['mean_score']:.2f}",) if scored else ()
        line = [str(i), shown_text(row["name"]), str(row["matches"]), str(row["wins"]),
                *score, f"{100 * row['win_rate']:.1f}", f"{row['mean_rank']:.2f}",
                f"{row['elo']:.0f}",
                f"{row['mu']:.1f} ± {row['sigma']:.1f}", f"{row['ordinal']:.1f}",
                seconds(row.get("mean_cpu_s")), seconds(row.get("mean_own_s")),
                str(failures or "")]
        table.add_row(*line)
    out.print(table)
    print_penalties(report)
    ranked = {"points": "points: 1 per game won (the seed ranks by them); ",
              "score": "mean score: per game (cave: gold + turns lasted; the seed ranks by "
                       "it); "}.get(report["ranked_by"], "")
    out.print(f"[dim]{ranked}win: wins in %; Elo: start {ELO_INITIAL:.0f}, K {ELO_K:.0f}; "
              f"openskill: Plackett-Luce mu ± sigma, ordinal = mu - 3 sigma; {TIME_NOTE}; "
              f"failed: erased, forfeit or not loaded (penalties above)[/dim]")


# What the standings' time columns say (a dash: no game of a results file from before
# own times kept it).
TIME_NOTES = {"CPU s": "mean a game",
              "own s": "mean a game of its calls' wall time less their wait for a CPU"}
TIME_NOTE = "; ".join(f"{column}: {note}" for column, note in TIME_NOTES.items())


def print_penalties(report: dict) -> None:
    """Each entrant's penalties, one a line, under its table (orchestrator/results/penalties.py)."""
    for row in report["players"]:
        for said in row.get("penalties") or ():
            out.print(shown_text(f"  {row['name']}: {said}"), soft_wrap=True)


def print_summary(report: dict, title: str) -> None:
    """A run's standings table, under its title (`arena batch`, `tournament`, `results`)."""
    scored = any(row.get("mean_score") is not None for row in report["players"])
    top2 = report.get("most_players", 3) > 2        # in a 2-player game, always 100 %
    notes = {"score": "mean score (cave: gold + turns lasted)",
             "win": "wins in %" + (", top-2: first or second, in %" if top2 else ""),
             "95% CI": "Wilson interval of the win rate", "rank": "mean rank",
             **TIME_NOTES,
             "failed": "erased, forfeit or not loaded (penalties below)"}
    columns = ("AI", *(("score",) if scored else ()), "games", "wins", "draws", "win",
               "95% CI", *(("top-2",) if top2 else ()), "rank", "CPU s", "own s", "failed")
    table = Table(title=shown_text(title), caption="; ".join(
        f"{column}: {note}" for column, note in notes.items() if column in columns))
    for column in columns:
        table.add_column(column, justify="left" if column == "AI" else "right",
                         overflow="fold" if column == "AI" else "ellipsis",
                         min_width=8 if column == "AI" else None)
    for row in report["players"]:
        low, high = row["win_ci"]
        score = (f"{row['mean_score']:.2f}",) if scored else ()
        top = (f"{100 * row['top2_rate']:.0f}",) if top2 else ()
        line = [shown_text(row["name"]), *score, str(row["matches"]), str(row["wins"]),
                str(row["draws"]),
                f"{100 * row['win_rate']:.1f}", f"{100 * low:.0f}-{100 * high:.0f}",
                *top, f"{row['mean_rank']:.2f}",
                seconds(row.get("mean_cpu_s")), seconds(row.get("mean_own_s")),
                str(row["erased"] + row["forfeits"] + row["load_errors"])]
        table.add_row(*line)
    out.print(table)
    print_penalties(report)
    lengths = report["lengths"]
    out.print(f"game length: min {lengths['min']}, median {lengths['median']}, max "
              f"{lengths['max']} turns")
    peak = max((count for _, _, count in lengths["histogram"]), default=0)
    for low, high, count in lengths["histogram"]:
        bar = "█" * round(40 * count / peak) if peak else ""
        out.print(f"  {low:>5}-{high:<5} {bar} {count}", highlight=False)
