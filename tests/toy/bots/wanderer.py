"""Wanderer: steps at random onto a free square."""
import random

name = "wanderer"


def step(view):
    x, y = view["me"]
    rows = view["rows"]
    moves = [m for m, (dx, dy) in (("N", (0, -1)), ("E", (1, 0)), ("S", (0, 1)),
                                   ("W", (-1, 0))) if rows[y + dy][x + dx] != "#"]
    return random.choice(moves) if moves else "."
