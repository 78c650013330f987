"""What a terminal drawing of a replay is made of: the seats' colours, the board as rows of
(character, style), and the score table under it. The plain view (plain.py) and each
game's own `terminal.py` draw with these; views/replay.py shows what they draw."""
from __future__ import annotations

import contextlib
import string
from contextvars import ContextVar
from typing import Iterator

from rich.table import Table

from orchestrator.replay.reader import ai_players
from orchestrator.text import shown_text

# The page's palette (views/viewer/viewer.html): 12 colours told apart with normal sight
# and each colour-blindness (Okabe and Ito's, white for their black, then four of Paul
# Tol's). Colour is never the only cue: each AI has its letter too (`letter`).
COLORS = ["#E69F00", "#56B4E9", "#F0E442", "#D55E00", "#CC79A7", "#009E73", "#FFFFFF",
          "#0072B2", "#FFAABB", "#99DDFF", "#117733", "#999933"]
Grid = list[list[tuple[str, str]]]
_LETTERED: ContextVar[bool] = ContextVar("lettered", default=False)


def letter(seat: int) -> str:
    """An AI's letter, its cue besides its colour: A for the first, B, ... Z, then a, b."""
    letters = string.ascii_uppercase + string.ascii_lowercase
    return letters[seat % len(letters)]


def colour(seat: int) -> str:
    return COLORS[seat % len(COLORS)]


@contextlib.contextmanager
def lettered(on: bool) -> Iterator[None]:
    """While drawing without colour (a pipe, NO_COLOR), every piece is its AI's letter."""
    token = _LETTERED.set(on)
    try:
        yield
    finally:
        _LETTERED.reset(token)


def piece(seat: int, glyph: str) -> tuple[str, str]:
    """A piece of AI `seat` on the board: `glyph` (a facing, a number) in the AI's colour,
    or its letter where colour is not shown (`lettered`)."""
    return (letter(seat) if _LETTERED.get() else glyph), f"bold {colour(seat)}"


def blank(width: int, height: int) -> Grid:
    """A board of empty squares."""
    return [[(" ", "") for _ in range(width)] for _ in range(height)]


def seat_table(data: dict, columns: tuple[str, ...], rows: list[tuple[int, list[str]]]
               ) -> Table:
    """A score table: a row per seat, its AI's letter and name in its colour, then
    `columns`."""
    table = Table(box=None, show_header=True, pad_edge=False)
    names = [p["name"] for p in ai_players(data)]     # by AI index, as the rows number them
    for column in ("AI", *columns):
        table.add_column(column)
    for seat, cells in rows:
        table.add_row(shown_text(f"{letter(seat)} {names[seat]}", f"bold {colour(seat)}"),
                      *cells)
    return table
