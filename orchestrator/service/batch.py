"""Many matches into one results file (`arena batch`, `arena tournament`, and their API
functions): plan them, play what the store does not hold yet, and report. Every match
goes into the store as it finishes, so the same call after Ctrl-C plays only the rest."""
from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, Callable, Hashable, Mapping, NotRequired, Optional, Sequence, TypedDict

from engine import InputError
from orchestrator import arguments, given_path, host_files
from orchestrator.faults import InternalError
from orchestrator.games import Game
from orchestrator.options import Execution, MatchSettings, TournamentFormat
from orchestrator.results.match_result import Played
from orchestrator.results.ratings import ELO_INITIAL, ELO_K, RatingsRow
from orchestrator.results.ratings import table as ratings_table
from orchestrator.results.store import Store, StoredMatch, WriteFailed, digest
from orchestrator.results.summary import (
    Lengths,
    Summary,
    SummaryRow,
    Tally,
    by_file,
    by_seat,
    summarize,
)
from orchestrator.runner import execute
from orchestrator.runner.bots import read_bot
from orchestrator.runner.match import record_of
from orchestrator.runner.schedule import Planned, Setup, plan_batch, plan_tournament
from orchestrator.runner.series import Series
from orchestrator.service.setup import results_path, run_setup, sandbox_shown, workers_for
from orchestrator.service.values import Interrupted, seed_or_draw

log = logging.getLogger(__name__)

class BatchReport(Summary):
    """`arena batch --json`: the run, then its summary (`summarize`, by seat)."""

    game: str
    matches: int                    # finished
    skipped: int                    # already in the results file
    first_seed: int
    db: str
    sandbox_note: NotRequired[str]  # why `match` played in the standard mode


class TournamentRow(SummaryRow, RatingsRow):
    """An AI's row of a tournament's standings: its summary, its ratings, its points."""

    points: int                     # 1 per game won


class TournamentReport(TypedDict):
    """`arena tournament --json` (and a stored tournament's table): the standings."""

    game: str
    format: str
    ranked_by: str                  # elo, points or score: what orders `players`
    matches: int
    skipped: int
    db: str
    players: list[TournamentRow]
    lengths: Lengths
    elo: dict[str, float]           # its initial rating and K
    sandbox_note: NotRequired[str]
    first_seed: NotRequired[int]    # a run's (a stored table has none)


# What shows a run's progress: given the number of matches to play and the live
# standings, a context that yields the function called after each finished match.
Watch = Callable[[int, Tally], AbstractContextManager[Callable[[], None]]]


def unwatched(total: int, tally: Tally) -> AbstractContextManager[Callable[[], None]]:
    """No progress shown."""
    return nullcontext(lambda: None)


# How many games a run plays: a run with more of them extends one with fewer.
_COUNTS = ("seeds", "games", "max_games")


def first_seed_for(kind: str, path: Path, args: dict[str, Any], given: Optional[int],
                   span: int) -> int:
    """The first seed given; else the one the newest run of the same command (every
    argument alike but the seed and how many games) in the results file `path` drew, so
    that the same command after Ctrl-C resumes it, and one with more games extends it (the
    first games are the ones played); else one drawn from the OS (63 bits: the opponents
    may be anyone's, and a match's hidden information is only as hidden as its seed,
    docs/security.md)."""
    if given is not None:
        return given
    if given_path.is_file(path):
        wanted = {k: v for k, v in json.loads(json.dumps(args)).items() if k not in _COUNTS}
        store = Store(path)
        try:
            for run in reversed(store.runs()):
                kept = {k: v for k, v in run["args"].items() if k not in _COUNTS}
                seed = kept.pop("first_seed", None)
                if run["kind"] == kind and kept == wanted and type(seed) is int and \
                        0 <= seed <= arguments.SEED_MAX - span + 1:
                    return seed
        finally:
            store.close()
    return seed_or_draw(None, span)


def batch(bots: Sequence[Path], settings: MatchSettings, run: Execution, *, seeds: int,
          first_seed: int | None, replays: bool = False, watch: Watch = unwatched
          ) -> tuple[BatchReport, str]:
    """The same line-up over `seeds` seeds: the `arena batch --json` report, and its title.
    `first_seed` None: drawn, or resumed (`first_seed_for`). `replays`: keep every match's
    replay."""
    arguments.check(seeds=seeds, first_seed=first_seed, workers=run.workers)
    if first_seed is not None:
        arguments.check_span(first_seed, seeds)
    setup = run_setup(settings)
    sandbox, db = settings.sandbox, run.db
    lineup = [read_bot(p, setup.game.name) for p in setup.game.mirrored(list(bots))]
    args = {"bots": [b.path for b in lineup], "seeds": seeds,
            "map": setup.map_path.name, "rules": setup.rules.as_dict(), "sandbox": sandbox}
    first_seed = first_seed_for("batch", results_path(db, setup.game), args, first_seed, seeds)
    args["first_seed"] = first_seed
    planned = plan_batch(setup, lineup, list(range(first_seed, first_seed + seeds)))
    store, run_id, skipped = play_all("batch", setup, planned, args, run, watch, key=by_seat,
                                      replays=replays)
    summary = summarize(store.iter_run_results(run_id), by_seat)    # one match at a time
    count = store.run_count(run_id)
    shown, note = sandbox_shown(sandbox, setup.game, lineup)
    report: BatchReport = {"game": setup.game.name, "matches": count, "skipped": skipped,
                           "first_seed": first_seed, "db": str(store.path), **summary, **note}
    store.close()
    return report, (f"batch: {count} matches of {setup.game.name} on "
                    f"{setup.map_path.stem}, first seed {first_seed}, sandbox {shown} "
                    f"({skipped} already in {store.path})")


def tournament(bots: Sequence[Path], settings: MatchSettings, shape: TournamentFormat,
               run: Execution, *, first_seed: int | None, replays: bool = False,
               watch: Watch = unwatched) -> tuple[TournamentReport, str]:
    """A tournament rated by Elo and openskill: the `arena tournament --json` report, and
    its title. The `shape`'s format, games and size default to the game's own."""
    format, games, size = shape.format, shape.games, shape.size
    arguments.check(games=games, size=size, first_seed=first_seed, workers=run.workers)
    if first_seed is not None:
        arguments.check_span(first_seed, games or 1)
    setup = run_setup(settings)
    sandbox, db = settings.sandbox, run.db
    lineup = [read_bot(p, setup.game.name) for p in bots]
    own_format, own_games, own_size = setup.game.competition.tournament
    format = format or own_format
    games = games or own_games
    if size is None and own_size is not None and format == own_format:
        size = min(own_size, len(lineup))
    args = {"bots": [b.path for b in lineup], "format": format, "games": games, "size": size,
            "map": setup.map_path.name, "rules": setup.rules.as_dict(), "sandbox": sandbox}
    # A tournament's seeds are first..first+games-1 at most (round-robin: games/2 pairs).
    first_seed = first_seed_for("tournament", results_path(db, setup.game), args, first_seed,
                                games)
    args["first_seed"] = first_seed
    planned = plan_tournament(setup, lineup, format, games, first_seed, size)
    store, run_id, skipped = play_all("tournament", setup, planned, args, run, watch,
                                      key=by_file, replays=replays)
    report = tournament_report(store.run_results(run_id), setup.game, format, skipped,
                               store.path)
    shown, note = sandbox_shown(sandbox, setup.game, lineup)
    if "sandbox_note" in note:
        report["sandbox_note"] = note["sandbox_note"]
    report["first_seed"] = first_seed
    store.close()
    return report, (f"tournament ({format}): {report['matches']} "
                    f"games of {setup.game.name}, first seed {first_seed}, sandbox {shown} "
                    f"({skipped} already in {store.path})")


def tournament_report(matches: list[StoredMatch], game: Game, fmt: str, skipped: int,
                      db: Path) -> TournamentReport:
    """Standings by Elo, or by points (1 per game won) where the game's seed says so."""
    summary = summarize(matches, key=by_file)
    ratings = ratings_table(matches, key=by_file)
    players: list[TournamentRow] = [{**row, **ratings[by_file(row)], "points": row["wins"]}
                                    for row in summary["players"]]
    if game.competition.ranked_by == "points":
        players.sort(key=lambda r: (-r["points"], -r["elo"], r["name"]))
    elif game.competition.ranked_by == "score":
        players.sort(key=lambda r: (-(r["mean_score"] or 0), -r["elo"], r["name"]))
    else:
        players.sort(key=lambda r: (-r["elo"], r["name"]))
    return {"game": game.name, "format": fmt, "ranked_by": game.competition.ranked_by,
            "matches": len(matches), "skipped": skipped,
            "db": str(db), "players": players, "lengths": summary["lengths"],
            "elo": {"initial": ELO_INITIAL, "k": ELO_K}}


def play_all(kind: str, setup: Setup, planned: list[Planned], args: dict[str, Any],
             run: Execution, watch: Watch, *, key: Callable[[Mapping[str, Any]], Hashable],
             replays: bool = False) -> tuple[Store, str, int]:
    """Play what is not yet in the store (`replays`: keeping every match's replay);
    return the store, the run's id, and how many matches were already done."""
    backend, address = run.backend, run.address
    workers = workers_for(backend, run.workers)
    store = Store(results_path(run.db, setup.game))
    run_id = digest({"kind": kind, "matches": [p.match_id for p in planned]})
    try:
        store.add_run(run_id, kind, setup.game.name, args, [p.match_id for p in planned])
        done = store.done(p.match_id for p in planned)
        series = Series(planned, store.scratch(done))
        if replays:
            for item in series.waiting:
                item.spec = dataclasses.replace(item.spec, replay=True)
        skipped = len(done)
        log.info("%s: %d matches planned, %d already in %s", kind, len(planned), skipped,
                 store.path)
        if series.waiting:
            tally = Tally(key)                  # the live standings, however long the batch
            for match in store.iter_run_results(run_id):
                tally.add(match)
            _play(series, tally, store, backend=backend, workers=workers, address=address,
                  watch=watch)
    except KeyboardInterrupt:
        saved = store.run_count(run_id)
        store.close()
        raise Interrupted(f"interrupted; {saved} of {len(planned)} matches are saved in "
                          f"{store.path}; run the same command again to finish") from None
    except WriteFailed as exc:
        raise stopped_writing(exc, store, run_id, len(planned), "matches") from None
    except InternalError as exc:
        raise stopped_by_fault(exc, store, run_id, len(planned), "matches") from None
    return store, run_id, skipped


def failed(item: Planned, outcome: Played, what: str = "match") -> InternalError | None:
    """A worker's failed outcome: the input's error is raised (one `error:` line); a fault
    of ours comes back as an InternalError with the worker's traceback; None: it played."""
    if "fault" in outcome:
        log.info("%s with seed %d (%s) failed: %s", what, item.spec.seed, item.match_id,
                 outcome.get("error"))
        return InternalError(f"{what} with seed {item.spec.seed}: {outcome.get('error')}",
                             outcome["fault"])
    if "error" in outcome:
        raise InputError(f"{what} with seed {item.spec.seed}: {outcome['error']}")
    return None


def stopped_by_fault(exc: InternalError, store: Store, run_id: str, planned: int,
                     what: str) -> InternalError:
    """The internal error that stopped a run, with what is saved: the same command plays
    the rest. Closes the store."""
    try:
        saved = f"{store.run_count(run_id)} of {planned} {what} are saved in {store.path}"
    except sqlite3.Error:
        saved = f"the {what} recorded before are saved in {store.path}"
    store.close()
    return InternalError(f"{exc.summary}; {saved}", exc.details)


def stopped_writing(exc: WriteFailed, store: Store, run_id: str, planned: int,
                    what: str) -> InputError:
    """The one error line of a run stopped by a write that failed (a full disk): the file,
    the problem, what is saved, and what to do for the same command to resume. Closes
    the store."""
    try:
        saved = f"{store.run_count(run_id)} of {planned} {what} are saved in {store.path}"
    except sqlite3.Error:
        saved = f"the {what} recorded before are saved in {store.path}"
    store.close()
    return InputError(f"{exc.path}: cannot write the results ({exc.problem}); {saved}: "
                      f"{exc.hint()}, then run the same command again to resume")


def _play(series: Series, tally: Tally, store: Store, backend: str, workers: int,
          address: Optional[str], watch: Watch) -> None:
    """Play and record the series' matches. The first fault of ours stops the run: no new
    match starts, the ones in play finish and are recorded, then it is raised (the same
    command plays the rest). The input's error stops it at once."""
    fault: InternalError | None = None
    with watch(len(series.waiting), tally) as advance:
        for item, outcome in execute.run(series, backend, workers, address):
            if (found := failed(item, outcome)) is not None:
                fault = fault or found
                series.waiting.clear()
                continue
            kept = made = None
            if "replay" in outcome:
                kept = store.path.parent / "replays" / f"{item.match_id}.json.gz"
                # A match's replay is a function of its id: one already there is this
                # match's, kept for another results file in the folder, and stays.
                made = not kept.exists()
                with store.writing(kept):
                    write_whole(kept, outcome["replay"])
                outcome["result"]["replay"] = str(kept)
            try:
                store.add_match(item.match_id, outcome["result"], outcome["wall_s"],
                                record_of(item.spec))
            except WriteFailed:
                # No replay of a match the file does not record (a full disk): the same
                # command plays it again and writes it then.
                if kept is not None and made:
                    kept.unlink(missing_ok=True)
                raise
            log.debug("match with seed %d (%s) recorded", item.spec.seed, item.match_id)
            tally.add(outcome["result"])
            advance()
    if fault is not None:
        raise fault


def write_whole(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (a full disk leaves no half a replay): a fresh
    file beside it, renamed over it once written (a link at its name is replaced, and a
    link where its folder is refused, never written through: orchestrator/host_files.py)."""
    host_files.write_kept(path, data)
