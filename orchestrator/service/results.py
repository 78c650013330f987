"""The runs of a results file (`arena results`, `api.open_store`): their list, one run's
table, and every participant of every match as rows."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import InputError
from orchestrator import given_path
from orchestrator.games import get_game
from orchestrator.results.sprt import pair_record
from orchestrator.results.store import Store, StoredMatch, StoredRun
from orchestrator.results.summary import by_seat, summarize
from orchestrator.service import compare as comparisons
from orchestrator.service import matchups
from orchestrator.service.batch import tournament_report
from orchestrator.service.values import check_choice

EXPORTS = ("csv",)


def results_file(path: str | Path) -> Path:
    """The results file at `path`, which must exist (a run writes it, a reader does not)."""
    if not given_path.is_file(path):
        raise InputError(f"{path}: results file not found")
    return Path(path)


def open_results(path: str | Path) -> Store:
    """The results file at `path`, open (the caller closes it)."""
    return Store(results_file(path))


def chosen_run(store: Store, run: str) -> StoredRun:
    """The one run of the store whose id starts with `run`."""
    matching = [r for r in store.runs() if r["id"].startswith(run)]
    if len(matching) != 1:
        raise InputError(f"--run {run}: {len(matching)} runs match in {store.path}")
    return matching[0]


def run_report(store: Store, run: StoredRun) -> dict[str, Any]:
    """One stored run's table: a tournament's standings, a batch's summary, or a
    comparison's verdict on NEW against OLD (never by seat: each pair seats both)."""
    matches = store.run_results(run["id"])
    if run["kind"] == "compare":
        report: dict[str, Any] = dict(comparisons.stored_report(run, matches, store.path))
        report |= {"new_name": bot_name(matches, report["new"]),
                   "old_name": bot_name(matches, report["old"]),
                   "record": pair_record(report["counts"])}
    elif run["kind"] == "tournament":
        report = dict(tournament_report(matches, get_game(run["game"]),
                                        run["args"].get("format", ""), 0, store.path))
    else:
        report = {"game": run["game"], "matches": len(matches), "skipped": 0,
                  "db": str(store.path), **summarize(matches, by_seat)}
    report["run"] = run
    return report


def run_title(run: StoredRun, report: dict[str, Any]) -> str:
    """The title of one stored run's table."""
    if run["kind"] == "compare":
        return (f"compare {run['id'][:10]}: {report['new_name']} (new) against "
                f"{report['old_name']} (old), {report['pairs']} pairs counted")
    return f"{run['kind']} {run['id'][:10]}: {report['matches']} of {run['planned']} matches"


def bot_name(matches: list[StoredMatch], path: str) -> str:
    """A bot's name in a run's matches (its file's stem if it never played)."""
    for match in matches:
        for player in match["players"]:
            if player["bot"] == path:
                return str(player["name"])
    return Path(path).stem


def check_export(export: str) -> None:
    """An --export format arena writes, or an InputError naming them."""
    check_choice(export, EXPORTS, "--export format")


def export_rows(store: Store, run_id: str | None, export: str = "csv"
                ) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Every participant of every match (or of one run), one row each, with its columns."""
    check_choice(export, EXPORTS, "--export format")
    return store.export_rows(run_id)


def matrix(store: Store, run_id: str | None, bot: str | None = None, by: str | None = None,
           map: str | None = None, export: str | None = None) -> dict[str, Any]:
    """The matchup matrix (orchestrator/service/matchups.py) of one run or the whole file;
    `export` is checked as --export's format."""
    if export is not None:
        check_choice(export, EXPORTS, "--export format")
    return matchups.matrix(store, run_id, bot=bot, by=by, map=map)


def check_results_options(*, matrix: bool, games: bool, by: str | None, bot: str | None,
                          html: Path | None, lost: bool, vs: str | None,
                          map: str | None) -> None:
    """Each option of `arena results` with the view it belongs to."""
    if matrix and games:
        raise InputError("--matrix and --games: choose one")
    if games and bot is None and (lost or vs):
        raise InputError(f"{'--lost' if lost else '--vs'} needs --bot NAME: whose games")
    for given, option, needs in ((by, "--by", matrix), (html, "--html", matrix),
                                 (lost, "--lost", games), (vs, "--vs", games),
                                 (bot, "--bot", matrix or games),
                                 (map, "--map", matrix or games)):
        if given and not needs:
            raise InputError(f"{option} goes with " + (
                "--matrix" if option in ("--by", "--html") else "--games"
                if option in ("--lost", "--vs") else "--matrix or --games"))
