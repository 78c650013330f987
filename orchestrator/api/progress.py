"""What a watcher sees while matches play, on standard error: a match's turn bar, a run's
bar with its live standings, a comparison's LLR bar. The API passes these to the service
(orchestrator/service/) where someone watches; with `--json` nothing is drawn."""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console, Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from orchestrator.results import sprt
from orchestrator.results.summary import Tally
from orchestrator.service.compare import Test
from orchestrator.text import console, shown_text

err = console(stderr=True)
# The comparison's bar has always been drawn on a plain rich console (no piped width).
compare_err = Console(stderr=True)


@contextmanager
def turn_bar(total: int) -> Iterator[Callable[[int, int], None]]:
    """A match's bar, turn by turn: yields the match loop's `on_turn`."""
    columns = (TextColumn("turn"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task("match", total=total)
        yield lambda turn, total: progress.update(task, completed=turn)


@contextmanager
def site_bar() -> Iterator[Callable[[str, int, int], None]]:
    """`arena publish`'s bar: what it writes now, and how many of the site's pages are
    written; yields the service's `told(what, done, total)`."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        task = progress.add_task("site", total=None)

        def told(what: str, done: int, total: int) -> None:
            progress.update(task, description=f"publish: {shown_text(what).plain[:60]}",
                            completed=done, total=total)
        yield told


@contextmanager
def run_bar(total: int, tally: Tally) -> Iterator[Callable[[], None]]:
    """A run's bar and its standings so far: yields what to call after each match."""
    progress = Progress(TextColumn("matches"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                        console=err)
    task = progress.add_task("matches", total=total)
    live = Live(Group(progress, standings(tally)), console=err, refresh_per_second=4,
                transient=True)
    shown = time.monotonic()

    def advance() -> None:
        nonlocal shown
        progress.advance(task)
        if time.monotonic() - shown > 0.25:
            live.update(Group(progress, standings(tally)))
            shown = time.monotonic()

    live.start()
    try:
        yield advance
    finally:
        live.stop()


def standings(tally: Tally) -> Table:
    """The live standings of a run."""
    table = Table(title=f"so far: {tally.matches} matches", title_justify="left")
    for column in ("AI", "wins", "win rate", "95% interval", "mean rank", "failures"):
        table.add_column(column, justify="left" if column == "AI" else "right",
                         overflow="fold" if column == "AI" else "ellipsis")
    for row in tally.report()["players"]:
        table.add_row(shown_text(row["name"]), str(row["wins"]), f"{row['win_rate']:.3f}",
                      f"{row['win_ci'][0]:.3f}-{row['win_ci'][1]:.3f}", f"{row['mean_rank']:.2f}",
                      str(row["erased"] + row["forfeits"] + row["load_errors"] or ""))
    return table


@contextmanager
def llr_bar(test: Test) -> Iterator[Callable[[], None]]:
    """A comparison's log-likelihood ratio between its bounds, its games and its Elo so
    far: yields what to call after each game counted."""
    lower, upper = sprt.bounds(*test.gsprt_alpha_beta)
    columns = [TextColumn("LLR {task.fields[llr]:+.2f}"), TextColumn(f"{lower:.2f}"),
               BarColumn(), TextColumn(f"{upper:.2f}"), TextColumn("{task.fields[games]} games"),
               TextColumn("Elo {task.fields[elo]}"), TimeElapsedColumn()]
    progress = Progress(*columns, console=compare_err, transient=True)

    def fields() -> dict:
        found = sprt.estimate(test.counts)
        low, high = found["elo_ci"]
        elo = f"{found['elo']:+.1f} ({low:+.0f}, {high:+.0f})" if test.pairs else "-"
        return {"completed": min(max(test.llr, lower), upper) - lower, "llr": test.llr,
                "games": 2 * test.pairs, "elo": elo}

    task = progress.add_task("compare", total=upper - lower, **fields())
    with progress:
        yield lambda: progress.update(task, **fields())
