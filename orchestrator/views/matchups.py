"""What `arena results DB --matrix` and `--games` print: the tables, CSV and the page of
orchestrator/service/matchups.py's reports. Every bot name is shown as text (rich
`Text`, never markup), and CSV cells go through defusedcsv (no cell reads as a formula)."""
from __future__ import annotations

import io
import sys
from pathlib import Path

from defusedcsv import csv
from rich.console import RenderableType
from rich.table import Table

from engine import InputError
from orchestrator import host_files
from orchestrator.text import console, plural, seconds, shown, shown_text

out = console()
err = console(stderr=True)


def percent(rate: float) -> str:
    """A rate as the tables show it: `55.0`."""
    return f"{100 * rate:.1f}"


def interval(ci: list[float]) -> str:
    """A Wilson interval as the tables and the page show it: `40.1-69.2`."""
    return f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}"


def print_matrix(report: dict) -> None:
    """The matrix as a table: one row per entrant and opponent (and map or seat)."""
    by = report["by"]
    title = f"matchups in {report['db']}" + (f", run {report['run'][:10]}" if report["run"]
                                             else "") + (f", by {by}" if by else "")
    table = Table(title=shown_text(title), caption="win: games won in %, 95% CI: its Wilson "
                  "interval; a game of more players counts each pair of them (ahead wins)")
    columns = ("AI", "vs", *((by,) if by else ()), "games", "wins", "draws", "losses", "win",
               "95% CI")
    for column in columns:
        table.add_column(column, justify="left" if column in ("AI", "vs", "map") else "right",
                         overflow="fold")
    for cell in report["cells"]:
        split = (shown_text(cell[by]),) if by else ()
        line = [shown_text(cell["entrant"]), shown_text(cell["opponent"]), *split,
                str(cell["games"]), str(cell["wins"]), str(cell["draws"]),
                str(cell["losses"]), percent(cell["win_rate"]), interval(cell["win_ci"])]
        table.add_row(*line)
    out.print(table)
    if not report["cells"]:
        out.print("no games")


def print_games(report: dict) -> None:
    """The games of one bot, each with the command that opens it."""
    what = "lost games" if report["lost"] else "games"
    chosen = (f" against {report['vs']}" if report["vs"] else "") + \
        (f" on {report['map']}" if report["map"] else "")
    if not report["games"]:
        out.print(shown_text(_none_listed(report, chosen)), soft_wrap=True)
        return
    if report["bot"] is None:
        _print_every_game(report)
        return
    scored = any(row.get("score") for row in report["games"])
    table = Table(title=shown_text(f"{what} of {report['bot']}{chosen}"))
    for column in ("match", "seed", "map", "seat", "opponents", "result",
                   *(("score",) if scored else ()), "out at", "turns", "CPU s", "own s",
                   "penalties"):
        table.add_column(column, justify="right" if column in ("seed", "seat", "out at",
                                                                "turns", "CPU s", "own s")
                         else "left", overflow="fold")
    for row in report["games"]:
        line: list[RenderableType] = [
            shown_text(row["match"])[:12], str(row["seed"]), shown_text(row["map"]),
            str(row["seat"]), shown_text(", ".join(row["opponents"])),
            # An erased or forfeited game says so, and why: never just "lost".
            shown_text(f"{row.get('outcome') or row['result']} ({row['rank']} of "
                       f"{row['of']})"),
            *((shown_text(row["score"]),) if scored else ()),
            "" if row["eliminated"] is None else str(row["eliminated"]),
            str(row["turns"]), seconds(row.get("cpu_s")), seconds(row.get("own_s")),
            shown_text("; ".join(p for p in row.get("penalties") or ()
                                 if p != row.get("outcome")))]
        table.add_row(*line)
    out.print(table)
    # The commands whole, one a line, never folded: they are for copying.
    for row in report["games"]:
        out.print(shown_text(f"{row['match'][:12]}  {row['open']}"), soft_wrap=True)
    out.print(shown_text(f"{plural(len(report['games']), what[:-1])}; out at: the turn the bot was "
                         f"erased or lost its last robot; own s: its calls' wall time less "
                         f"their wait for a CPU"), style="dim")


def _print_every_game(report: dict) -> None:
    """Every game of the file (`--games` without `--bot`), once each."""
    scored = any(row.get("score") for row in report["games"])
    chosen = f" on {report['map']}" if report["map"] else ""
    table = Table(title=shown_text(f"games of {report['db']}{chosen}"))
    for column in ("match", "seed", "map", "players, by rank", "result",
                   *(("score",) if scored else ()), "turns", "end", "penalties"):
        table.add_column(column, justify="right" if column in ("seed", "turns") else "left",
                         overflow="fold")
    for row in report["games"]:
        cells: list[RenderableType] = [
            shown_text(row["match"])[:12], str(row["seed"]), shown_text(row["map"]),
            shown_text(", ".join(row["players"])), shown_text(row["result"]),
            *((shown_text(row["score"]),) if scored else ()), str(row["turns"]),
            shown_text(row["end"]), shown_text("; ".join(row["penalties"]))]
        table.add_row(*cells)
    out.print(table)
    for row in report["games"]:
        out.print(shown_text(f"{row['match'][:12]}  {row['open']}"), soft_wrap=True)
    out.print(shown_text(f"{plural(len(report['games']), 'game')}; --bot NAME lists one "
                         f"bot's, with its place and the turn it was out"), style="dim")


def _none_listed(report: dict, chosen: str) -> str:
    """What `--games` says instead of an empty table: the bot won or drew every game it
    played (with --lost), or played none of those chosen."""
    played = report["played"]
    if report["lost"] and played:
        return (f"{report['bot']} lost none of its {played} game{'s' * (played != 1)}"
                f"{chosen} in {report['db']}: drop --lost to list them")
    if report["bot"] is None:
        return f"no game{chosen} in {report['db']}"
    return f"{report['bot']} played no game{chosen} in {report['db']}"


def write_csv(columns: list[str], rows: list[tuple], output: Path | None) -> None:
    """Rows as CSV, to `output` or standard output. defusedcsv escapes a cell that a
    spreadsheet would read as a formula (=, +, -, @ first); controls are shown escaped."""
    handle = io.StringIO(newline="") if output else sys.stdout
    writer = csv.writer(handle)
    writer.writerow(columns)
    writer.writerows(tuple(shown(v) if isinstance(v, str) else v for v in row) for row in rows)
    if output:
        assert isinstance(handle, io.StringIO)
        try:        # a link at `output` is replaced, never written through
            host_files.write_file(output, handle.getvalue().encode("utf-8"))
        except OSError as exc:
            raise InputError(f"{output}: cannot write the export ({exc.strerror})") from None
        err.print(shown_text(f"wrote {len(rows)} rows to {output}"))
