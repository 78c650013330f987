#!/usr/bin/env python3
# cave-protocol: persistent
"""Forager: the strong sample. It kills what is next to it, walks to the nearest thing
worth having (food when hurt, water when poisoned, else gold, a knife or a revealer) by a
breadth-first search that keeps off pits, boulders and the squares next to lions, and
reads one turn after another from the same process."""
import sys
from collections import deque

STEPS = {"NN": (-1, 0), "NE": (-1, 1), "EE": (0, 1), "SE": (1, 1), "SS": (1, 0),
         "SW": (1, -1), "WW": (0, -1), "NW": (-1, -1)}
BITERS = ("L", "C")


def decide(status, rows):
    health, gold, turns, poison, stuck, revealer, knife = status.split(",")
    health, poison, stuck = int(health), int(poison), int(stuck)
    me = next((r, row.index("Y")) for r, row in enumerate(rows) if "Y" in row)
    height, width = len(rows), max(len(row) for row in rows)

    def at(r, c):
        return rows[r][c] if 0 <= r < height and 0 <= c < len(rows[r]) else None

    actions = []
    for name, (dr, dc) in STEPS.items():          # a lion or centipede next to us: kill it
        if at(me[0] + dr, me[1] + dc) in BITERS and len(actions) < 2:
            actions.append("A" + name)
    if len(actions) == 2 or stuck:
        return "".join(actions + ["HNN"] * (2 - len(actions)))
    wanted = "F" if health < 14 else "W" if poison else ""
    wanted += "GKRFN" if health < 10 else "GKRF"
    danger = {(r + dr, c + dc) for r, row in enumerate(rows) for c, s in enumerate(row)
              if s == "L" for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    path = route(me, wanted, at, danger, height, width)
    for step in path[:2 - len(actions)]:
        actions.append("M" + step)
    while len(actions) < 2:
        actions.append("HNN")
    return "".join(actions)


def route(start, wanted, at, danger, height, width):
    """The directions to the most wanted thing nearest to us (best symbol first)."""
    seen = {start: []}
    queue = deque([start])
    best = None
    while queue:
        square = queue.popleft()
        symbol = at(*square)
        if square != start and symbol is not None and symbol in wanted:
            rank = wanted.index(symbol)
            if best is None or rank < best[0] or (rank == best[0] and
                                                   len(seen[square]) < len(seen[best[1]])):
                best = (rank, square)
        for name, (dr, dc) in STEPS.items():
            nxt = (square[0] + dr, square[1] + dc)
            if nxt in seen or not (0 <= nxt[0] < height and 0 <= nxt[1] < width):
                continue
            if at(*nxt) in (None, "}", "P", "@", "L", "C") or nxt in danger:
                continue
            seen[nxt] = seen[square] + [name]
            queue.append(nxt)
    if best is not None:
        return seen[best[1]]
    for name, (dr, dc) in STEPS.items():            # nothing seen: explore, away from edges
        nxt = (start[0] + dr, start[1] + dc)
        if nxt in seen and len(seen[nxt]) == 1:
            return [name]
    return []


def main():
    block = []
    for line in sys.stdin:
        line = line.strip()
        if line:
            block.append(line)
            continue
        print(decide(block[0], block[1:]), flush=True)
        block = []


if __name__ == "__main__":
    main()
