"""Robot Game in the terminal replay (`arena replay`): the board, the scores, the legend."""
from __future__ import annotations

from rich.table import Table

from orchestrator.replay.reader import ai_players
from orchestrator.views.board import Grid, blank, piece, seat_table

LEGEND = (("0-9", "bold red"), " robot (its player's colour; hp ÷ 10; uncoloured: its letter)  ",
          ("█", "grey23"), " obstacle  ", ("·", "green"), " spawn")


def board(data: dict, state: dict) -> Grid:
    """Obstacles and spawn squares, then the robots (their hp in tens)."""
    size = data["map"]["size"]
    grid = blank(size, data["map"].get("height", size))
    obstacles = {tuple(x) for x in data["map"]["obstacle"]}
    spawn = {tuple(x) for x in data["map"]["spawn"]}
    for x in range(size):
        for y in range(size):
            if (x, y) in obstacles:
                grid[y][x] = ("█", "grey23")
            elif (x, y) in spawn:
                grid[y][x] = ("·", "green")
    for _, player, x, y, hp in state["robots"].values():
        grid[y][x] = piece(player, str(min(9, hp // 10)))
    return grid


def panel(data: dict, state: dict, turn: int) -> list[Table]:
    """Each player's robots and their total hp."""
    counts = [[0, 0] for _ in ai_players(data)]
    for _, player, _, _, hp in state["robots"].values():
        counts[player][0] += 1
        counts[player][1] += hp
    return [seat_table(data, ("robots", "hp"),
                       [(p, [str(n) for n in count]) for p, count in enumerate(counts)])]


def places(data: dict, state: dict) -> list[tuple[int, int]]:
    """(row, column) of every robot."""
    return [(y, x) for _, _, x, y, _ in state["robots"].values()]
