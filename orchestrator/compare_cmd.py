"""`arena compare NEW OLD`: paired games until a sequential test says whether NEW is better
(the work, and how the test reads the pairs: orchestrator/service/compare.py)."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from orchestrator import api
from orchestrator.batch_cmd import (
    AddressOption,
    BackendOption,
    DbOption,
    WorkersOption,
)
from orchestrator.games import DEFAULT_GAME
from orchestrator.games.help import names
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
from orchestrator.text import shown_text

out = Console()


def compare(
    new: Path = typer.Argument(..., help="The new version: a bot file, or a sample's name.",
                               show_default=False),
    old: Path = typer.Argument(..., help="The version to beat: a bot file, or a sample's name.",
                               show_default=False),
    game: GameOption = DEFAULT_GAME,
    against: Optional[List[str]] = typer.Option(
        None, "--against", help="Opponents for games of more players, comma-separated or "
        "repeated: each pair seats NEW, then OLD, in one seat among them \\[default: none "
        f"for {names(lambda game: game.competition.head_to_head)} (NEW against OLD, seats "
        "swapped); else the game's first three samples].", show_default=False),
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


def print_record(report: dict, new: str, old: str) -> None:
    """A comparison by bot (`arena results DB --run ID` of a compare run): NEW's pairs
    won, drawn and lost against OLD, then the verdict and the estimate."""
    from orchestrator.service.results import pair_record

    record = pair_record(report["counts"])
    out.print(shown_text(f"{new} against {old}: {record['won']} pairs won, "
                         f"{record['drawn']} drawn, {record['lost']} lost"))
    _print_report(report, new, old)


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
