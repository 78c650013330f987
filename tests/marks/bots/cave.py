#!/usr/bin/env python3
"""A Cave Rangers program thinking aloud: mark lines on its stderr, which the keeper takes
out of its output (`#note TEXT`, `#dot ROW COL COLOUR`, `#line ROW COL ROW COL COLOUR`,
squares of the view it was given)."""
import sys

lines = sys.stdin.read().splitlines()
status, view = lines[0], [row for row in lines[1:] if row]
me = next(((r, c) for r, row in enumerate(view) for c, ch in enumerate(row) if ch == "Y"),
          (0, 0))
print(f"#note at {me[0]},{me[1]} of a {len(view)}-row view", file=sys.stderr)
print(f"#dot {me[0]} {me[1]} orange", file=sys.stderr)
print(f"#line {me[0]} {me[1]} 0 0 purple", file=sys.stderr)
print("M" + "NESW"[len(lines) % 4])
