"""`arena batch`, `arena tournament` and `arena results`: many matches, one results file."""
from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Annotated, Callable, Hashable, List, Optional

import typer
from defusedcsv import csv
from rich.console import Group
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

from engine import InputError
from orchestrator import execute
from orchestrator.games import DEFAULT_GAME, Game, get_game
from orchestrator.options import (
    CpuOption,
    GameOption,
    Interrupted,
    JsonOption,
    MapOption,
    MaxTurnsOption,
    MemoryOption,
    RandomSpawnOption,
    RobotsOption,
    RulesOption,
    SandboxOption,
    check_choice,
    game_limits,
    rule_overrides,
)
from orchestrator.ratings import ELO_INITIAL, ELO_K
from orchestrator.ratings import table as ratings_table
from orchestrator.schedule import Planned, Setup
from orchestrator.series import Series
from orchestrator.store import Store, WriteFailed, digest
from orchestrator.summary import Tally, by_file, by_seat, summarize
from orchestrator.text import console, shown, shown_text
from sandbox import modes

err = console(stderr=True)
out = console()
RUNS_DIR = Path("runs")

WorkersOption = Annotated[Optional[int], typer.Option(
    help="Matches played at once \\[default: all cores].", show_default=False)]
DbOption = Annotated[Optional[Path], typer.Option(
    help="The SQLite results file \\[default: runs/GAME.sqlite]. A rerun resumes from it.",
    show_default=False)]
BackendOption = Annotated[str, typer.Option(
    help="local: worker processes on this machine. dask: a Dask cluster (--address), or a "
         "LocalCluster without one; needs pip install '.[dask]'.")]
AddressOption = Annotated[Optional[str], typer.Option(help="Dask scheduler, tcp://host:port.")]
ReplaysOption = Annotated[bool, typer.Option("--replays", help="Keep every match's replay, "
                                             "in replays/ beside the results file.")]


def _setup(game, map_ref, rules, robots, max_turns, random_spawn, sandbox, cpu_limit,
           memory_mb) -> Setup:
    found = get_game(game)
    modes.chosen(sandbox)
    rules_obj = found.rules(rules or found.presets[0],
                            **rule_overrides(found, robots, max_turns, random_spawn))
    return Setup.make(found, map_ref, rules_obj, game_limits(found, cpu_limit, memory_mb),
                      sandbox)


def batch(
    bots: List[Path] = typer.Argument(..., help="Bot files (or samples' names, see `arena "
                                      "bots`), in seat order.", show_default=False),
    seeds: int = typer.Option(100, "--seeds", help="How many matches: one per seed."),
    first_seed: int = typer.Option(1, help="The first seed; then first+1, first+2, ..."),
    game: GameOption = DEFAULT_GAME,
    map: MapOption = None,
    rules: RulesOption = None,
    robots: RobotsOption = None,
    max_turns: MaxTurnsOption = None,
    random_spawn: RandomSpawnOption = False,
    sandbox: SandboxOption = "standard",
    cpu_limit: CpuOption = None,
    memory_mb: MemoryOption = None,
    workers: WorkersOption = None,
    db: DbOption = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
    replays: ReplaysOption = False,
    as_json: JsonOption = False,
) -> None:
    """Play the same lineup over many seeds, in parallel, and rate it.

    Every match is recorded in a SQLite file as it finishes. Run the same command again
    after Ctrl-C (or a crash) and it plays only what is missing.

    Examples:

      arena batch my_bot.py bots/arena/hunter.py --seeds 200

      arena batch a.py b.py --game robotgame --seeds 500 --json
    """
    from orchestrator import api

    found = api.batch(bots, seeds=seeds, first_seed=first_seed, game=game, map=map,
                      rules=rules, robots=robots, max_turns=max_turns,
                      random_spawn=random_spawn, sandbox=sandbox, cpu_limit=cpu_limit,
                      memory_mb=memory_mb, workers=workers, db=db, backend=backend,
                      address=address, replays=replays, progress=not as_json)
    if as_json:
        print(json.dumps(found.to_json()))
    else:
        _print_summary(found.to_json(), found.title)


def tournament(
    bots: List[Path] = typer.Argument(..., help="Bot files, or samples' names (see `arena "
                                      "bots`).", show_default=False),
    format: Optional[str] = typer.Option(
        None, "--format", help="round-robin: every pair, sides swapped. ffa: all bots in "
        "every match. combinations: every group of --size bots (the seed's 'every "
        "combination of 6, 3 games each'). \\[default: the game's own: combinations of 6, 3 "
        "games, for race; else round-robin, 2 games]", show_default=False),
    games: Optional[int] = typer.Option(None, help="Games per pair, per group, or in all "
                                        "(ffa).", show_default=False),
    size: Optional[int] = typer.Option(None, help="combinations: bots per match (at most "
                                       "the number of bots)."),
    first_seed: int = typer.Option(1, help="The first seed."),
    game: GameOption = DEFAULT_GAME,
    map: MapOption = None,
    rules: RulesOption = None,
    robots: RobotsOption = None,
    max_turns: MaxTurnsOption = None,
    sandbox: SandboxOption = "standard",
    cpu_limit: CpuOption = None,
    memory_mb: MemoryOption = None,
    workers: WorkersOption = None,
    db: DbOption = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
    replays: ReplaysOption = False,
    as_json: JsonOption = False,
) -> None:
    """Play a tournament and rate every bot: Elo, and openskill for any match size.

    Elo starts at 1200 with K = 32 (a match of n players counts as every pair playing,
    scaled by 1/(n-1)); openskill is Plackett-Luce. Ratings are recomputed from the stored
    results in schedule order, so the same results always give the same table.

    Examples:

      arena tournament bots/arena/*.py --format ffa --games 10 --map quad

      arena tournament a.py b.py c.py --game robotgame --games 20

      arena tournament *.py --format combinations --size 6 --games 3 --map official
    """
    from orchestrator import api

    found = api.tournament(bots, format=format, games=games, size=size, first_seed=first_seed,
                           game=game, map=map, rules=rules, robots=robots,
                           max_turns=max_turns, sandbox=sandbox, cpu_limit=cpu_limit,
                           memory_mb=memory_mb, workers=workers, db=db, backend=backend,
                           address=address, replays=replays, progress=not as_json)
    report = found.to_json()
    if as_json:
        print(json.dumps(report))
        return
    table = Table(title=shown_text(found.title))
    points = report["ranked_by"] == "points"
    scored = any(row.get("mean_score") is not None for row in report["players"])
    for column in ("#", "AI", "matches", "points" if points else "wins",
                   *(("mean score",) if scored else ()), "win rate",
                   "mean rank", "Elo", "openskill", "ordinal", "failures"):
        table.add_column(column, justify="left" if column in ("AI", "failures") else "right",
                         overflow="fold" if column == "AI" else "ellipsis")
    for i, row in enumerate(report["players"], start=1):
        failures = row["erased"] + row["forfeits"] + row["load_errors"]
        score = (f"{row['mean_score']:.2f}",) if scored else ()
        table.add_row(str(i), shown_text(row["name"]), str(row["matches"]), str(row["wins"]),
                      *score, f"{row['win_rate']:.3f}", f"{row['mean_rank']:.2f}",
                      f"{row['elo']:.0f}",
                      f"{row['mu']:.1f} ± {row['sigma']:.1f}", f"{row['ordinal']:.1f}",
                      str(failures or ""))
    out.print(table)
    ranked = {"points": "points: 1 per game won (the seed ranks by them); ",
              "score": "mean score: per game (cave: gold + turns lasted; the seed ranks by "
                       "it); "}.get(report["ranked_by"], "")
    out.print(f"[dim]{ranked}Elo: start {ELO_INITIAL:.0f}, K {ELO_K:.0f}; openskill: Plackett-Luce "
              f"mu ± sigma, ordinal = mu - 3 sigma[/dim]")


def tournament_report(matches: list[dict], game: Game, fmt: str, skipped: int,
                      db: Path) -> dict:
    """Standings by Elo, or by points (1 per game won) where the game's seed says so."""
    summary = summarize(matches, key=by_file)
    ratings = ratings_table(matches, key=by_file)
    players = [row | ratings[by_file(row)] | {"points": row["wins"]}
               for row in summary["players"]]
    if game.ranked_by == "points":
        players.sort(key=lambda r: (-r["points"], -r["elo"], r["name"]))
    elif game.ranked_by == "score":
        players.sort(key=lambda r: (-(r["mean_score"] or 0), -r["elo"], r["name"]))
    else:
        players.sort(key=lambda r: (-r["elo"], r["name"]))
    return {"game": game.name, "format": fmt, "ranked_by": game.ranked_by,
            "matches": len(matches), "skipped": skipped,
            "db": str(db), "players": players, "lengths": summary["lengths"],
            "elo": {"initial": ELO_INITIAL, "k": ELO_K}}


def _play_all(kind: str, setup: Setup, planned: list[Planned], args: dict, db: Optional[Path],
              workers: Optional[int], backend: str, address: Optional[str], quiet: bool,
              key: Callable[[dict], Hashable], replays: bool = False
              ) -> tuple[Store, str, int]:
    """Play what is not yet in the store; return the store, the run's id, and how many
    matches were already done."""
    check_choice(backend, execute.BACKENDS, "--backend")
    workers = workers or execute.default_workers()
    if workers < 1:
        raise InputError(f"--workers {workers}: must be at least 1")
    store = Store(db or RUNS_DIR / f"{setup.game.name}.sqlite")
    run_id = digest({"kind": kind, "matches": [p.match_id for p in planned]})
    try:
        store.add_run(run_id, kind, setup.game.name, args, [p.match_id for p in planned])
        done = store.done(p.match_id for p in planned)
        series = Series(planned, store.scratch(done))
        if replays:
            for item in series.waiting:
                item.spec["replay"] = True
        skipped = len(done)
        if series.waiting:
            tally = Tally(key)                  # the live standings, however long the batch
            for match in store.iter_run_results(run_id):
                tally.add(match)
            _play(series, tally, store, backend, workers, address, quiet)
    except KeyboardInterrupt:
        saved = store.run_count(run_id)
        store.close()
        raise Interrupted(f"interrupted; {saved} of {len(planned)} matches are saved in "
                          f"{store.path}; run the same command again to finish") from None
    except WriteFailed as exc:
        raise stopped_writing(exc, store, run_id, len(planned), "matches") from None
    return store, run_id, skipped


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
          address: Optional[str], quiet: bool) -> None:
    progress = Progress(TextColumn("matches"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                        console=err, disable=quiet)
    task = progress.add_task("matches", total=len(series.waiting))
    live = None if quiet else Live(Group(progress, _standings(tally)), console=err,
                                   refresh_per_second=4, transient=True)
    shown = time.monotonic()
    if live:
        live.start()
    try:
        for item, outcome in execute.run(series, backend, workers, address):
            if "error" in outcome:
                raise InputError(f"match with seed {item.spec['seed']}: {outcome['error']}")
            if "replay" in outcome:
                path = store.path.parent / "replays" / f"{item.match_id}.json.gz"
                with store.writing(path):
                    write_whole(path, outcome["replay"])
                outcome["result"]["replay"] = str(path)
            store.add_match(item.match_id, outcome["result"], outcome["wall_s"])
            tally.add(outcome["result"])
            progress.advance(task)
            if live and time.monotonic() - shown > 0.25:
                live.update(Group(progress, _standings(tally)))
                shown = time.monotonic()
    finally:
        if live:
            live.stop()


def write_whole(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (a full disk leaves no half a replay): a
    temporary file beside it, renamed over it once written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_bytes(data)
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def _standings(tally: Tally) -> Table:
    table = Table(title=f"so far: {tally.matches} matches", title_justify="left")
    for column in ("AI", "wins", "win rate", "95% interval", "mean rank", "failures"):
        table.add_column(column, justify="left" if column == "AI" else "right",
                         overflow="fold" if column == "AI" else "ellipsis")
    for row in tally.report()["players"]:
        table.add_row(shown_text(row["name"]), str(row["wins"]), f"{row['win_rate']:.3f}",
                      f"{row['win_ci'][0]:.3f}-{row['win_ci'][1]:.3f}", f"{row['mean_rank']:.2f}",
                      str(row["erased"] + row["forfeits"] + row["load_errors"] or ""))
    return table


def _print_summary(report: dict, title: str) -> None:
    scored = any(row.get("mean_score") is not None for row in report["players"])
    top2 = report.get("most_players", 3) > 2        # in a 2-player game, always 100 %
    notes = {"score": "mean score (cave: gold + turns lasted)",
             "win": "wins in %" + (", top-2: first or second, in %" if top2 else ""),
             "95% CI": "Wilson interval of the win rate", "rank": "mean rank",
             "failed": "erased, forfeit or not loaded (reasons below)"}
    columns = ("AI", *(("score",) if scored else ()), "games", "wins", "draws", "win",
               "95% CI", *(("top-2",) if top2 else ()), "rank", "failed")
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
        table.add_row(shown_text(row["name"]), *score, str(row["matches"]), str(row["wins"]),
                      str(row["draws"]),
                      f"{100 * row['win_rate']:.1f}", f"{100 * low:.0f}-{100 * high:.0f}",
                      *top, f"{row['mean_rank']:.2f}",
                      str(row["erased"] + row["forfeits"] + row["load_errors"]))
    out.print(table)
    for row in report["players"]:
        for reason, count in row["reasons"].items():
            out.print(shown_text(f"  {row['name']}: {count} x {reason}"))
    lengths = report["lengths"]
    out.print(f"game length: min {lengths['min']}, median {lengths['median']}, max "
              f"{lengths['max']} turns")
    peak = max((count for _, _, count in lengths["histogram"]), default=0)
    for low, high, count in lengths["histogram"]:
        bar = "█" * round(40 * count / peak) if peak else ""
        out.print(f"  {low:>5}-{high:<5} {bar} {count}", highlight=False)


def results(
    db: Path = typer.Argument(..., help="A results file written by batch or tournament."),
    run: Optional[str] = typer.Option(None, help="Show one run (its id, or a prefix)."),
    export: Optional[str] = typer.Option(None, help="csv: every participant of every match "
                                         "(or of --run), one row each."),
    output: Optional[Path] = typer.Option(None, "--out", help="Write the export here "
                                          "\\[default: standard output]."),
    as_json: JsonOption = False,
) -> None:
    """Show past runs in a results file, one run's table, or export them as CSV.

    Examples:

      arena results runs/arena.sqlite

      arena results runs/arena.sqlite --run 3f2a --json

      arena results runs/arena.sqlite --export csv --out results.csv
    """
    if not db.is_file():
        raise InputError(f"{db}: results file not found")
    store = Store(db)
    try:
        runs = store.runs()
        chosen = chosen_run(store, run) if run else None
        if export is not None:
            check_choice(export, ("csv",), "--export format")
            columns, rows = store.export_rows(chosen["id"] if chosen else None)
            handle = output.open("w", newline="") if output else sys.stdout
            writer = csv.writer(handle)
            writer.writerow(columns)        # defusedcsv: no cell reads as a formula
            writer.writerows(tuple(shown(v) if isinstance(v, str) else v for v in row)
                             for row in rows)
            if output:
                handle.close()
                err.print(shown_text(f"wrote {len(rows)} rows to {output}"))
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
            table.add_row(r["id"][:10], r["kind"], r["game"],
                          time.strftime("%Y-%m-%d %H:%M", time.localtime(r["created"])),
                          f"{r['finished']}/{r['planned']}",
                          shown_text(", ".join(Path(b).name for b in r["args"].get("bots", []))))
        out.print(table)
    finally:
        store.close()


def chosen_run(store: Store, run: str) -> dict:
    """The one run of the store whose id starts with `run`."""
    matching = [r for r in store.runs() if r["id"].startswith(run)]
    if len(matching) != 1:
        raise InputError(f"--run {run}: {len(matching)} runs match in {store.path}")
    return matching[0]


def run_report(store: Store, run: dict) -> dict:
    """One stored run's table: a tournament's standings, or a batch's summary."""
    matches = store.run_results(run["id"])
    if run["kind"] == "tournament":
        report = tournament_report(matches, get_game(run["game"]), run["args"].get("format", ""), 0,
                                   store.path)
    else:
        report = {"game": run["game"], "matches": len(matches), "skipped": 0,
                  "db": str(store.path), **summarize(matches, by_seat)}
    report["run"] = run
    return report


def _show_run(store: Store, run: dict, as_json: bool) -> None:
    report = run_report(store, run)
    if as_json:
        print(json.dumps(report))
    else:
        _print_summary(report, f"{run['kind']} {run['id'][:10]}: {report['matches']} of "
                               f"{run['planned']} matches")
