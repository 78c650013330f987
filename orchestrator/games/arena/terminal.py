"""Robot Arena in the terminal replay (`arena replay`): the board, the scores, the legend."""
from __future__ import annotations

from rich.table import Table

from orchestrator.replay.reader import ai_players
from orchestrator.views.board import Grid, blank, piece, seat_table

LEGEND = (("^>v<", "bold red"), " robot (its AI's colour, facing; uncoloured: its letter)  ",
          ("^", "bold bright_white on grey35"), " mounted laser  ", ("#", "grey62"),
          " wall  ", ("&", "grey42"), " pit  ", ("{}", "grey42"), " spinner  ",
          ("1-9", "dim green"), " flag  ", ("x", "grey50"), " wreck")


def board(data: dict, state: dict) -> Grid:
    """Pits, spinners and flags, the standing blocks, wrecks, then the robots (facing)."""
    size = data["map"]["size"]
    grid = blank(size, data["map"].get("height", size))
    for r, line in enumerate(data["map"]["rows"]):
        for c, ch in enumerate(line[:size]):
            if ch in "&{}123456789":
                grid[r][c] = (ch, "dim green" if ch.isdigit() else "grey42")
    blocks = {row[0]: row for row in data["map"]["blocks"]}
    for index, row in state.get("blocks", {}).items():
        _, r, c, kind, facing = blocks[index]
        if row[1] > 0:
            # A mounted laser on grey: an arrow without it is a robot.
            grid[r][c] = ("#" if kind == "wall" else "^>v<"[facing],
                          "grey62" if kind == "wall" else "bold bright_white on grey35")
    owners = dict(map(tuple, data["map"]["owners"]))
    for rid, row in state["robots"].items():
        _, r, c, facing, life, _, _, status = row
        if status == 1:
            grid[r][c] = ("x", "grey50")
        elif status == 0:
            player = owners[rid]
            grid[r][c] = piece(player, "^>v<"[facing])
    return grid


def panel(data: dict, state: dict, turn: int) -> list[Table]:
    """Each AI's robots standing and flags taken."""
    counts = [[0, 0] for _ in ai_players(data)]
    owners = dict(map(tuple, data["map"]["owners"]))
    for rid, row in state["robots"].items():
        if row[7] == 0:
            counts[owners[rid]][0] += 1
        counts[owners[rid]][1] += row[6]
    return [seat_table(data, ("robots", "flags"),
                       [(p, [str(n) for n in count]) for p, count in enumerate(counts)])]


def places(data: dict, state: dict) -> list[tuple[int, int]]:
    """(row, column) of every robot still standing."""
    return [(row[1], row[2]) for row in state["robots"].values() if row[7] == 0]
