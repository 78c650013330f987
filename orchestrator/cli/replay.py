"""`arena replay`: watch a saved match in the terminal, or write it as a web page (the
drawing: orchestrator/views/replay.py)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from engine.numerals import ascii_integer
from orchestrator.cli.options import grouped
from orchestrator.options import Confinement
from orchestrator.replay import file as replay
from orchestrator.replay.position import check_turn
from orchestrator.service.stored_replay import replay_path, stored_ref
from orchestrator.text import shown_text
from orchestrator.views.replay import Look, drawn, err, out, watch, write_html
from sandbox import modes


def _save_position(file: Path, data: dict, turn: int | None, target: Path) -> None:
    """`--save-position`: the position at `turn` (a frame, as the viewer numbers them)."""
    from orchestrator.replay import position
    frame = len(data["turns"]) if turn is None else turn
    state = position.from_replay(data, frame, str(file))
    saved = position.write(state, target)
    seats = state["players"]
    err.print(shown_text(f"wrote {saved}: {data['game']} at turn {frame} of {file.name}; "
                         f"play on from it with: arena run --from {saved} BOT... "
                         f"({len(seats)} bot{'s' * (len(seats) != 1)}, in seat order: "
                         f"{', '.join(seats)})"), soft_wrap=True)


@grouped
def replay_command(
    file: Path = typer.Argument(..., help="A replay file (.json.gz) from --replay, or a "
                                "stored match, DB:MATCH_ID (`arena results DB --games` lists "
                                "them): its kept replay, else the match played again from "
                                "its record."),
    html: Optional[Path] = typer.Option(None, "--html", help="Write a self-contained web page "
                                        "here instead, to watch in any browser."),
    turn: Optional[int] = typer.Option(None, help="Print the board at this turn and stop "
                                       "(what happens without a terminal, at the last turn)."),
    speed: float = typer.Option(10.0, help="Turns per second when playing."),
    robot: Optional[str] = typer.Option(None, "--robot", help="Show this robot's note (its "
                                        "id, as the board and the page name it): what its "
                                        "bot said about it with marks.note."),
    save_position: Optional[Path] = typer.Option(
        None, "--save-position", help="Write the game's whole state at --turn (default: the "
        "last) to this position file, to play on from with `arena run --from FILE BOT...`."),
    confinement: Confinement = Confinement(),
) -> None:
    """Watch a saved match: in the terminal (keys: space, arrows, q), or as a web page.

    Examples:

      arena run --replay match.json.gz && \\
          arena replay match.json.gz

      # the canvas viewer, charts, robot panel:
      arena replay match.json.gz --html match.html

      # one frame, printed:
      arena replay match.json.gz --turn 120

      # a match of a batch, by its id:
      arena replay runs/arena.sqlite:3f2a9c01

      # played again, strict:
      arena replay runs/arena.sqlite:3f2a9c01 \\
          --sandbox strict

      arena replay match.json.gz --turn 120 \\
          --save-position pos.json

    A stored match without a kept replay is played again in the sandbox mode given here
    (default standard; never the one its results file names), and says which, within
    the game's limits changed by --cpu-limit and --memory-mb: a record with looser limits
    than these is refused, never taken.
    """
    ref = stored_ref(str(file))
    if ref is not None:
        file = replay_path(*ref, told=lambda note: err.print(shown_text(note)),
                           sandbox=confinement.sandbox, cpu_limit=confinement.cpu_limit,
                           memory_mb=confinement.memory_mb)
    else:
        modes.chosen(confinement.sandbox)   # a replay file plays nothing: any mode shows it
    data = replay.load(file)
    if save_position is not None:
        _save_position(file, data, turn, save_position)
        return
    if html is not None:
        err.print(shown_text(f"wrote {write_html(data, html, file)}"))
        return
    if turn is None and sys.stdin.isatty() and sys.stdout.isatty():
        watch(file, data, max(0.5, speed), _piece(robot))
        return
    frames = replay.Frames(data)
    at = len(frames) - 1 if turn is None else turn
    check_turn(at, len(frames) - 1)
    # Without colour (a pipe, NO_COLOR), each piece is its AI's letter: colour is not the
    # only cue that tells the players apart.
    out.print(drawn(file, data, frames, at, False, Look(
        keys=False, robot=_piece(robot), letters=out.no_color or out.color_system is None)))


def _piece(robot: str | None) -> int | str | None:
    """A robot's id as the replay's rows key it: a number (ASCII decimal, as the rows
    spell one: '²' passes `isdigit` and `int` refuses it), or text."""
    if robot is None:
        return None
    number = ascii_integer(robot.strip())
    return robot if number is None else number
