#!/usr/bin/env python3
# cave-protocol: persistent
"""Cave Rangers, one program for the whole game: naps 0.5 s before each answer, inside
the 1 s a turn has. Its own-time bank erases it."""
import sys
import time

for line in sys.stdin:
    if not line.strip():
        time.sleep(0.5)
        print("HNNHNN", flush=True)
