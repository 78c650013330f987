"""`arena compare NEW OLD`: paired games until a sequential test says whether NEW is better.

The test is fishtest's GSPRT (orchestrator/sprt.py). Pair k is two games on seed
first+k: NEW and OLD with the seats swapped (two-player games), or NEW, then OLD, in one
seat among the same opponents. The test reads the pairs in schedule order, one at a time,
and only a prefix of finished pairs: its verdict depends on the games' outcomes alone,
never on which worker finished first. Pairs still running when it decides are finished
and recorded, and do not count. Every game goes into the store, so the same command
after Ctrl-C replays the recorded prefix and plays on from there.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from engine import InputError
from engine.lazy import lazy_import
from orchestrator import execute, sprt
from orchestrator.batch_cmd import (
    AddressOption,
    BackendOption,
    DbOption,
    WorkersOption,
)
from orchestrator.bots import BotFile, read_bot
from orchestrator.games import DEFAULT_GAME, get_game
from orchestrator.options import (
    CpuOption,
    GameOption,
    JsonOption,
    MapOption,
    MaxTurnsOption,
    MemoryOption,
    RobotsOption,
    RulesOption,
    SandboxOption,
)
from orchestrator.schedule import Planned
from orchestrator.series import Series
from orchestrator.store import Store
from orchestrator.text import shown_text

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")        # loaded on first use: `arena` starts without it

err = Console(stderr=True)
out = Console()
OPPONENTS = 3                               # else: the game's first three samples
MAX_NELO = 200          # past about this, the normalized MLE's fixed point does not settle


@dataclass
class Test:
    """The SPRT over pairs, fed in schedule order."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: str
    classes: int                            # 5: pentanomial (pairs of points), 3: pair won
    counts: np.ndarray = field(init=False)
    llr: float = 0.0
    verdict: str = ""

    def __post_init__(self) -> None:
        self.counts = np.zeros(self.classes, dtype=int)

    @property
    def pairs(self) -> int:
        return int(self.counts.sum())

    def add(self, outcome: int) -> None:
        self.counts[outcome] += 1
        self.llr = float(sprt.llr(self.counts, self.elo0, self.elo1, self.model))
        self.verdict = sprt.verdict(self.llr, self.alpha, self.beta)


def _points(result: dict, seat: int) -> float:
    """A two-player game's points for the bot in `seat`: 1, ½ or 0, by rank."""
    ranks = {p["seat"]: p["rank"] for p in result["players"]}
    mine, theirs = ranks[seat], ranks[1 - seat]
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def _finish(result: dict, seat: int) -> tuple:
    """How well the bot in `seat` finished: rank, then the game's score (higher first)."""
    player = next(p for p in result["players"] if p["seat"] == seat)
    score = (player.get("stats") or {}).get("score")
    return player["rank"], -score if isinstance(score, (int, float)) else 0


def pair_outcome(first: dict, second: dict, seat: int | None) -> int:
    """The pair's class: NEW's points x 2 (0..4) without opponents (NEW sat in seat 0,
    then 1); with them (NEW, then OLD, in `seat`), 2 if NEW finished better, 1 as well, 0
    worse."""
    if seat is None:
        return round(2 * (_points(first, 0) + _points(second, 1)))
    new, old = _finish(first, seat), _finish(second, seat)
    return 2 if new < old else 1 if new == old else 0


def compare(
    new: Path = typer.Argument(..., help="The new version: a bot file, or a sample's name.",
                               show_default=False),
    old: Path = typer.Argument(..., help="The version to beat: a bot file, or a sample's name.",
                               show_default=False),
    game: GameOption = DEFAULT_GAME,
    against: Optional[List[str]] = typer.Option(
        None, "--against", help="Opponents for games of more players, comma-separated or "
        "repeated: each pair seats NEW, then OLD, in one seat among them \\[default: none "
        "for robotgame and cave (NEW against OLD, seats swapped); else the game's first "
        "three samples].", show_default=False),
    elo0: float = typer.Option(0.0, help="H0: NEW is not better than this (Elo)."),
    elo1: float = typer.Option(10.0, help="H1: NEW is better by at least this (Elo). The "
                               "closer to elo0, the more games the test needs."),
    alpha: float = typer.Option(0.05, help="The chance of accepting H1 when NEW is only "
                                "elo0 better (a false 'better')."),
    beta: float = typer.Option(0.05, help="The chance of accepting H0 when NEW is elo1 "
                               "better (a missed improvement)."),
    model: str = typer.Option("normalized", help="normalized: elo0 and elo1 are normalized "
                              "Elo, whatever the draw rate (fishtest's default). logistic: "
                              "the usual Elo."),
    max_games: int = typer.Option(20000, help="Stop undecided after this many games."),
    seed: int = typer.Option(1, "--seed", help="Pair k plays on seed SEED+k."),
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
    as_json: JsonOption = False,
) -> None:
    """Is NEW better than OLD? Play pairs of games until a sequential test decides.

    The verdict is H1 (NEW is better by elo1 or more), H0 (NEW is not better than elo0), or undecided at --max-games. Wrong verdicts are rare: at most alpha and beta of the time.

    Each pair plays the same seed twice (the seats swapped, or NEW then OLD in one seat), so the luck of the seed cancels and fewer games decide. Games already running when the test decides are finished and recorded but not counted; the same command after Ctrl-C plays on from the results file and reaches the same verdict. See docs/compare.md.

    Examples:

      arena compare my_bot_v2.py my_bot_v1.py --game robotgame

      arena compare v2.py v1.py --game arena --against hunter,beeline,turtle --elo1 20

      arena compare v2.py v1.py --game robotgame --model logistic --elo0 -5 --elo1 5 --json
    """
    from orchestrator import api

    found = api.compare(new, old, game=game, against=against, elo0=elo0, elo1=elo1,
                        alpha=alpha, beta=beta, model=model, max_games=max_games, seed=seed,
                        map=map, rules=rules, robots=robots, max_turns=max_turns,
                        sandbox=sandbox, cpu_limit=cpu_limit, memory_mb=memory_mb,
                        workers=workers, db=db, backend=backend, address=address,
                        progress=not as_json)
    if as_json:
        print(json.dumps(found.to_json()))
    else:
        _print_report(found.to_json(), found.new_name, found.old_name)


def _opponents(game: str, against: Optional[List[str]]) -> list[BotFile]:
    found = get_game(game)
    names = [n.strip() for item in against or () for n in item.split(",") if n.strip()]
    if found.players == 2 and names:
        raise InputError(f"--against: {found.called or found.title} is for 2 players "
                         f"(NEW against OLD)")
    if not names and found.head_to_head:
        return []
    if not names:
        return [read_bot(p, game) for p in found.demo_lineup()[:OPPONENTS]]
    return [read_bot(n, game) for n in names]


def _advance(test: Test, planned: list[Planned], seats: list[int | None],
             results: dict[str, dict]) -> None:
    """Count the finished pairs that follow the counted ones, in order, until the test
    decides or a pair is not finished."""
    while not test.verdict and 2 * test.pairs + 1 < len(planned):
        k = test.pairs
        first, second = planned[2 * k].match_id, planned[2 * k + 1].match_id
        if first not in results or second not in results:
            return
        test.add(pair_outcome(results[first], results[second], seats[k]))


def _play(series: Series, test: Test, planned: list[Planned], seats: list[int | None],
          results: dict[str, dict], store: Store, backend: str, workers: int,
          address: Optional[str], quiet: bool) -> None:
    lower, upper = sprt.bounds(test.alpha, test.beta)
    progress = Progress(TextColumn("LLR {task.fields[llr]:+.2f}"), TextColumn(f"{lower:.2f}"),
                        BarColumn(), TextColumn(f"{upper:.2f}"),
                        TextColumn("{task.fields[games]} games"),
                        TextColumn("Elo {task.fields[elo]}"), TimeElapsedColumn(),
                        console=err, disable=quiet, transient=True)

    def fields() -> dict:
        found = sprt.estimate(test.counts)
        low, high = found["elo_ci"]
        elo = f"{found['elo']:+.1f} ({low:+.0f}, {high:+.0f})" if test.pairs else "-"
        return {"completed": min(max(test.llr, lower), upper) - lower, "llr": test.llr,
                "games": 2 * test.pairs, "elo": elo}

    task = progress.add_task("compare", total=upper - lower, **fields())
    with progress:
        capacity = workers if backend == "dask" else None
        for item, outcome in execute.run(series, backend, workers, address,
                                         capacity=capacity):
            if "error" in outcome:
                raise InputError(f"game with seed {item.spec['seed']}: {outcome['error']}")
            store.add_match(item.match_id, outcome["result"], outcome["wall_s"])
            results[item.match_id] = outcome["result"]
            if not test.verdict:
                _advance(test, planned, seats, results)
                progress.update(task, **fields())
                if test.verdict:
                    series.waiting.clear()            # the games in flight finish, uncounted


def _report(test: Test, planned: list[Planned], results: dict[str, dict], skipped: int,
            db: Path) -> dict:
    found = sprt.estimate(test.counts)
    counted = 2 * test.pairs
    finished = {p.ordinal for p in planned if p.match_id in results}
    return {
        "verdict": test.verdict or "undecided", "games": counted, "pairs": test.pairs,
        "elo": round(found["elo"], 2), "elo_ci": [round(x, 2) for x in found["elo_ci"]],
        "nelo": round(found["nelo"], 2), "llr": round(test.llr, 4),
        "bounds": [round(b, 4) for b in sprt.bounds(test.alpha, test.beta)],
        "counts": test.counts.tolist(),
        "outcomes": "pentanomial" if test.classes == 5 else "pair won (trinomial)",
        "model": test.model, "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha,
        "beta": test.beta, "max_games": len(planned),
        "uncounted": sum(1 for o in finished if o >= counted), "skipped": skipped,
        "db": str(db),
    }


def _print_report(report: dict, new: str, old: str) -> None:
    verdict = report["verdict"]
    unit = "nElo" if report["model"] == "normalized" else "Elo"
    said = {"H1": f"{new} is better than {old} by at least {report['elo1']:g} "
                  f"{unit} (H1 accepted)",
            "H0": f"{new} is not better than {old} by more than "
                  f"{report['elo0']:g} {unit} (H0 accepted)",
            "undecided": f"undecided after {report['games']} games (--max-games)"}[verdict]
    out.print(shown_text(said, style="bold"))
    table = Table(show_header=False, box=None)
    low, high = report["elo_ci"]
    table.add_row("Elo", f"{report['elo']:+.1f}  (95 % interval {low:+.1f} to {high:+.1f}); "
                         f"normalized {report['nelo']:+.1f}")
    table.add_row("LLR", f"{report['llr']:+.3f}  (bounds {report['bounds'][0]:+.3f}, "
                         f"{report['bounds'][1]:+.3f}; {report['model']} "
                         f"elo0 {report['elo0']:g}, elo1 {report['elo1']:g}, alpha "
                         f"{report['alpha']:g}, beta {report['beta']:g})")
    table.add_row("games", f"{report['games']} counted in {report['pairs']} pairs; "
                           f"{report['uncounted']} more played past the verdict, not counted")
    names = ("0", "½", "1", "1½", "2") if len(report["counts"]) == 5 else (
        "worse", "as well", "better")
    label = "pair points" if len(report["counts"]) == 5 else "new finished"
    table.add_row(label, ", ".join(f"{n}: {c}" for n, c in zip(names, report["counts"],
                                                               strict=True)))
    table.add_row("results", shown_text(report["db"]))
    if report.get("sandbox"):
        table.add_row("sandbox", report["sandbox"])
    out.print(table)
    if math.isinf(high):
        out.print("[dim]no pair counted yet[/dim]")
