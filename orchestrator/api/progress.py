"""What a watcher sees while matches play, on standard error: a match's turn bar, a run's
bar with its live standings, a comparison's LLR bar (or, where no bar can be drawn, a
line every EVERY_S seconds). The API passes these to the service (orchestrator/service/)
where someone watches; with `--json` nothing is drawn."""
from __future__ import annotations

import math
import sys
import threading
import time
from contextlib import AbstractContextManager, contextmanager
from typing import Callable, Iterator, TextIO

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
from orchestrator.service.compare import Test, Watch
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
    table = Table(title=f"so far: {tally.matches} games", title_justify="left")
    for column in ("AI", "wins", "win", "95% CI", "mean rank", "failed"):
        table.add_column(column, justify="left" if column == "AI" else "right",
                         overflow="fold" if column == "AI" else "ellipsis")
    for row in tally.report()["players"]:
        table.add_row(shown_text(row["name"]), str(row["wins"]), f"{100 * row['win_rate']:.1f}",
                      f"{100 * row['win_ci'][0]:.0f}-{100 * row['win_ci'][1]:.0f}",
                      f"{row['mean_rank']:.2f}",
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


# -- a comparison told in lines, where no bar can be drawn ---------------------------------
EVERY_S = 10.0          # a progress line at most this often, and at least (a ticker thread)


def compare_watch(total: int, workers: int, game_seconds: float) -> Watch:
    """What shows a comparison's progress: the LLR bar where it is drawn live (stderr and
    stdout terminals, or Jupyter); else, `arena compare ... > file` or a CI log, a line on
    stderr every EVERY_S seconds (`llr_lines`), since a bar off a terminal shows nothing
    until the end. `total`: its planned games; `game_seconds`: one game's guessed cost,
    until games are measured."""
    if compare_err.is_jupyter or (compare_err.is_terminal and sys.stdout.isatty()):
        return llr_bar

    def lines(test: Test) -> AbstractContextManager[Callable[[], None]]:
        return llr_lines(test, total, workers, game_seconds)
    return lines


@contextmanager
def llr_lines(test: Test, total: int, workers: int, game_seconds: float,
              out: TextIO | None = None, clock: Callable[[], float] = time.monotonic,
              every: float = EVERY_S) -> Iterator[Callable[[], None]]:
    """A comparison's progress as lines on stderr (`Lines`): one every `every` seconds
    while it plays, whether or not a game ended (a ticker thread), and one at the end."""
    lines = Lines(test, total, workers, game_seconds, out or sys.stderr, clock=clock,
                  every=every)
    stop = threading.Event()

    def ticking() -> None:
        while not stop.wait(every):
            lines.tick()
    ticker = threading.Thread(target=ticking, name="compare-progress", daemon=True)
    ticker.start()
    try:
        yield lines.update
    finally:
        stop.set()
        ticker.join()
        lines.close()


class Lines:
    """A comparison's progress line: games counted, the LLR and its bounds, the Elo so
    far, an estimate of the games left and their time, the time so far. `update` (after
    each game) takes the test's figures and says them if `every` seconds have passed since
    the last line; `tick` (the ticker thread) says the figures last taken on the same
    terms, so a line comes at least every `every` seconds however long a game takes."""

    def __init__(self, test: Test, total: int, workers: int, game_seconds: float,
                 out: TextIO, *, clock: Callable[[], float], every: float) -> None:
        self.test, self.total, self.out, self.clock, self.every = test, total, out, clock, every
        self.guess = game_seconds / max(1, workers)     # a game's share of the wall time
        self.bounds = sprt.bounds(*test.gsprt_alpha_beta)
        self.started = self.last = clock()
        self.lock = threading.Lock()
        self.first = 2 * test.pairs                     # counted before (a resumed run)
        self.figures = self._figures()
        self.said: tuple | None = None

    def _figures(self) -> tuple:
        test = self.test
        found = sprt.estimate(test.counts) if test.pairs else None
        return test.pairs, test.llr, found

    def update(self) -> None:
        with self.lock:
            self.figures = self._figures()
            self._maybe()

    def tick(self) -> None:
        with self.lock:
            self._maybe()

    def close(self) -> None:
        """The last line, unless the last said these figures already."""
        with self.lock:
            self.figures = self._figures()
            if self.said != self.figures[:2]:
                self._say()

    def _maybe(self) -> None:
        if self.clock() - self.last >= self.every:
            self._say()

    def _say(self) -> None:
        self.last = self.clock()
        self.said = self.figures[:2]
        print(self.line(), file=self.out, flush=True)

    def line(self) -> str:
        pairs, llr, found = self.figures
        games = 2 * pairs
        lower, upper = self.bounds
        elapsed = self.clock() - self.started
        said = [f"compare: {games:,} of at most {self.total:,} games counted",
                f"LLR {llr:+.2f} (bounds {lower:+.2f}, {upper:+.2f})"]
        if found is not None:
            low, high = found["elo_ci"]
            said.append(f"Elo {found['elo'] + 0.0:+.1f} ({low + 0.0:+.0f}, {high + 0.0:+.0f})")
        played = games - self.first
        pace = elapsed / played if played > 0 else self.guess
        left = games_left(pairs, llr, lower, upper, self.total // 2)
        most = self.total - games
        if left is None or left >= most:
            said.append(f"at most {most:,} games left (~{duration(most * pace)})")
        else:
            said.append(f"about {left:,} games left by the LLR's pace (~{duration(left * pace)}"
                        f"; at most {most:,})")
        said.append(f"{duration(elapsed)} so far")
        return ", ".join(said)


def games_left(pairs: int, llr: float, lower: float, upper: float,
               most_pairs: int) -> int | None:
    """The games the GSPRT needs to reach the bound its LLR heads for, at its pace so far
    (the LLR per pair); None before it has a pace. Never more than are planned."""
    if pairs == 0 or llr == 0:
        return None
    drift = llr / pairs
    needed = (upper - llr) / drift if drift > 0 else (llr - lower) / -drift
    return 2 * max(0, min(math.ceil(needed), most_pairs - pairs))


def duration(seconds: float) -> str:
    """45 s, 12 min, 3 h 05 min, 2 days 4 h."""
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes:02d} min"
    days, hours = divmod(hours, 24)
    return f"{days} day{'s' * (days != 1)} {hours} h"


def compare_plan(total: int, counted: int, workers: int, game_seconds: float) -> str:
    """Before a comparison plays: how many games it may take, and how long at most."""
    left = total - counted
    before = f", {counted:,} counted before" if counted else ""
    time_left = duration(left * game_seconds / max(1, workers))
    return (f"at most {left:,} games (--max-games {total:,}{before}): up to about "
            f"{time_left} at ~{game_seconds:g} s a game on {workers} "
            f"worker{'s' * (workers != 1)}; the test usually decides far sooner")
