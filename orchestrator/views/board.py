"""What a terminal drawing of a replay is made of: the seats' colours, the board as rows of
(character, style), and the score table under it. The plain view (plain.py) and each
game's own `terminal.py` draw with these; views/replay.py shows what they draw."""
from __future__ import annotations

from rich.table import Table

from orchestrator.replay.reader import ai_players
from orchestrator.text import shown_text

COLORS = ["red", "bright_cyan", "yellow", "green", "dark_orange", "magenta", "cyan",
          "bright_magenta", "chartreuse1", "pink1"]
Grid = list[list[tuple[str, str]]]


def blank(width: int, height: int) -> Grid:
    """A board of empty squares."""
    return [[(" ", "") for _ in range(width)] for _ in range(height)]


def seat_table(data: dict, columns: tuple[str, ...], rows: list[tuple[int, list[str]]]
               ) -> Table:
    """A score table: a row per seat, its AI's name in its colour, then `columns`."""
    table = Table(box=None, show_header=True, pad_edge=False)
    names = [p["name"] for p in ai_players(data)]     # by AI index, as the rows number them
    for column in ("AI", *columns):
        table.add_column(column)
    for seat, cells in rows:
        table.add_row(shown_text(names[seat], f"bold {COLORS[seat % len(COLORS)]}"), *cells)
    return table
