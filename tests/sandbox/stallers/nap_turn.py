#!/usr/bin/env python3
# cave-protocol: persistent
"""A Cave program that naps 0.5 s before every answer: under its 1 s a turn, 25 s of a
50-turn match (more than a quarter of its own-time bank)."""
import sys
import time

for line in sys.stdin:
    if not line.strip():
        time.sleep(0.5)
        print("HNNHNN", flush=True)
