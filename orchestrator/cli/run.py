"""`arena run`: play one match and print the ranking, winner and runner-up."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List, Mapping, Optional

import typer
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from engine import InputError
from orchestrator import api, host_files
from orchestrator.cli.options import JsonOption, grouped
from orchestrator.games import get_game
from orchestrator.options import MatchSettings
from orchestrator.results import notes
from orchestrator.results import score as score_words
from orchestrator.results.match_result import MatchData
from orchestrator.runner.bots import read_bot, shared_name_warnings
from orchestrator.text import console, ended, plural, seconds, shown_text
from orchestrator.views import replay as replay_view
from orchestrator.views import turn_report
from orchestrator.views.replay import html_path
from sandbox.isolation import warning_once

# Where `--open` keeps a match's replay and page, in the working folder, without --replay.
DEFAULT_REPLAYS = Path("runs") / "replays"

err = console(stderr=True)
out = console()


@grouped
def run(
    bots: List[Path] = typer.Argument(None, help="Bot files, or bundled samples' names (see `arena bots`). None: the game's sample bots.",
                                      show_default=False),
    seed: Optional[int] = typer.Option(None, help="Match seed. Omitted: one is drawn and "
                                       "printed, so the match can be replayed."),
    match: MatchSettings = MatchSettings(),
    replay_file: Optional[Path] = typer.Option(None, "--replay", help="Save the match's "
                                               "replay here (gzip JSON; see docs/replay.md)."),
    open_viewer: bool = typer.Option(False, "--open", help="Also write the replay as a web "
                                     "page you can open in a browser, and say where."),
    start: Optional[Path] = typer.Option(None, "--from", help="Start from this position "
                                         "file (from `arena replay FILE --turn N "
                                         "--save-position pos.json`): its game, map, seed and "
                                         "rules; the bots given start fresh."),
    turns: Optional[int] = typer.Option(None, "--turns", help="Stop after this many turns "
                                        "and print what each robot did and what changed, "
                                        "turn by turn."),
    as_json: JsonOption = False,
) -> None:
    """Play one match and print the ranking, winner and runner-up.

    Examples:

      arena run  # the sample bots, default map

      arena run my_bot.py bots/arena/hunter.py \\
          --map official --seed 42

      arena run my_bot.py --sandbox off  # debug it with pdb

      arena run --game robotgame my_rgkit_bot.py \\
          bots/robotgame/example.py

      arena run --from pos.json my_bot.py hunter \\
          --turns 3 --sandbox off
    """
    warn_shared_names(bots, match.game)
    played = api.play(bots, match=match, seed=seed, progress=not as_json,
                      record=bool(replay_file or open_viewer or turns), start=start,
                      turns=turns)
    if replay_file or open_viewer:
        target = replay_file or DEFAULT_REPLAYS / f"{played.game}-{played.seed}.json.gz"
        if replay_file is None:
            host_files.real_folders(DEFAULT_REPLAYS)
        played.save_replay(target)
        assert played.replay is not None       # recorded: record=True above
        if open_viewer:
            page = replay_view.write_html(played.replay.data, html_path(target), target)
            err.print(Text.assemble("replay viewer: ", shown_text(page, "bold"),
                                    " (open it in a browser)"))
    result = played.to_json()
    warn_sandbox(result)
    if start is not None:
        _say_if_nothing_was_left(start, result)
    report = turn_report.played_turns(played.replay.data) if turns else None  # type: ignore[union-attr]  # turns: recorded
    if as_json:
        print(json.dumps({**result, "played_turns": report} if turns else result))
        return
    if report is not None:
        assert played.replay is not None       # a report: turns, so recorded
        turn_report.print_turns(out, report, played.replay.data)
        frames = replay_view.replay.Frames(played.replay.data)
        # Titled by the game's turn (61 from a position at 60), not the replay's frame.
        number = frames[len(frames) - 1][0] if report else start_turn(start)
        out.print(replay_view.drawn(Path("the match"), played.replay.data, frames,
                                    len(frames) - 1, False, replay_view.Look(
                                        keys=False, number=number,
                                        letters=out.no_color or out.color_system is None)))
    print_result(result)


def start_turn(start: Path | None) -> int:
    """The turn a match starts at: its position's, else 0."""
    from orchestrator.replay import position
    return position.read(start)["turn"] if start is not None else 0


def _say_if_nothing_was_left(start: Path, result: MatchData) -> None:
    """A position saved at the turn its match ended (`--save-position` without --turn
    saves the last) plays no turn: say so, and how to get one that does."""
    from orchestrator.replay import position
    at = position.read(start)["turn"]
    if result["turns"] <= at:
        err.print(shown_text(f"note: {start} is turn {at}, where its match ended "
                             f"({result['end']}): no turn was left to play; save an earlier "
                             f"one with arena replay REPLAY --turn N --save-position FILE"),
                  soft_wrap=True)


def warn_shared_names(bots: List[Path] | None, game: str) -> None:
    """A warning line per name that bots of different files declare: each is then shown
    by its file's name too (docs/spec/arena.md, "Names"). A file that cannot be read is
    left to the command, which says so in its own error."""
    read = []
    for bot in bots or ():
        try:
            read.append(read_bot(bot, game))
        except InputError:
            return
    for line in shared_name_warnings([b.name for b in read], [b.path for b in read]):
        err.print(Text.assemble(("warning:", "yellow"), " ", shown_text(line)), soft_wrap=True)


def warn_sandbox(result: Mapping[str, Any]) -> None:
    """The sandbox's warning, and why a match asked for in one mode played in another."""
    message = warning_once(result.get("sandbox_missing") or {})
    if message:
        err.print(Text.assemble(("warning:", "yellow"), " ", shown_text(message)))
    if result.get("sandbox_note"):
        err.print(Text.assemble("note: ", shown_text(result["sandbox_note"])))


def print_result(result: MatchData) -> None:
    """The human summary: a ranking table, then winner and runner-up."""
    game = get_game(result["game"])
    table = Table(title=shown_text(f"{result['game']} on {result['map']}, seed "
                                   f"{result['seed']}: {plural(result['turns'], 'turn')}, "
                                   f"{ended(result['end'])}"))
    headers = ("rank", "AI", "status", *(name for name, _ in game.shown.columns), "heat", "CPU s",
               "own s", "MB", "note")
    for column in headers:
        table.add_column(column, justify="left" if column in ("AI", "status", "note")
                         else "right", overflow="fold" if column in ("AI", "note") else "ellipsis")
    for p in result["players"]:
        stats = p["stats"]
        note = notes.note(p)
        style = {"erased": "red", "load_error": "red", "forfeit": "red"}.get(p["status"])
        line: list[RenderableType] = [str(p["rank"]), shown_text(p["name"]), p["status"],
                *((cell(stats) if stats else "-") for _, cell in game.shown.columns),
                str(p["overheats"]), f"{p['cpu_s']:.2f}", seconds(p.get("own_s")),
                f"{p['peak_rss_mb']:.0f}",
                shown_text(note)]
        table.add_row(*line, style=style)
    out.print(table)
    out.print(f"[dim]{game.shown.legend}heat: overheats (exceptions and invalid moves); own s: "
              f"its calls' wall time less their wait for a CPU[/dim]")
    out.print(Text.assemble("Winner: ", shown_text(_placed(result, 0), "bold green"),
                            "   Runner-up: ", shown_text(_placed(result, 1), "bold")))
    said = score_words.named(result["game"], result["players"])
    if said:
        out.print(Text.assemble("Score: ", shown_text(said, "bold")))
    if result["restarts"]:
        out.print(f"The match was replayed from turn 0 {result['restarts']} time(s) "
                  f"after erasing an AI.")


def _placed(result: MatchData, place: int) -> str:
    """The name(s) at the best (0) or next (1) rank among AIs that finished."""
    ranks = sorted({p["rank"] for p in result["players"] if p["status"] == "ok"})
    if place >= len(ranks):
        return "none"
    names = [p["name"] for p in result["players"] if p["rank"] == ranks[place]
             and p["status"] == "ok"]
    return names[0] if len(names) == 1 else " = ".join(names) + " (tied)"
