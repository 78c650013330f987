"""Is NEW better than OLD (`arena compare`, `api.compare`): paired games until a sequential
test decides.

Two tests read the pairs side by side, and the first to decide decides: fishtest's GSPRT
(orchestrator/results/sprt.py), best near the bounds elo0 and elo1, and an anytime-valid test of
the mean score (orchestrator/results/betting.py), which ends a rout in a few pairs; each spends
its share of alpha and beta (betting.split). A third verdict needs no statistics: when
NEW and OLD have played the same moves in every game of the first `IDENTICAL_PAIRS`
pairs, they are "identical". Pair k is two games on seed first+k: NEW and OLD with the
seats swapped (two-player games), or NEW, then OLD, in one seat among the same opponents;
in a two-player game with opponents (a pool), NEW against one of them, then OLD against
it in the same seat, the pair scored by NEW's points less OLD's, and the tests decide
only at the end of a round (every opponent met in both seats: docs/compare.md).
The tests read the pairs in schedule order, one at a time,
and only a prefix of finished pairs: its verdict depends on the games' outcomes alone,
never on which worker finished first. Pairs still running when it decides are finished
and recorded, and do not count. Every game goes into the store, so the same call after
Ctrl-C replays the recorded prefix and plays on from there.
"""
from __future__ import annotations

import math
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    List,
    Mapping,
    NotRequired,
    Optional,
    Sequence,
    TypedDict,
)

from engine import InputError
from engine.lazy import lazy_import
from orchestrator import arguments
from orchestrator.faults import InternalError
from orchestrator.games import GAMES, get_game
from orchestrator.options import CompareBounds, Execution, MatchSettings
from orchestrator.results import betting, sprt
from orchestrator.results.store import Store, StoredMatch, StoredRun, WriteFailed, digest
from orchestrator.runner import execute
from orchestrator.runner.bots import BotFile, read_bot
from orchestrator.runner.match import record_of
from orchestrator.runner.schedule import Planned, Setup, plan_compare
from orchestrator.runner.series import Series
from orchestrator.service.batch import failed, first_seed_for, stopped_by_fault, stopped_writing
from orchestrator.service.setup import results_path, run_setup, sandbox_shown, workers_for
from orchestrator.service.values import Interrupted, check_choice

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike
else:
    np = lazy_import("numpy")        # loaded on first use: `arena` starts without it

OPPONENTS = 3                               # else: the game's first three samples
MAX_NELO = 200          # past about this, the normalized MLE's fixed point does not settle
# Pairs of the same moves that make "identical": had NEW and OLD played differently on a
# fifth of the seeds, 15 pairs all alike would happen 3.5 % of the time (0.8^15).
IDENTICAL_PAIRS = 15
ELO_END = 800           # past this, an Elo estimate is shown as a bound
# The default --max-games: what one worker plays in about BUDGET_S seconds of the game's
# games (its entry's `game_seconds`), in a round even number, from MIN_GAMES to MAX_GAMES
# (20,000 Robot Games, 3,600 arena games: at 6 s an arena game, 20,000 was 17 hours of
# two workers without a word).
BUDGET_S = 2 * 3600
MIN_GAMES, MAX_GAMES = 200, 20_000
# `arena compare`'s exit status for each verdict, and what it means (2 is a usage error).
EXIT = {"H1": (0, "H1: NEW is better"), "H0": (1, "H0: NEW is not better"),
        "undecided": (3, "undecided: --max-games ran out first"),
        "identical": (4, "identical: NEW and OLD played the same moves")}


class TestReport(TypedDict):
    """What the sequential tests found (`_report`), as `arena compare --json` says it."""

    verdict: str                    # H1, H0, identical or undecided
    decided_by: str | None          # gsprt, betting or moves
    exit_status: int
    exit_meaning: str
    games: int                      # counted
    pairs: int
    alike_pairs: int                # leading pairs of the same moves
    elo: float
    elo_ci: list[float]
    nelo: float
    llr: float
    bounds: list[float]             # the GSPRT's
    log_wealth: list[float]         # the betting test's, against H0 and against H1
    wealth_bounds: list[float]
    elo_shown: str                  # the estimate in words
    counts: list[int]
    outcomes: str                   # what `counts` counts
    design: str                     # pool, head-to-head or seat
    round_pairs: int
    model: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    max_games: int
    uncounted: int                  # finished past the counted games
    skipped: int                    # already in the results file
    db: str


class CompareReport(TestReport):
    """A compare run's report (a stored run's table too): the test, and what it compared
    (NEW and OLD by path, the opponents of a pool or of seat tests)."""

    sandbox: str | None
    game: str
    new: str
    old: str
    against: list[str]


class CompareRunReport(CompareReport):
    """`arena compare --json`: a compare run's report, as it was played."""

    sandbox_note: NotRequired[str]  # why `match` played in the standard mode


@dataclass
class Test:
    """The sequential tests over pairs, fed in schedule order."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: str
    classes: int                            # 5: pentanomial (pairs of points), 3: pair won
    counts: np.ndarray = field(init=False)
    llr: float = 0.0
    wealth: tuple[float, float] = (0.0, 0.0)   # log-wealth against H0, against H1
    round_pairs: int = 1                    # the tests decide only after a whole number
                                            # of these (a pool's round: each opponent in
                                            # each seat)
    alike: int = 0                          # leading pairs of the same moves
    verdict: str = ""                       # H1, H0, identical, or "" (go on)
    decided_by: str = ""                    # gsprt, betting or moves

    def __post_init__(self) -> None:
        self.counts = np.zeros(self.classes, dtype=int)

    @property
    def pairs(self) -> int:
        return int(self.counts.sum())

    @property
    def gsprt_alpha_beta(self) -> tuple[float, float]:
        """The GSPRT's share of alpha and beta."""
        return betting.split(self.alpha, self.beta)[:2]

    def add(self, outcome: int, same_moves: bool = False) -> None:
        """Count one pair: its class, and whether both its games had the same moves."""
        self.counts[outcome] += 1
        if same_moves and self.alike == self.pairs - 1:
            self.alike += 1
        self.llr = float(sprt.llr(self.counts, self.elo0, self.elo1, self.model))
        said = sprt.verdict(self.llr, *self.gsprt_alpha_beta)
        bet, up, down = betting.verdict(self.counts, self.elo0, self.elo1, self.alpha,
                                        self.beta, self.model)
        self.wealth = (up, down)
        if self.pairs % self.round_pairs:
            return                  # mid-round: the pool's mix is not whole yet
        if said:
            self.verdict, self.decided_by = said, "gsprt"
        elif bet:
            self.verdict, self.decided_by = bet, "betting"
        elif self.alike == self.pairs >= IDENTICAL_PAIRS:
            self.verdict, self.decided_by = "identical", "moves"


# What shows a comparison's progress: given its test, a context that yields the function
# called after each game counted.
Watch = Callable[[Test], AbstractContextManager[Callable[[], None]]]


def default_max_games(game: str) -> int:
    """--max-games when not given: sized to the game's cost (`BUDGET_S`)."""
    seconds = max(get_game(game).competition.game_seconds, 1e-3)
    games = BUDGET_S / seconds
    step = 10 ** max(0, len(str(int(games))) - 2)        # two significant figures
    return int(min(max(round(games / step) * step, MIN_GAMES), MAX_GAMES)) // 2 * 2


def unwatched(test: Test) -> AbstractContextManager[Callable[[], None]]:
    """No progress shown."""
    return nullcontext(lambda: None)


def _points(result: Mapping[str, Any], seat: int) -> float:
    """A two-player game's points for the bot in `seat`: 1, ½ or 0, by rank."""
    ranks = {p["seat"]: p["rank"] for p in result["players"]}
    mine, theirs = ranks[seat], ranks[1 - seat]
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def _finish(result: Mapping[str, Any], seat: int) -> tuple[Any, ...]:
    """How well the bot in `seat` finished: rank, then the game's score (higher first)."""
    player = next(p for p in result["players"] if p["seat"] == seat)
    score = (player.get("stats") or {}).get("score")
    return player["rank"], -score if isinstance(score, (int, float)) else 0


def same_moves(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    """Whether the pair's two games were played move for move alike (results stored
    before the digest existed have none: never alike)."""
    return bool(first.get("moves")) and first.get("moves") == second.get("moves")


def pair_outcome(first: Mapping[str, Any], second: Mapping[str, Any],
                 seat: int | None, pool: bool = False) -> int:
    """The pair's class: NEW's points x 2 (0..4) without opponents (NEW sat in seat 0,
    then 1); against a pool (a two-player game: NEW, then OLD, against one opponent in
    `seat`), 2 + 2 x (NEW's points - OLD's) (0..4: OLD won and NEW lost .. the reverse);
    with opponents in a game of more players (NEW, then OLD, in `seat`), 2 if NEW
    finished better, 1 as well, 0 worse."""
    if seat is None:
        return round(2 * (_points(first, 0) + _points(second, 1)))
    if pool:
        return round(2 + 2 * (_points(first, seat) - _points(second, seat)))
    new, old = _finish(first, seat), _finish(second, seat)
    return 2 if new < old else 1 if new == old else 0


@dataclass
class Comparison:
    """A comparison set up and resumed from its results file, before it plays on."""

    setup: Setup
    new: BotFile
    old: BotFile
    opponents: list[BotFile]
    test: Test
    planned: list[Planned]
    seats: list[int | None]
    pool: bool
    results: dict[str, Mapping[str, Any]]
    store: Store
    run_id: str
    skipped: int
    backend: str
    workers: int
    address: Optional[str]


def start(new: Path, old: Path, against: Optional[List[str]], bounds: CompareBounds,
          settings: MatchSettings, run: Execution, *, seed: int | None) -> Comparison:
    """Check the options, plan the pairs, and count the pairs the results file holds.
    `against`: the opponents' names, each item a name or names joined by commas."""
    elo0, elo1, alpha, beta = bounds.elo0, bounds.elo1, bounds.alpha, bounds.beta
    model, max_games, workers = bounds.model, bounds.max_games, run.workers
    if max_games is None:
        max_games = default_max_games(settings.game)
    check_choice(model, sprt.MODELS, "--model")
    arguments.check(alpha=alpha, beta=beta, elo0=elo0, elo1=elo1, max_games=max_games,
                    seed=seed, workers=workers)
    if seed is not None:
        arguments.check_span(seed, max_games // 2, "--seed")
    if not elo1 > elo0:
        raise InputError(f"--elo1 {elo1}: must be greater than --elo0 {elo0}")
    if model == "normalized" and max(abs(elo0), abs(elo1)) > MAX_NELO:
        raise InputError(f"--elo0/--elo1: at most {MAX_NELO} normalized Elo (a "
                         f"gap that wide is clear in a few games; use --model logistic for "
                         f"it)")
    setup = run_setup(settings)
    sandbox, db, backend = settings.sandbox, run.db, run.backend
    name = setup.game.name
    new_bot, old_bot = (read_bot(b, name) for b in (new, old))
    opponents = _opponents(name, against)
    pool = setup.game.players == 2 and bool(opponents)
    round_pairs = 2 * len(opponents) if pool else 1
    pairs = max_games // 2 // round_pairs * round_pairs
    if not pairs:
        raise InputError(f"--max-games {max_games}: {len(opponents)} opponents need at least "
                         f"{2 * round_pairs} games (each opponent met by NEW and by OLD in "
                         f"both seats)")
    args = {"bots": [b.path for b in (new_bot, old_bot, *opponents)], "max_games": max_games,
            "map": setup.map_path.name, "rules": setup.rules.as_dict(),
            "sandbox": sandbox, "test": [elo0, elo1, alpha, beta, model]}
    seed = first_seed_for("compare", results_path(db, setup.game), args, seed, max(pairs, 1))
    args["first_seed"] = seed
    planned = plan_compare(setup, new_bot, old_bot, opponents, pairs, seed)
    seats = seats_of(pairs, len(opponents), pool)
    test = Test(elo0, elo1, alpha, beta, model, 3 if opponents and not pool else 5,
                round_pairs=round_pairs)
    workers = workers_for(backend, workers)
    store = Store(results_path(db, setup.game))
    ids = [p.match_id for p in planned]
    run_id = digest({"kind": "compare", "matches": ids})
    try:
        store.add_run(run_id, "compare", name, args, ids)
    except WriteFailed as exc:
        raise stopped_writing(exc, store, run_id, len(planned), "games") from None
    results: dict[str, Mapping[str, Any]] = {m["id"]: m for m in store.iter_run_results(run_id)}
    skipped = len(results)
    _advance(test, planned, seats, results, pool)
    return Comparison(setup=setup, new=new_bot, old=old_bot, opponents=opponents, test=test,
                      planned=planned, seats=seats, pool=pool, results=results, store=store,
                      run_id=run_id, skipped=skipped, backend=backend, workers=workers,
                      address=run.address)


def finish(found: Comparison, watch: Watch = unwatched) -> CompareRunReport:
    """Play pairs until the test decides or `max_games`: the `arena compare --json`
    report. Closes the results file."""
    test, planned, store = found.test, found.planned, found.store
    pairs = len(found.seats)
    if not test.verdict and test.pairs < pairs:
        series = Series(planned, store.scratch(found.results))
        try:
            _play(series, test, planned, seats=found.seats, pool=found.pool,
                  results=found.results,
                  store=store, backend=found.backend, workers=found.workers,
                  address=found.address, watch=watch)
        except KeyboardInterrupt:
            saved = store.run_count(found.run_id)
            store.close()
            raise Interrupted(f"interrupted after {2 * test.pairs} counted games; {saved} "
                              f"games are saved in {store.path}; run the same command again "
                              f"to go on") from None
        except WriteFailed as exc:
            raise stopped_writing(exc, store, found.run_id, len(planned), "games"
                                  ) from None
        except InternalError as exc:
            raise stopped_by_fault(exc, store, found.run_id, len(planned), "games"
                                   ) from None
    tested = _report(test, planned, found.results, found.skipped, store.path, found.pool)
    sandbox = found.setup.sandbox
    note = sandbox_shown(sandbox, found.setup.game, [found.new, found.old, *found.opponents])[1]
    report: CompareRunReport = {
        **tested, "sandbox": sandbox, **note, "game": found.setup.game.name,
        "new": found.new.path, "old": found.old.path,
        "against": [b.path for b in found.opponents]}
    store.close()
    return report


def seats_of(pairs: int, opponents: int, pool: bool) -> list[int | None]:
    """NEW's seat in each pair: none (NEW against OLD, both seats), the pool's (seat k mod
    2, plan_compare), or the seat that turns among the opponents'."""
    if not opponents:
        return [None] * pairs
    return [k % 2 if pool else k % (opponents + 1) for k in range(pairs)]


def _opponents(game: str, against: Optional[List[str]]) -> list[BotFile]:
    found = get_game(game)
    names = [n.strip() for item in against or () for n in item.split(",") if n.strip()]
    if not names and found.competition.head_to_head:
        return []
    if not names:
        return [read_bot(p, game) for p in found.demo_lineup()[:OPPONENTS]]
    return [read_bot(n, game) for n in names]


def _advance(test: Test, planned: Sequence[Planned | _Stored], seats: list[int | None],
             results: dict[str, Mapping[str, Any]], pool: bool) -> None:
    """Count the finished pairs that follow the counted ones, in order, until the test
    decides or a pair is not finished."""
    while not test.verdict and 2 * test.pairs + 1 < len(planned):
        k = test.pairs
        first, second = planned[2 * k].match_id, planned[2 * k + 1].match_id
        if first not in results or second not in results:
            return
        test.add(pair_outcome(results[first], results[second], seats[k], pool),
                 same_moves(results[first], results[second]))


def _play(series: Series, test: Test, planned: list[Planned], seats: list[int | None],
          pool: bool, results: dict[str, Mapping[str, Any]], store: Store, backend: str,
          workers: int, address: Optional[str], watch: Watch) -> None:
    fault: InternalError | None = None
    with watch(test) as update:
        capacity = workers if backend == "dask" else None
        for item, outcome in execute.run(series, backend, workers, address,
                                         capacity=capacity):
            if (found := failed(item, outcome, "game")) is not None:
                fault = fault or found            # as a batch's (service/batch.py, _play)
                series.waiting.clear()
                continue
            store.add_match(item.match_id, outcome["result"], outcome["wall_s"],
                            record_of(item.spec))
            results[item.match_id] = outcome["result"]
            if not test.verdict:
                _advance(test, planned, seats, results, pool)
                update()
                if test.verdict:
                    series.waiting.clear()            # the games in flight finish, uncounted
    if fault is not None:
        raise fault


def _report(test: Test, planned: Sequence[Planned | _Stored], results: dict[str, Mapping[str, Any]],
            skipped: int, db: Path, pool: bool) -> TestReport:
    found = sprt.estimate(test.counts)
    counted = 2 * test.pairs
    finished = {p.ordinal for p in planned if p.match_id in results}
    verdict = test.verdict or "undecided"
    _, _, bet_alpha, bet_beta = betting.split(test.alpha, test.beta)
    return {
        "verdict": verdict, "decided_by": test.decided_by or None,
        "exit_status": EXIT[verdict][0], "exit_meaning": EXIT[verdict][1],
        "games": counted, "pairs": test.pairs, "alike_pairs": test.alike,
        "elo": _round(found["elo"], 2), "elo_ci": [_round(x, 2) for x in found["elo_ci"]],
        "nelo": _round(found["nelo"], 2), "llr": round(test.llr, 4),
        "bounds": [round(b, 4) for b in sprt.bounds(*test.gsprt_alpha_beta)],
        "log_wealth": [round(w, 4) for w in test.wealth],
        "wealth_bounds": [round(math.log(1 / bet_alpha), 4), round(math.log(1 / bet_beta), 4)],
        "elo_shown": elo_shown(test.counts, found),
        "counts": test.counts.tolist(),
        "outcomes": ("NEW's points less OLD's against the pool (pentanomial)" if pool
                     else "pentanomial" if test.classes == 5 else "pair won (trinomial)"),
        "design": ("pool" if pool else "head-to-head" if test.classes == 5 else "seat"),
        "round_pairs": test.round_pairs,
        "model": test.model, "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha,
        "beta": test.beta, "max_games": len(planned),
        "uncounted": sum(1 for o in finished if o >= counted), "skipped": skipped,
        "db": str(db),
    }


@dataclass(frozen=True)
class _Stored:
    """A planned game as a stored run knows it: its place and id."""

    ordinal: int
    match_id: str


def stored_report(run: StoredRun, matches: list[StoredMatch], db: Path) -> CompareReport:
    """A compare run read back from its results file (`arena results DB --run ID`): the
    test replayed over the stored pairs in schedule order, as the run counted them, in
    the `arena compare --json` shape (NEW and OLD by path, as the run's args name them)."""
    _check_stored(run, db)
    new, old, *against = run["args"]["bots"]
    elo0, elo1, alpha, beta, model = run["args"]["test"][:5]
    found = GAMES.get(run["game"])
    pool = found is not None and found.players == 2 and bool(against)
    test = Test(elo0, elo1, alpha, beta, model, 3 if against and not pool else 5,
                round_pairs=2 * len(against) if pool else 1)
    ids = {m["ordinal"]: m["id"] for m in matches}
    planned = [_Stored(i, ids.get(i, f"unplayed-{i}")) for i in range(run["planned"])]
    pairs = run["planned"] // 2
    seats = seats_of(pairs, len(against), pool)
    results: dict[str, Mapping[str, Any]] = {m["id"]: m for m in matches}
    _advance(test, planned, seats, results, pool)
    tested = _report(test, planned, results, 0, db, pool)
    return CompareReport(**tested, game=run["game"], new=new, old=old, against=against,
                         sandbox=run["args"].get("sandbox"))


def _check_stored(run: StoredRun, db: Path) -> None:
    """A stored compare run's arguments, each as `arena compare` allows it (a results
    file may come from anyone: a forged planned count of 10^12 was a list of as many)."""
    args, fits = run["args"], arguments.ARGUMENTS
    bots, test = args.get("bots"), args.get("test")
    sound = (isinstance(bots, list) and 2 <= len(bots) <= 64
             and all(isinstance(b, str) for b in bots)
             and isinstance(test, list) and len(test) >= 5
             and all(fits[name].fits(value) for name, value in
                     zip(("elo0", "elo1", "alpha", "beta"), test, strict=False))
             and test[0] < test[1] and test[4] in sprt.MODELS
             and fits["max_games"].fits(run["planned"]))
    if not sound:
        raise InputError(f"{db}: the compare run {run['id'][:24]!r} is not one arena writes "
                         f"(its bots, test or planned games are not what `arena compare` "
                         f"allows)")


def _round(x: float, digits: int) -> float:
    return round(x, digits) + 0.0                   # never -0.0


def elo_shown(counts: "ArrayLike", found: dict[str, Any]) -> str:
    """The Elo estimate in words: the figure and its 95 % interval; or, when the
    interval reaches past +-ELO_END (every pair won or lost, nearly), a bound from the
    mean score's confidence sequence (the pairs' variance is no guide there)."""
    if not int(np.sum(counts)):
        return "no pair counted yet"
    low, high = (_round(x, 1) for x in found["elo_ci"])
    one_kind = np.count_nonzero(counts) == 1     # no spread seen: the variance says nothing
    if -ELO_END < low and high < ELO_END and not one_kind:
        return (f"{_round(found['elo'], 1):+.1f} Elo (95 % interval {low:+.1f} to "
                f"{high:+.1f}); {_round(found['nelo'], 1):+.1f} nElo")
    bottom, top = (float(sprt.elo_of(m)) for m in betting.mean_interval(counts))
    if bottom > -ELO_END and top < ELO_END:
        return (f"{_round(found['elo'], 1):+.1f} Elo (95 % interval {bottom:+.0f} to "
                f"{top:+.0f}, every pair scored the same so far)")
    if found["elo"] > 0:
        return f"more than {min(bottom, ELO_END):+.0f} Elo (95 % sure; no upper bound yet)"
    return f"less than {max(top, -ELO_END):+.0f} Elo (95 % sure; no lower bound yet)"
