#!/usr/bin/env python3
"""An honest Cave program whose move is the first of a set of strings: its match is the
same in every run only where its interpreter's string hashes are (a fixed hash seed)."""
import sys

sys.stdin.read()
WAYS = {"NN", "NE", "EE", "SE", "SS", "SW", "WW", "NW"}
way = next(iter(WAYS))
print(f"M{way}M{way}")
