#!/usr/bin/env python3
"""Cave Rangers, a program started each turn: naps 0.5 s, then answers, inside the 1 s a
turn has. Every turn is a legal answer in time: its own-time bank erases it."""
import sys
import time

sys.stdin.read()
time.sleep(0.5)
print("HNNHNN")
