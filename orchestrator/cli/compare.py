"""`arena compare NEW OLD`: paired games until a sequential test says whether NEW is better
(the work, and how the test reads the pairs: orchestrator/service/compare.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from orchestrator import api
from orchestrator.cli.batch import (
    AddressOption,
    BackendOption,
    DbOption,
    WorkersOption,
)
from orchestrator.cli.options import (
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
from orchestrator.games import DEFAULT_GAME
from orchestrator.games.help import names
from orchestrator.views.compare import print_report


def compare(
    new: Path = typer.Argument(..., help="The new version: a bot file, or a sample's name.",
                               show_default=False),
    old: Path = typer.Argument(..., help="The version to beat: a bot file, or a sample's name.",
                               show_default=False),
    game: GameOption = DEFAULT_GAME,
    against: Optional[List[str]] = typer.Option(
        None, "--against", help="Opponents, comma-separated or repeated: each pair seats "
        "NEW, then OLD, in one seat among them on one seed; in a two-player game, NEW, then "
        "OLD, against one of them in the same seat, each opponent in both seats in turn "
        "\\[default: none "
        f"for {names(lambda game: game.competition.head_to_head)} (NEW against OLD, seats "
        "swapped); else the game's first three samples].", show_default=False),
    elo0: float = typer.Option(0.0, help="H0: NEW is not better than this, in normalized "
                               "Elo (nElo; see --model), or in Elo with --model logistic."),
    elo1: float = typer.Option(10.0, help="H1: NEW is better by at least this (nElo, or Elo "
                               "with --model logistic). The closer to elo0, the more games "
                               "the test needs near the bounds; a wide gap between the bots "
                               "ends in a few pairs whatever the bounds."),
    alpha: float = typer.Option(0.05, help="The chance of accepting H1 when NEW is only "
                                "elo0 better (a false 'better')."),
    beta: float = typer.Option(0.05, help="The chance of accepting H0 when NEW is elo1 "
                               "better (a missed improvement)."),
    model: str = typer.Option("normalized", help="normalized: elo0 and elo1 are normalized "
                              "Elo (nElo: the mean score's distance from 1/2 in standard "
                              "deviations of a game's score, times 800/ln 10), whatever the "
                              "draw rate (fishtest's default). logistic: the usual Elo."),
    max_games: Optional[int] = typer.Option(
        None, help="Stop undecided after this many games \\[default: sized to the game: what "
        "one worker plays in about 2 hours of its games, from 200 to 20,000; the number, and "
        "the time it may take, are shown before the first game].", show_default=False),
    seed: Optional[int] = typer.Option(None, "--seed", help="Pair k plays on seed SEED+k. \\[default: drawn from the OS (63 bits), or the one the same command drew before in the same --db]", show_default=False),
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

    The verdict is H1 (NEW is better by elo1 or more), H0 (NEW is not better than elo0), identical (NEW and OLD played every game of the first 15 pairs move for move alike), or undecided at --max-games. Wrong verdicts are rare: at most alpha and beta of the time. Two tests run side by side (fishtest's GSPRT and an anytime-valid betting test of the mean score), so a wide gap ends in a dozen pairs.

    Exit status: 0 H1, 1 H0, 3 undecided, 4 identical, 2 bad options or files, 130 interrupted.

    Each pair plays the same seed twice (the seats swapped, or NEW then OLD in one seat), so the luck of the seed cancels and fewer games decide. Games already running when the test decides are finished and recorded but not counted; the same command after Ctrl-C plays on from the results file and reaches the same verdict. See docs/compare.md.

    Examples:

      arena compare my_bot_v2.py my_bot_v1.py --game robotgame

      arena compare v2.py v1.py --game arena \\
          --against hunter,beeline,turtle --elo1 20

      arena compare v2.py v1.py --game robotgame \\
          --model logistic --elo0 -5 --elo1 5 --json
    """
    found = api.compare(new, old, game=game, against=against, elo0=elo0, elo1=elo1,
                        alpha=alpha, beta=beta, model=model, max_games=max_games, seed=seed,
                        map=map, rules=rules, robots=robots, max_turns=max_turns,
                        sandbox=sandbox, cpu_limit=cpu_limit, memory_mb=memory_mb,
                        workers=workers, db=db, backend=backend, address=address,
                        progress=not as_json)
    report = found.to_json()
    if as_json:
        print(json.dumps(report))
    else:
        print_report(report, found.new_name, found.old_name)
    if report["exit_status"]:
        raise typer.Exit(report["exit_status"])
