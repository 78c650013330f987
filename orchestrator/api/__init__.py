"""The Python API: play, check, batch, tournament and compare from a script or a notebook.

    from orchestrator import api
    result = api.play(["hunter", "beeline"], seed=42, max_turns=100)
    result.winner, result.to_json()      # the same object as `arena run ... --json`
    result                               # in Jupyter: the replay viewer, inline

Every function takes the options of its command (docs/python-api.md), and the commands
call these functions, so the two cannot drift. The options shared by several commands
come in their groups (orchestrator/options/: `MatchSettings` with its `Confinement`,
`Execution`, `TournamentFormat`, `CompareBounds`), declared once for the command line and
the API alike: a function takes a group whole (`match=MatchSettings(game="robotgame")`)
or its fields as keywords (`game="robotgame", sandbox="off"`), and builds the same group.
The work is done by the service layer (orchestrator/service/), which checks every value
given; this front makes files of bots given as code, shows progress where someone
watches, and types the results.

A bot is a file's path, a bundled sample's name (`arena bots`), or for a Python game a
function or class defined by the caller, which is written to a file and runs in the
sandbox like any other bot. Bad input raises
InputError (the message the command prints after `error:`); Ctrl-C during a batch,
tournament or comparison stops every bot process and raises Interrupted, and the same
call resumes from the results file.

This folder holds the front (here), its result types (`types.py`), bots given as code
(`code_source.py`, `cellbots.py`), the progress bars drawn where someone watches
(`progress.py`), and a bot imported on the host for a unit test (`testing.py`). May
import the service and below, and the views (tests/test_layers.py).
"""
from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from typing import Any, Callable, Sequence, Union

from engine import InputError
from orchestrator import arguments
from orchestrator.api import cellbots
from orchestrator.api import progress as views
from orchestrator.api.types import (
    BatchResult,
    CompareResult,
    MatchResult,
    Matchups,
    PlayerResult,
    Replay,
    RunInfo,
    Standing,
)
from orchestrator.games import DEFAULT_GAME, GAMES, get_game
from orchestrator.options import (
    CheckSettings,
    CompareBounds,
    Confinement,
    Execution,
    MatchSettings,
    TournamentFormat,
    build,
    no_more,
)
from orchestrator.replay import file as replay
from orchestrator.results import score
from orchestrator.service import batch as batches
from orchestrator.service import check as checks
from orchestrator.service import compare as comparisons
from orchestrator.service import play as matches
from orchestrator.service import results as stored
from orchestrator.service import scenario as scenarios
from orchestrator.service.setup import from_position, match_spec
from orchestrator.service.values import Interrupted
from orchestrator.text import console, plural, shown, shown_text

Bot = Union[str, Path, Callable[..., Any], type]
"""A bot: a file's path, a bundled sample's name, or a function or class (Python games)."""

__all__ = ["play", "check", "scenario", "batch", "tournament", "compare", "open_store",
           "publish", "MatchSettings", "Confinement", "Execution", "TournamentFormat",
           "CompareBounds", "CheckSettings",
           "load_replay", "bot_file",
           "Bot", "MatchResult", "PlayerResult", "BatchResult", "Standing", "CompareResult",
           "Replay", "ResultsStore", "Matchups", "RunInfo", "InputError", "Interrupted", "GAMES"]

_err = console(stderr=True)


def _shows_progress(progress: bool | None) -> bool:
    """None: a bar where someone watches: a terminal on stderr, or Jupyter where rich can
    draw there (its live display needs ipywidgets: `pip install 'robot-arena[notebook]'`)."""
    if progress is not None:
        return progress
    if _err.is_jupyter:
        return importlib.util.find_spec("ipywidgets") is not None
    return sys.stderr.isatty()


def bot_file(bot: Bot, game: str = DEFAULT_GAME, *, helpers: Sequence[Any] = (),
             name: str | None = None) -> Path:
    """The file of a bot: a path or a sample's name as it is; a function or class (with
    the `helpers` it calls: functions, classes) written to a file named by its content.
    `name` is the bot's name in results (default: the function's or class's name)."""
    if cellbots.is_code(bot):
        return cellbots.write_bot(bot, get_game(game), helpers, name)
    if isinstance(bot, (str, Path)):
        return Path(bot)
    raise InputError(f"{bot!r}: a bot is a file's path, a sample's name, or a function or "
                     f"class")


def _files(bots: Sequence[Bot] | None, game: str) -> list[Path]:
    if isinstance(bots, (str, Path)) or cellbots.is_code(bots):
        bots = [bots]                        # one bot: it plays itself where that is allowed
    return [bot_file(bot, game) for bot in bots or ()]


def _played_alone(bots: Sequence[Bot] | None, spec: Any, from_position: bool) -> str:
    """The note for one bot given to a two-player game, which then plays both seats
    (itself), else "". `spec`: the match's (runner/match.py's MatchSpec)."""
    if bots is None or isinstance(bots, (str, Path)) or len(bots) != 1 or len(spec.bots) != 2:
        return ""
    name = spec.bots[0].name
    where = "the position's 2 players" if from_position else "a 2-player game"
    return (f"note: one bot for {where}: {name} plays both seats, against itself; give 2 "
            f"bots, in seat order, to play another")


def play(bots: Sequence[Bot] | None = None, *, seed: int | None = None,
         replay: str | Path | None = None, progress: bool | None = None,
         record: bool = True, start: str | Path | dict | None = None,
         turns: int | None = None, match: MatchSettings | None = None,
         **options: Any) -> MatchResult:
    """Play one match (`arena run`). No bots: the game's sample bots.

    Options, the match group (`match=MatchSettings(...)`, or its fields as keywords):
    `game`, `map`, `rules`, `robots`, `max_turns`, `random_spawn`, and its confinement's
    `sandbox`, `cpu_limit`, `memory_mb`.

    `start`: a position (a file's path, or the dict of one) to start from instead of turn
    0 (`arena run --from`): its game, map, seed and rules are the match's, and the bots
    given (as many as its players) start fresh, their own memory empty. `turns`: stop
    after that many turns (the result's `end` is then "stopped").

    `seed` None draws one (the result names it). `replay`: also save the replay file
    there. `record`: keep the replay in the result (`.replay`, shown inline in Jupyter);
    False saves the time of recording it. `progress`: a turn bar (None: where someone
    watches).
    """
    settings = build(MatchSettings, options, match)
    no_more("play", options)
    if start is not None:
        spec = from_position(start, bots, settings, seed=seed, turns=turns, files=_files)
    else:
        found = get_game(settings.game)
        settings = dataclasses.replace(settings, game=found.name)
        spec = match_spec(_files(bots, found.name), settings, seed, on_skip=_skipped_sample)
        if turns is not None:
            arguments.check(turns=turns)
            spec = dataclasses.replace(spec, turns=turns)
    shown = _shows_progress(progress)
    replays: list[dict] | None = [] if record or replay is not None else None
    try:
        if shown:
            ais = plural(len(spec.bots), "AI")
            _err.print(shown_text(f"{spec.game}: {ais} on {spec.map_path.name}, "
                                  f"seed {spec.seed}, sandbox {spec.sandbox}", "dim"))
            alone = _played_alone(bots, spec, start is not None)
            if alone:
                _err.print(shown_text(alone), soft_wrap=True)
            with views.turn_bar(spec.rules.max_turns) as on_turn:
                played = matches.play(spec, on_turn, replays)
        else:
            played = matches.play(spec, None, replays)
    except (InputError, KeyboardInterrupt):
        raise
    except Exception as exc:
        if start is None:
            raise
        # A position is data from anyone: whatever its checks let through that the engine
        # cannot play is the file's fault, one error line naming it, never a traceback.
        raise position_failed(start, spec.game, exc) from None
    said = score.said(played["game"], played["players"])
    if said:
        played = {**played, "score": said}
    result = MatchResult.from_dict(played, replays[0] if replays else None)
    if replay is not None:
        result.save_replay(replay)
    return result


def position_failed(start: str | Path | dict, game: str, exc: BaseException) -> InputError:
    """The error of an engine that failed playing a position: the file and what failed."""
    name = str(start) if isinstance(start, (str, Path)) else "the position"
    return InputError(f"{shown(name)}: the {game} engine cannot play on from this "
                      f"position ({type(exc).__name__}: {shown(str(exc))[:120]})")


def _skipped_sample(why: str) -> None:
    _err.print(f"note: {why}; the demo plays without it", markup=False, highlight=False,
               soft_wrap=True)


def check(bot: Bot, *, game: str = DEFAULT_GAME, progress: bool | None = None,
          checking: CheckSettings | None = None, confinement: Confinement | None = None,
          **options: Any) -> checks.CheckVerdict:
    """The CI gate for a submission (`arena check`): play it in the sandbox against the
    game's samples and judge it. The verdict is the `arena check --json` object: `ok`,
    and where not, the `failure` (load_error, hang, stalls, cpu, memory, crash, protocol,
    sandbox, overheats, invalid, output, timeout, nondeterministic) and the `reason` in one
    line; `own_s` and `pace`, the bot's own time and what a full match would cost at its
    pace (a `slow` pace is a warning).
    A bot that passed plays the same match again, and fails `nondeterministic` when the
    two games differ (`deterministic`: true or false; null with `once`, which plays one
    game, or when the first failed). `progress`: say what is checked (None: where someone
    watches). Its `warned` lists the warnings (rule 1's shared module state, refused
    attempts); `strict`: any of them fails the check (failure `warnings`).

    The check's group (`checking=CheckSettings(...)`, or its fields as keywords):
    `turns` (None: the game's check length), `seed` (1), `max_overheats` (0.1), `once`,
    `strict`; and the confinement group (`confinement=Confinement(...)`, or `sandbox`,
    `cpu_limit`, `memory_mb`)."""
    asked = build(CheckSettings, options, checking)
    held = build(Confinement, options, confinement)
    no_more("check", options)
    turns, seed, max_overheats = asked.turns, asked.seed, asked.max_overheats
    sandbox = held.sandbox
    checks.check_strict(asked.strict)
    path = bot_file(bot, game)
    limits = checks.check_setup(path, game, held, seed=seed, turns=turns,
                                max_overheats=max_overheats)
    if _shows_progress(progress):
        _err.print(shown_text(f"checking {path} ({game}, seed {seed}, sandbox {sandbox})",
                              "dim"))
    return checks.check_bot(path, game, asked, sandbox=sandbox, limits=limits)


def scenario(file: str | Path, *, game: str = DEFAULT_GAME) -> dict:
    """Play a scenario file's scripted moves (`arena scenario`): the final state. `file`
    may name an example shipped with the game (`laser_fires_twice`)."""
    return scenarios.run_scenario_file(Path(file), game)


def batch(bots: Sequence[Bot], *, seeds: int = 100, first_seed: int | None = None,
          replays: bool = False, progress: bool | None = None,
          match: MatchSettings | None = None, execution: Execution | None = None,
          **options: Any) -> BatchResult:
    """The same line-up over `seeds` seeds from `first_seed`, in parallel (`arena batch`).
    `first_seed` None: the one this call drew before into `db` (the same call resumes), or
    one drawn from the OS (63 bits, unguessable by the bots).

    Every match goes into the SQLite file `db` (default runs/GAME.sqlite) as it
    finishes; the same call after an interruption plays only what is missing.
    `replays`: keep every match's replay, in replays/ beside the results file.

    Options: the match group's (as `play`'s) and the execution group's
    (`execution=Execution(...)`, or `workers`, `db`, `backend`, `address`).
    """
    settings, run = _run_groups("batch", options, match, execution)
    report, title = batches.batch(_files(bots, settings.game), settings, run, seeds=seeds,
                                  first_seed=first_seed, replays=replays,
                                  watch=_run_watch(progress))
    return BatchResult.from_dict(report, title)


def tournament(bots: Sequence[Bot], *, first_seed: int | None = None, replays: bool = False,
               progress: bool | None = None, match: MatchSettings | None = None,
               shape: TournamentFormat | None = None, execution: Execution | None = None,
               **options: Any) -> BatchResult:
    """Play a tournament and rate every bot by Elo and openskill (`arena tournament`).

    The shape group (`shape=TournamentFormat(...)`, or its fields as keywords): `format`,
    round-robin, ffa or combinations (of `size` bots), default the game's own; `games`,
    per pair, per group, or in all (ffa). Options: the match group's and the execution
    group's, as `batch` takes them. Resumes from `db` as `batch` does.
    """
    form = build(TournamentFormat, options, shape)
    settings, run = _run_groups("tournament", options, match, execution)
    report, title = batches.tournament(
        _files(bots, settings.game), settings, form, run, first_seed=first_seed,
        replays=replays, watch=_run_watch(progress))
    return BatchResult.from_dict(report, title)


def _run_groups(function: str, options: dict[str, Any], match: MatchSettings | None,
                execution: Execution | None) -> tuple[MatchSettings, Execution]:
    """A run's match and execution groups, from their whole values and the keywords of
    their fields (`db` may be a string); another keyword is a TypeError."""
    settings = build(MatchSettings, options, match)
    run = build(Execution, options, execution)
    no_more(function, options)
    return settings, dataclasses.replace(run, db=_path(run.db))


def _run_watch(progress: bool | None) -> batches.Watch:
    return views.run_bar if _shows_progress(progress) else batches.unwatched


def compare(new: Bot, old: Bot, *, against: Sequence[Bot] | None = None,
            seed: int | None = None, progress: bool | None = None,
            match: MatchSettings | None = None, bounds: CompareBounds | None = None,
            execution: Execution | None = None, **options: Any) -> CompareResult:
    """Is `new` better than `old`? Paired games until the sequential test decides
    (`arena compare`): verdict H1 (better by `elo1` or more), H0 (not better than `elo0`),
    identical (the same moves in 15 pairs) or undecided at `max_games`; `decided_by` and
    `exit_status` as `arena compare --json` gives them (docs/compare.md). `against`:
    opponents for games of more players (default: none for robotgame and cave; else the
    game's first three samples). Resumes from `db`. `max_games`: None sizes it to the
    game's cost (`comparisons.default_max_games`).

    The test's group (`bounds=CompareBounds(...)`, or its fields as keywords): `elo0`,
    `elo1`, `alpha`, `beta`, `model`, `max_games`. Options: the match group's and the
    execution group's, as `batch` takes them.
    """
    test = build(CompareBounds, options, bounds)
    settings, run = _run_groups("compare", options, match, execution)
    game = settings.game
    found = comparisons.start(
        bot_file(new, game), bot_file(old, game),
        [str(bot_file(b, game)) for b in against] if against else None, test, settings,
        run, seed=seed)
    shown = _shows_progress(progress)
    if shown:
        opponents = found.opponents
        _err.print(shown_text(f"compare {found.new.name} (new) with {found.old.name} (old) on "
                              f"{found.setup.game.name}" + (
                                  f", against {', '.join(b.name for b in opponents)}"
                                  if opponents else "")))
        cost = found.setup.game.competition.game_seconds
        _err.print(shown_text(views.compare_plan(len(found.planned), 2 * found.test.pairs,
                                                 found.workers, cost), "dim"))
    watch = views.compare_watch(len(found.planned), found.workers, cost) if shown else \
        comparisons.unwatched
    report = comparisons.finish(found, watch)
    return CompareResult.from_dict(report, found.new.name, found.old.name)


class ResultsStore:
    """A results file written by batch, tournament or compare (`arena results DB`)."""

    def __init__(self, path: str | Path) -> None:
        self.path = stored.results_file(path)

    def runs(self) -> list[RunInfo]:
        """Every run in the file, oldest first."""
        return [RunInfo(**run, data=run) for run in self.to_json()["runs"]]

    def run(self, run: str) -> BatchResult | CompareResult:
        """One run's table, by its id or a prefix of it (`arena results DB --run ID`): a
        batch's or tournament's standings, or a comparison's verdict on NEW against OLD."""
        store = stored.open_results(self.path)
        try:
            chosen = stored.chosen_run(store, run)
            report = stored.run_report(store, chosen)
        finally:
            store.close()
        if chosen["kind"] == "compare":
            return CompareResult.from_dict(report, report["new_name"], report["old_name"])
        return BatchResult.from_dict(report, stored.run_title(chosen, report))

    def to_json(self) -> dict:
        """`arena results DB --json`."""
        store = stored.open_results(self.path)
        try:
            return {"db": str(self.path), "runs": store.runs()}
        finally:
            store.close()

    def to_pandas(self, run: str | None = None):
        """Every participant of every match (or of one run), one row each: the columns of
        `arena results DB --export csv`."""
        from orchestrator.api.types import pandas_module

        store = stored.open_results(self.path)
        try:
            chosen = stored.chosen_run(store, run)["id"] if run else None
            columns, rows = stored.export_rows(store, chosen)
        finally:
            store.close()
        return pandas_module().DataFrame(rows, columns=columns)

    def matrix(self, run: str | None = None, *, bot: str | None = None, by: str | None = None,
               map: str | None = None) -> Matchups:
        """Who beats whom, in one run or the whole file (`arena results DB --matrix`):
        `bot` keeps that bot's rows, `by` ("map" or "seat") splits each pair's games,
        `map` keeps that map's games. `.to_pandas()` gives the cells as a DataFrame."""
        store = stored.open_results(self.path)
        try:
            chosen = stored.chosen_run(store, run)["id"] if run else None
            return Matchups.from_dict(stored.matrix(store, chosen, bot=bot, by=by, map=map))
        finally:
            store.close()

    def games(self, bot: str | None = None, run: str | None = None, *, lost: bool = False,
              vs: str | None = None, map: str | None = None) -> list[dict]:
        """The games of `bot` (`arena results DB --games --bot NAME`), those it `lost`,
        against `vs`, on `map`: each with its match id, seed, map, opponents, result, score,
        the turn it was out, and the command that opens its replay. Without `bot`, every
        game once (`arena results DB --games`): its players by rank, result and score."""
        from orchestrator.service import matchups

        store = stored.open_results(self.path)
        try:
            chosen = stored.chosen_run(store, run)["id"] if run else None
            stored.check_results_options(matrix=False, games=True, by=None, bot=bot,
                                         html=None, lost=lost, vs=vs, map=map)
            return matchups.games(store, bot, chosen, lost=lost, vs=vs, map=map)["games"]
        finally:
            store.close()

    def replay(self, match: str, *, sandbox: str = "standard", cpu_limit: float | None = None,
               memory_mb: int | None = None) -> Replay:
        """The replay of a stored match, by its id or a prefix (`arena replay DB:ID`): the
        one the batch kept, else the match played again exactly from its record, in the
        `sandbox` mode (never the one the results file names) and within the game's limits
        changed by `cpu_limit`/`memory_mb` (a record with looser ones is refused)."""
        from orchestrator.service.stored_replay import replay_path

        return Replay.from_dict(replay.load(replay_path(
            self.path, match, sandbox=sandbox, cpu_limit=cpu_limit, memory_mb=memory_mb)))

    def _repr_html_(self) -> str:
        from orchestrator.api.types import html_table

        return html_table(self.to_json()["runs"], (
            ("run", lambda r: r["id"][:10]), ("kind", lambda r: r["kind"]),
            ("game", lambda r: r["game"]),
            ("matches", lambda r: f"{r['finished']}/{r['planned']}"),
            ("bots", lambda r: ", ".join(Path(b).name for b in r["args"].get("bots", [])))),
            caption=f"runs in {self.path}")

    def __repr__(self) -> str:
        return f"ResultsStore({str(self.path)!r})"


def publish(db: str | Path, out: str | Path, *, run: str | None = None, force: bool = False,
            sandbox: str = "standard", progress: bool | None = None,
            sources: Sequence[str | Path] = ()) -> dict:
    """Write one run of a results file as a static results site in the folder `out`
    (`arena publish DB --out DIR`): the standings, the matchup matrix, a page per AI and
    per match with its replay. `run`: its id or a prefix (default: the latest run). A
    folder `out` that holds anything is refused unless `force`. A match whose replay was
    not kept is played again from its record in the `sandbox` mode. The files the run's
    records name (bots, maps) are read only under the results file's folder and the
    folders `sources`. Returns what was written (`out`, the counts, `without_replay`:
    each match with no replay, and why)."""
    from orchestrator.service import publish as sites

    if _shows_progress(progress):
        with views.site_bar() as told:
            return sites.publish(db, out, run=run, force=force, told=told, sandbox=sandbox,
                                 sources=sources)
    return sites.publish(db, out, run=run, force=force, sandbox=sandbox, sources=sources)


def open_store(path: str | Path) -> ResultsStore:
    """Open a results file to read its runs (`arena results`)."""
    return ResultsStore(path)


def load_replay(path: str | Path) -> Replay:
    """Read a replay file (from `play(replay=...)`, `arena run --replay` or a batch's
    `replays=True`); in Jupyter it shows as the web viewer."""
    return Replay.from_dict(replay.load(Path(path)))


def _path(value: str | Path | None) -> Path | None:
    return Path(value) if value is not None else None

