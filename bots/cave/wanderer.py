#!/usr/bin/env python3
"""Wanderer: started afresh every turn (the seed's way). It takes gold it can see next to
it, else keeps walking the way it chose, which it remembers in its scratch file."""
import sys

STEPS = {"NN": (-1, 0), "NE": (-1, 1), "EE": (0, 1), "SE": (1, 1), "SS": (1, 0),
         "SW": (1, -1), "WW": (0, -1), "NW": (-1, -1)}
NAMES = list(STEPS)

lines = sys.stdin.read().split()
status, rows = lines[0], lines[1:]
me = next((r, row.index("Y")) for r, row in enumerate(rows) if "Y" in row)
try:
    heading = open("heading").read().strip()
except OSError:
    heading = "NE"
if heading not in STEPS:
    heading = "NE"


def at(r, c):
    return rows[r][c] if 0 <= r < len(rows) and 0 <= c < len(rows[r]) else None


for name, (dr, dc) in STEPS.items():
    if at(me[0] + dr, me[1] + dc) == "G":
        heading = name
        break
dr, dc = STEPS[heading]
if at(me[0] + dr, me[1] + dc) in (None, "}", "P", "L", "C", "@"):
    heading = NAMES[(NAMES.index(heading) + 3) % 8]
open("heading", "w").write(heading)
print(f"M{heading}M{heading}")
