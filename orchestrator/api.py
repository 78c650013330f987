"""The Python API: play, batch, tournament and compare from a script or a notebook.

    from orchestrator import api
    result = api.play(["hunter", "beeline"], seed=42, max_turns=100)
    result.winner, result.to_json()      # the same object as `arena run ... --json`
    result                               # in Jupyter: the replay viewer, inline

Every function takes the options of its command (docs/python-api.md), and the commands
call these functions, so the two cannot drift. A bot is a file's path, a bundled sample's
name (`arena bots`), or for a Python game a function or class defined by the caller,
which is written to a file and runs in the sandbox like any other bot. Bad input raises
InputError (the message the command prints after `error:`); Ctrl-C during a batch,
tournament or comparison stops every bot process and raises Interrupted, and the same
call resumes from the results file.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any, Callable, Sequence, Union

from engine import InputError
from orchestrator import batch_cmd, cellbots, compare_cmd, execute, replay, sprt
from orchestrator.api_types import (
    BatchResult,
    CompareResult,
    MatchResult,
    PlayerResult,
    Replay,
    RunInfo,
    Standing,
)
from orchestrator.bots import BotFile, read_bot
from orchestrator.games import DEFAULT_GAME, GAMES, Game, get_game
from orchestrator.match import match_fallback
from orchestrator.options import Interrupted, check_choice, game_limits, rule_overrides
from orchestrator.schedule import plan_batch, plan_compare, plan_tournament
from orchestrator.series import Series
from orchestrator.store import Store, WriteFailed, digest
from orchestrator.summary import by_file, by_seat, summarize
from orchestrator.text import console, plural, shown_text
from sandbox.modes import get_mode

Bot = Union[str, Path, Callable[..., Any], type]
"""A bot: a file's path, a bundled sample's name, or a function or class (Python games)."""

__all__ = ["play", "batch", "tournament", "compare", "open_store", "load_replay", "bot_file",
           "Bot", "MatchResult", "PlayerResult", "BatchResult", "Standing", "CompareResult",
           "Replay", "ResultsStore", "RunInfo", "InputError", "Interrupted", "GAMES"]

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


def play(bots: Sequence[Bot] | None = None, *, game: str = DEFAULT_GAME, map: str | None = None,
         seed: int | None = None, rules: str | None = None, robots: int | None = None,
         max_turns: int | None = None, random_spawn: bool = False,
         sandbox: str = "standard", cpu_limit: float | None = None,
         memory_mb: int | None = None, replay: str | Path | None = None,
         progress: bool | None = None, record: bool = True) -> MatchResult:
    """Play one match (`arena run`). No bots: the game's sample bots.

    `seed` None draws one (the result names it). `replay`: also save the replay file
    there. `record`: keep the replay in the result (`.replay`, shown inline in Jupyter);
    False saves the time of recording it. `progress`: a turn bar (None: where someone
    watches).
    """
    from orchestrator import cli

    found = get_game(game)
    overrides = rule_overrides(found, robots, max_turns, random_spawn)
    spec = cli._build_spec(_files(bots, found.name), found, map, seed, rules, overrides,
                           sandbox, game_limits(found, cpu_limit, memory_mb))
    shown = _shows_progress(progress)
    if shown:
        ais = plural(len(spec.bots), "AI")
        _err.print(shown_text(f"{spec.game}: {ais} on {spec.map_path.name}, "
                              f"seed {spec.seed}, sandbox {spec.sandbox}", "dim"))
    replays: list[dict] | None = [] if record or replay is not None else None
    result = MatchResult.from_dict(cli._play(spec, show_progress=shown, replays=replays),
                                   replays[0] if replays else None)
    if replay is not None:
        result.save_replay(replay)
    return result


def _sandbox_shown(sandbox: str, game: Game, bots: list[BotFile]) -> tuple[str, dict]:
    """A run's sandbox as its title names it, and its report's note: a mode that runs no
    executable bots (`match`) plays them in the standard mode, and says so."""
    note = match_fallback(game, bots) if not get_mode(sandbox).programs else None
    if note:
        return f"standard ({note.split(':')[0]}: --sandbox {sandbox} falls back)", \
            {"sandbox_note": note}
    return sandbox, {}


def batch(bots: Sequence[Bot], *, seeds: int = 100, first_seed: int = 1,
          game: str = DEFAULT_GAME, map: str | None = None, rules: str | None = None,
          robots: int | None = None, max_turns: int | None = None,
          random_spawn: bool = False, sandbox: str = "standard",
          cpu_limit: float | None = None, memory_mb: int | None = None,
          workers: int | None = None, db: str | Path | None = None,
          backend: str = "local", address: str | None = None, replays: bool = False,
          progress: bool | None = None) -> BatchResult:
    """The same line-up over `seeds` seeds from `first_seed`, in parallel (`arena batch`).

    Every match goes into the SQLite file `db` (default runs/GAME.sqlite) as it
    finishes; the same call after an interruption plays only what is missing.
    """
    if seeds < 1:
        raise InputError(f"--seeds {seeds}: must be at least 1")
    setup = batch_cmd._setup(game, map, rules, robots, max_turns, random_spawn, sandbox,
                             cpu_limit, memory_mb)
    lineup = [read_bot(p, setup.game.name)
              for p in setup.game.mirrored(_files(bots, setup.game.name))]
    planned = plan_batch(setup, lineup, list(range(first_seed, first_seed + seeds)))
    args = {"bots": [b.path for b in lineup], "seeds": seeds, "first_seed": first_seed,
            "map": setup.map_path.name, "rules": setup.rules.as_dict(), "sandbox": sandbox}
    store, run_id, skipped = batch_cmd._play_all(
        "batch", setup, planned, args, _path(db), workers, backend, address,
        not _shows_progress(progress), key=by_seat, replays=replays)
    summary = summarize(store.iter_run_results(run_id), by_seat)    # one match at a time
    count = store.run_count(run_id)
    shown, note = _sandbox_shown(sandbox, setup.game, lineup)
    report = {"game": setup.game.name, "matches": count, "skipped": skipped,
              "db": str(store.path), **summary, **note}
    store.close()
    return BatchResult.from_dict(report, f"batch: {count} matches of {setup.game.name} on "
                                         f"{setup.map_path.stem}, sandbox {shown} "
                                         f"({skipped} already in {store.path})")


def tournament(bots: Sequence[Bot], *, format: str | None = None, games: int | None = None,
               size: int | None = None, first_seed: int = 1, game: str = DEFAULT_GAME,
               map: str | None = None, rules: str | None = None, robots: int | None = None,
               max_turns: int | None = None, sandbox: str = "standard",
               cpu_limit: float | None = None, memory_mb: int | None = None,
               workers: int | None = None, db: str | Path | None = None,
               backend: str = "local", address: str | None = None, replays: bool = False,
               progress: bool | None = None) -> BatchResult:
    """Play a tournament and rate every bot by Elo and openskill (`arena tournament`).

    `format`: round-robin, ffa or combinations (of `size` bots); default the game's own.
    `games`: per pair, per group, or in all (ffa). Resumes from `db` as `batch` does.
    """
    setup = batch_cmd._setup(game, map, rules, robots, max_turns, False, sandbox, cpu_limit,
                             memory_mb)
    lineup = [read_bot(p, setup.game.name) for p in _files(bots, setup.game.name)]
    own_format, own_games, own_size = setup.game.tournament
    format = format or own_format
    games = games or own_games
    if size is None and own_size is not None and format == own_format:
        size = min(own_size, len(lineup))
    planned = plan_tournament(setup, lineup, format, games, first_seed, size)
    args = {"bots": [b.path for b in lineup], "format": format, "games": games, "size": size,
            "first_seed": first_seed, "map": setup.map_path.name,
            "rules": setup.rules.as_dict(), "sandbox": sandbox}
    store, run_id, skipped = batch_cmd._play_all(
        "tournament", setup, planned, args, _path(db), workers, backend, address,
        not _shows_progress(progress), key=by_file, replays=replays)
    report = batch_cmd.tournament_report(store.run_results(run_id), setup.game, format,
                                         skipped, store.path)
    shown, note = _sandbox_shown(sandbox, setup.game, lineup)
    report |= note
    store.close()
    return BatchResult.from_dict(report, f"tournament ({format}): {report['matches']} "
                                         f"matches of {setup.game.name}, sandbox {shown} "
                                         f"({skipped} already in {store.path})")


def compare(new: Bot, old: Bot, *, game: str = DEFAULT_GAME, against: Sequence[Bot] | None = None,
            elo0: float = 0.0, elo1: float = 10.0, alpha: float = 0.05, beta: float = 0.05,
            model: str = "normalized", max_games: int = 20000, seed: int = 1,
            map: str | None = None, rules: str | None = None, robots: int | None = None,
            max_turns: int | None = None, sandbox: str = "standard",
            cpu_limit: float | None = None, memory_mb: int | None = None,
            workers: int | None = None, db: str | Path | None = None,
            backend: str = "local", address: str | None = None,
            progress: bool | None = None) -> CompareResult:
    """Is `new` better than `old`? Paired games until the sequential test decides
    (`arena compare`): verdict H1 (better by `elo1` or more), H0 (not better than `elo0`)
    or undecided at `max_games`. `against`: opponents for games of more players (default:
    none for robotgame and cave; else the game's first three samples). Resumes from `db`.
    """
    check_choice(model, sprt.MODELS, "--model")
    for label, value in (("--alpha", alpha), ("--beta", beta)):
        if not 0 < value < 0.5:
            raise InputError(f"{label} {value}: must be between 0 and 0.5")
    if not elo1 > elo0:
        raise InputError(f"--elo1 {elo1}: must be greater than --elo0 {elo0}")
    if model == "normalized" and max(abs(elo0), abs(elo1)) > compare_cmd.MAX_NELO:
        raise InputError(f"--elo0/--elo1: at most {compare_cmd.MAX_NELO} normalized Elo (a "
                         f"gap that wide is clear in a few games; use --model logistic for "
                         f"it)")
    if max_games < 2:
        raise InputError(f"--max-games {max_games}: must be at least 2 (one pair)")
    setup = batch_cmd._setup(game, map, rules, robots, max_turns, False, sandbox, cpu_limit,
                             memory_mb)
    name = setup.game.name
    new_bot, old_bot = (read_bot(bot_file(b, name), name) for b in (new, old))
    opponents = compare_cmd._opponents(name, [str(bot_file(b, name)) for b in against]
                                       if against else None)
    pairs = max_games // 2
    planned = plan_compare(setup, new_bot, old_bot, opponents, pairs, seed)
    seats = [None if not opponents else k % (len(opponents) + 1) for k in range(pairs)]
    test = compare_cmd.Test(elo0, elo1, alpha, beta, model, 3 if opponents else 5)
    args = {"bots": [b.path for b in (new_bot, old_bot, *opponents)], "max_games": max_games,
            "first_seed": seed, "map": setup.map_path.name, "rules": setup.rules.as_dict(),
            "sandbox": sandbox, "test": [elo0, elo1, alpha, beta, model]}
    check_choice(backend, execute.BACKENDS, "--backend")
    workers = workers or execute.default_workers()
    if workers < 1:
        raise InputError(f"--workers {workers}: must be at least 1")
    store = Store(_path(db) or batch_cmd.RUNS_DIR / f"{name}.sqlite")
    ids = [p.match_id for p in planned]
    run_id = digest({"kind": "compare", "matches": ids})
    try:
        store.add_run(run_id, "compare", name, args, ids)
    except WriteFailed as exc:
        raise batch_cmd.stopped_writing(exc, store, run_id, len(planned), "games") from None
    results = {m["id"]: m for m in store.iter_run_results(run_id)}
    skipped = len(results)
    compare_cmd._advance(test, planned, seats, results)
    shown = _shows_progress(progress)
    if shown:
        _err.print(shown_text(f"compare {new_bot.name} (new) with {old_bot.name} (old) on "
                              f"{name}" + (f", against {', '.join(b.name for b in opponents)}"
                                           if opponents else "")))
    if not test.verdict and test.pairs < pairs:
        series = Series(planned, store.scratch(results))
        try:
            compare_cmd._play(series, test, planned, seats, results, store, backend, workers,
                              address, not shown)
        except KeyboardInterrupt:
            saved = store.run_count(run_id)
            store.close()
            raise Interrupted(f"interrupted after {2 * test.pairs} counted games; {saved} "
                              f"games are saved in {store.path}; run the same command again "
                              f"to go on") from None
        except WriteFailed as exc:
            raise batch_cmd.stopped_writing(exc, store, run_id, len(planned), "games"
                                            ) from None
    report = compare_cmd._report(test, planned, results, skipped, store.path)
    report["sandbox"] = sandbox
    report |= _sandbox_shown(sandbox, setup.game, [new_bot, old_bot, *opponents])[1]
    report |= {"game": name, "new": new_bot.path, "old": old_bot.path,
               "against": [b.path for b in opponents]}
    store.close()
    return CompareResult.from_dict(report, new_bot.name, old_bot.name)


class ResultsStore:
    """A results file written by batch, tournament or compare (`arena results DB`)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise InputError(f"{self.path}: results file not found")

    def runs(self) -> list[RunInfo]:
        """Every run in the file, oldest first."""
        return [RunInfo(**run, data=run) for run in self.to_json()["runs"]]

    def run(self, run: str) -> BatchResult:
        """One run's table, by its id or a prefix of it (`arena results DB --run ID`)."""
        store = Store(self.path)
        try:
            chosen = batch_cmd.chosen_run(store, run)
            report = batch_cmd.run_report(store, chosen)
        finally:
            store.close()
        return BatchResult.from_dict(report, f"{chosen['kind']} {chosen['id'][:10]}: "
                                             f"{report['matches']} of {chosen['planned']} "
                                             f"matches")

    def to_json(self) -> dict:
        """`arena results DB --json`."""
        store = Store(self.path)
        try:
            return {"db": str(self.path), "runs": store.runs()}
        finally:
            store.close()

    def to_pandas(self, run: str | None = None):
        """Every participant of every match (or of one run), one row each: the columns of
        `arena results DB --export csv`."""
        from orchestrator.api_types import pandas_module

        store = Store(self.path)
        try:
            chosen = batch_cmd.chosen_run(store, run)["id"] if run else None
            columns, rows = store.export_rows(chosen)
        finally:
            store.close()
        return pandas_module().DataFrame(rows, columns=columns)

    def _repr_html_(self) -> str:
        from orchestrator.api_types import html_table

        return html_table(self.to_json()["runs"], (
            ("run", lambda r: r["id"][:10]), ("kind", lambda r: r["kind"]),
            ("game", lambda r: r["game"]),
            ("matches", lambda r: f"{r['finished']}/{r['planned']}"),
            ("bots", lambda r: ", ".join(Path(b).name for b in r["args"].get("bots", [])))),
            caption=f"runs in {self.path}")

    def __repr__(self) -> str:
        return f"ResultsStore({str(self.path)!r})"


def open_store(path: str | Path) -> ResultsStore:
    """Open a results file to read its runs (`arena results`)."""
    return ResultsStore(path)


def load_replay(path: str | Path) -> Replay:
    """Read a replay file (from `play(replay=...)`, `arena run --replay` or a batch's
    `replays=True`); in Jupyter it shows as the web viewer."""
    return Replay.from_dict(replay.load(Path(path)))


def _path(value: str | Path | None) -> Path | None:
    return Path(value) if value is not None else None

