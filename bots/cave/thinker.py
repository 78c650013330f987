#!/usr/bin/env python3
# cave-protocol: persistent
"""Thinker: walks to the nearest gold it sees, thinking aloud. Each turn it writes mark
lines on its standard error (`#note TEXT`, `#dot ROW COL COLOUR`, `#line ROW COL ROW COL
COLOUR`, squares of the view it was given), which the keeper takes out of its output and
its owner sees in the viewer (docs/contestant-loop.md, "Marks and notes")."""
import sys

STEPS = {"NN": (-1, 0), "NE": (-1, 1), "EE": (0, 1), "SE": (1, 1), "SS": (1, 0),
         "SW": (1, -1), "WW": (0, -1), "NW": (-1, -1)}
BLOCKED = (None, "}", "P", "@", "L", "C")


def decide(status, rows):
    me = next(((r, row.index("Y")) for r, row in enumerate(rows) if "Y" in row), (0, 0))

    def at(r, c):
        return rows[r][c] if 0 <= r < len(rows) and 0 <= c < len(rows[r]) else None

    gold = [(r, c) for r, row in enumerate(rows) for c, s in enumerate(row) if s == "G"]
    if not gold:
        print(f"#note no gold in sight (status {status})", file=sys.stderr)
        print(f"#dot {me[0]} {me[1]} white", file=sys.stderr)
        return "MEEHNN" if at(me[0], me[1] + 1) not in BLOCKED else "HNNHNN"
    goal = min(gold, key=lambda g: max(abs(g[0] - me[0]), abs(g[1] - me[1])))
    print(f"#note gold at {goal[0]},{goal[1]}", file=sys.stderr)
    print(f"#dot {goal[0]} {goal[1]} yellow", file=sys.stderr)
    print(f"#line {me[0]} {me[1]} {goal[0]} {goal[1]} yellow", file=sys.stderr)
    dr = (goal[0] > me[0]) - (goal[0] < me[0])
    dc = (goal[1] > me[1]) - (goal[1] < me[1])
    step = next((n for n, d in STEPS.items() if d == (dr, dc)), None)
    if step is None or at(me[0] + dr, me[1] + dc) in BLOCKED:
        return "HNNHNN"
    return "M" + step + "HNN"


def main():
    block = []
    for line in sys.stdin:
        line = line.strip()
        if line:
            block.append(line)
            continue
        print(decide(block[0], block[1:]), flush=True)
        sys.stderr.flush()
        block = []


if __name__ == "__main__":
    main()
