"""Greedy: heads for the nearest coin, a step at a time."""
name = "greedy"


def step(view):
    x, y = view["me"]
    rows = view["rows"]
    if not view["coins"]:
        return "."
    cx, cy = min(view["coins"], key=lambda c: (abs(c[0] - x) + abs(c[1] - y), c))
    for move, (dx, dy) in (("E", (1, 0)), ("W", (-1, 0)), ("S", (0, 1)), ("N", (0, -1))):
        nx, ny = x + dx, y + dy
        closer = abs(cx - nx) + abs(cy - ny) < abs(cx - x) + abs(cy - y)
        if closer and rows[ny][nx] != "#":
            return move
    return "."
