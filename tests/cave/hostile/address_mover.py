#!/usr/bin/env python3
"""Red team: a Cave program whose move comes from where its interpreter lies in memory
(`id(None)`, moved by address space layout randomisation at each exec): with it, the same
seed plays another game in every run."""
import sys

sys.stdin.read()
WAYS = ["NN", "NE", "EE", "SE", "SS", "SW", "WW", "NW"]
way = WAYS[(id(None) >> 12) % len(WAYS)]
sys.stderr.write(f"at {id(None)}\n")
print(f"M{way}M{way}")
