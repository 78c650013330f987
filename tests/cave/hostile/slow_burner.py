#!/usr/bin/env python3
"""Mostly sleeps, burning 12 ms of CPU every 0.15 s, and answers after 2.5 s of its turn:
to a keeper that took CPU used since its last look (every 0.25 s) for progress, a program
starved by a busy machine, never a hung one, to 4x its 1 s. It reads no timer."""
import sys
import time

sys.stdin.read()
began = time.monotonic()
while time.monotonic() - began < 2.5:
    end = time.thread_time() + 0.012
    while time.thread_time() < end:
        pass
    time.sleep(0.138)
print("HNNHNN")
