"""Cave Rangers in the terminal replay (`arena replay`): the board, the scores, the legend."""
from __future__ import annotations

from rich.table import Table

from orchestrator.views.board import COLORS, Grid, blank, seat_table

STYLES = {"G": "bold yellow", "F": "green", "W": "blue", "R": "magenta", "K": "cyan",
          "}": "grey50", "P": "grey30", "L": "bold red", "C": "red", "B": "grey70",
          "N": "bold white", "-": "grey19"}
LEGEND = (("0-9", "bold reverse red"), " bot (its seat)  ", ("G", STYLES["G"]),
          " gold  ", ("F", STYLES["F"]), " food  ", ("W", STYLES["W"]),
          " water  ", ("R", STYLES["R"]), " revealer  ", ("K", STYLES["K"]),
          " knife  ", ("}", STYLES["}"]), " boulder  ", ("P", STYLES["P"]),
          " pit  ", ("L", STYLES["L"]), " lion  ", ("C", STYLES["C"]),
          " centipede  ", ("B", STYLES["B"]), " bats  ", ("N", STYLES["N"]),
          " Nurse Nina  ", ("·", STYLES["-"]), " ground")


def board(data: dict, state: dict) -> Grid:
    """Squares, then creatures and Nina, then the living bots (their seat number)."""
    size = data["map"]["size"]
    grid = blank(size, data["map"].get("height", size))
    for r, line in state["squares"].values():
        for c, ch in enumerate(line):
            grid[r][c] = ("·" if ch == "-" else ch, STYLES.get(ch, ""))
    for _, r, c in state.get("nurse", {}).values():
        grid[r][c] = ("N", STYLES["N"])
    for _, kind, r, c in state["creatures"].values():
        grid[r][c] = (kind, STYLES[kind])
    for seat, r, c, _health, _gold, alive, *_ in state["bots"].values():
        if alive:
            grid[r][c] = (str(seat % 10), f"bold reverse {COLORS[seat % len(COLORS)]}")
    return grid


def panel(data: dict, state: dict, turn: int) -> list[Table]:
    """Each bot's gold and health."""
    return [seat_table(data, ("gold", "health"), [
        (seat, [str(gold), str(health) if alive else "dead"])
        for seat, _r, _c, health, gold, alive, *_ in state["bots"].values()])]


def places(data: dict, state: dict) -> list[tuple[int, int]]:
    """(row, column) of every living bot."""
    return [(r, c) for _, r, c, _h, _g, alive, *_ in state["bots"].values() if alive]
