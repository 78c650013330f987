"""`arena compare NEW OLD`: paired games until a sequential test says whether NEW is better
(the work, and how the test reads the pairs: orchestrator/service/compare.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from orchestrator import api
from orchestrator.cli.options import JsonOption, grouped
from orchestrator.games.help import names
from orchestrator.options import CompareBounds, Execution, MatchSettings
from orchestrator.views.compare import print_report


@grouped
def compare(
    new: Path = typer.Argument(..., help="The new version: a bot file, or a sample's name.",
                               show_default=False),
    old: Path = typer.Argument(..., help="The version to beat: a bot file, or a sample's name.",
                               show_default=False),
    against: Optional[List[str]] = typer.Option(
        None, "--against", help="Opponents, comma-separated or repeated: each pair seats "
        "NEW, then OLD, in one seat among them on one seed; in a two-player game, NEW, then "
        "OLD, against one of them in the same seat, each opponent in both seats in turn "
        "\\[default: none "
        f"for {names(lambda game: game.competition.head_to_head)} (NEW against OLD, seats "
        "swapped); else the game's first three samples].", show_default=False),
    bounds: CompareBounds = CompareBounds(),
    seed: Optional[int] = typer.Option(None, "--seed", help="Pair k plays on seed SEED+k. \\[default: drawn from the OS (63 bits), or the one the same command drew before in the same --db]", show_default=False),
    match: MatchSettings = MatchSettings(),
    execution: Execution = Execution(),
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
    found = api.compare(new, old, against=against, seed=seed, match=match, bounds=bounds,
                        execution=execution, progress=not as_json)
    report = found.to_json()
    if as_json:
        print(json.dumps(report))
    else:
        print_report(report, found.new_name, found.old_name)
    if report["exit_status"]:
        raise typer.Exit(report["exit_status"])
