"""The plain terminal replay, for a game without a drawing of its own (no `terminal.py`
beside its entry): the static `grid` (rows of text) with a mark on every row of a frame
table that has "x" and "y" columns (the static `columns` name them; the mark is its
"player" number, if any), each table's rows, and the turn's events as a log. Without a
`grid` or `columns`, the tables and events alone. Every string is shown as text: no
markup, no terminal escape (orchestrator/text.py).
"""
from __future__ import annotations

import json

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from orchestrator.replay.reader import ai_players
from orchestrator.text import shown, shown_text
from orchestrator.views.board import COLORS, Grid, blank

LEGEND = (("0-9", "bold reverse red"), " a row with x and y (its player)  ",
          ("*", "bold reverse white"), " one without a player")
MAX_ROWS = 30                   # rows shown per table
MAX_COLUMNS = 30                # columns shown per table
MAX_TABLES = 20                 # tables shown
MAX_EVENTS = 60                 # lines of the turn's log shown
MAX_TEXT = 120                  # characters shown of one cell or log line


def _grid(data: dict) -> list[str] | None:
    grid = data["map"].get("grid")
    if isinstance(grid, list) and grid and all(isinstance(line, str) for line in grid):
        return grid
    return None


def _columns(data: dict, table: str) -> list[str] | None:
    found = data["map"].get("columns")
    names = found.get(table) if isinstance(found, dict) else None
    return [shown(name) for name in names] if isinstance(names, list) else None


def _text(value: object) -> str:
    """A value as text, cut to MAX_TEXT characters (a forged replay may hold megabytes)."""
    text = shown(value if isinstance(value, str) else json.dumps(value))
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"


def _marks(data: dict, state: dict, width: int, height: int):
    """(row, column, player or None) of every row with an x and a y on the grid."""
    for table, rows in state.items():
        names = _columns(data, table) or []
        if "x" not in names or "y" not in names:
            continue
        x, y = names.index("x"), names.index("y")
        player = names.index("player") if "player" in names else None
        for row in rows.values():
            c, r = row[x] if x < len(row) else None, row[y] if y < len(row) else None
            if isinstance(c, int) and isinstance(r, int) and 0 <= c < width and 0 <= r < height:
                seat = row[player] if player is not None and player < len(row) else None
                yield r, c, seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def board(data: dict, state: dict) -> Grid:
    """The grid's characters, dim, and the marks on it."""
    lines = _grid(data)
    if lines is None:
        return []
    width = max(len(line) for line in lines)
    grid = blank(width, len(lines))
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            if ch != " ":
                grid[r][c] = (ch if shown(ch) == ch else "?", "grey50")
    for r, c, seat in _marks(data, state, width, len(lines)):
        grid[r][c] = (("*", "bold reverse white") if seat is None else
                      (str(seat % 10), f"bold reverse {COLORS[seat % len(COLORS)]}"))
    return grid


def panel(data: dict, state: dict, turn: int) -> list[RenderableType]:
    """Who plays (each player's number, as marked on the grid), every table's rows, then
    the turn's events."""
    who = Text()
    for seat, player in enumerate(ai_players(data) if "players" in data else []):
        who.append(str(seat % 10), f"bold reverse {COLORS[seat % len(COLORS)]}")
        who.append(" ")
        who.append_text(shown_text(player.get("name", "?")))
        who.append("  ")
    who.rstrip()
    shown_tables: list[RenderableType] = [who] if who else []
    for table, rows in list(state.items())[:MAX_TABLES]:
        names = _columns(data, table)
        found = Table(title=Text(_text(table)), title_justify="left", box=None,
                      pad_edge=False, show_header=names is not None)
        width = min(MAX_COLUMNS, max(max((len(row) for row in rows.values()), default=0),
                                     len(names or [])))
        for i in range(width):
            found.add_column(Text(_text(names[i]) if names and i < len(names) else str(i)))
        for row in list(rows.values())[:MAX_ROWS]:
            found.add_row(*(Text(_text(value)) for value in row[:width]))
        if len(rows) > MAX_ROWS:
            found.caption = f"… {len(rows) - MAX_ROWS} more rows"
        shown_tables.append(found)
    if len(state) > MAX_TABLES:
        shown_tables.append(Text(f"… {len(state) - MAX_TABLES} more tables"))
    events = data["turns"][turn - 1].get("events") if turn else None
    lines, total = _event_lines(events)
    log = Text()
    for line in lines:
        log.append_text(shown_text(line))
        log.append("\n")
    if total > len(lines):
        log.append(f"… {total - len(lines)} more lines")
    log.rstrip()
    if log:
        shown_tables.append(log)
    return shown_tables


def _event_lines(events: object) -> tuple[list[str], int]:
    """The first MAX_EVENTS lines of the turn's log, and how many it has."""
    if events is None:
        return [], 0
    if isinstance(events, dict):
        items = [(key, item) for key, value in events.items()
                 for item in (value if isinstance(value, list) else [value])]
    else:
        items = [(None, item) for item in (events if isinstance(events, list) else [events])]
    return [_text(item) if key is None else f"{_text(key)}: {_text(item)}"
            for key, item in items[:MAX_EVENTS]], len(items)


def places(data: dict, state: dict) -> list[tuple[int, int]]:
    """(row, column) of every mark."""
    lines = _grid(data) or []
    width = max((len(line) for line in lines), default=0)
    return [(r, c) for r, c, _ in _marks(data, state, width, len(lines))]
