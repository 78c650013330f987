#!/usr/bin/env python3
# cave-protocol: persistent
# figures: game=cave cpu_per_turn=0.2 held_mb=150
"""Holds 150 MB and burns 0.2 s of CPU a turn in a worker thread, not the main one:
its figures must count every thread of the program (tests/cave/test_program_figures.py)."""
import queue
import sys
import threading
import time

HELD = b"\1" * (150 << 20)           # one allocation, every page touched
asked, done = queue.Queue(), queue.Queue()


def work():
    while True:
        asked.get()
        stop = time.thread_time() + 0.2
        while time.thread_time() < stop:
            pass
        done.put(None)


threading.Thread(target=work, daemon=True).start()
for line in sys.stdin:
    if line.strip() == "":
        asked.put(None)
        done.get()
        print("MNNHNN", flush=True)
