"""Race some Robots in the terminal replay (`arena replay`): the board, the scores, the
legend."""
from __future__ import annotations

from rich.table import Table

from orchestrator.views.board import COLORS, Grid, blank, seat_table

ARROWS = {"^": "↑", ">": "→", "v": "↓", "<": "←"}
LEGEND = (("0-9", "bold reverse red"), " bot (its seat)  ", ("→", "grey50"), " belt  ",
          ("→", "blue"), " double belt  ", ("c C", "bold green"), " checkpoints  ",
          ("A", "bold yellow"), " antenna  ", ("*", "magenta"), " reboot")


def board(data: dict, state: dict) -> Grid:
    """Belts as arrows (blue: double), checkpoints, the antenna, the reboot square, then
    the bots (their seat number)."""
    size = data["map"]["size"]
    grid = blank(size, data["map"].get("height", size))
    for y, line in enumerate(data["map"]["cells"]):
        for x, text in enumerate(line):
            t = text.strip()
            if t in ("C1", "C2"):
                grid[y][x] = ("c" if t == "C1" else "C", "bold green")
            elif t == "PA":
                grid[y][x] = ("A", "bold yellow")
            elif t[:1] == "*":
                grid[y][x] = ("*", "magenta")
            elif t:
                double = t[0] == "R" or t[0] == t[-1]
                grid[y][x] = (ARROWS.get(t[-1], "?"), "blue" if double else "grey50")
            else:
                grid[y][x] = ("·", "grey23")
    for seat, x, y, _d, *_ in state["bots"].values():
        grid[y][x] = (str(seat % 10), f"bold reverse {COLORS[seat % len(COLORS)]}")
    return grid


def panel(data: dict, state: dict, turn: int) -> list[Table]:
    """Each bot's checkpoint, spam cards and reboots."""
    return [seat_table(data, ("C1", "spam", "reboots"), [
        (seat, ["yes" if checkpoint else "-", str(spam), str(reboots)])
        for seat, _x, _y, _d, checkpoint, spam, reboots in state["bots"].values()])]


def places(data: dict, state: dict) -> list[tuple[int, int]]:
    """(row, column) of every bot."""
    return [(y, x) for _, x, y, *_ in state["bots"].values()]
