"""Mostly sleeps, burning 12 ms of CPU every 0.15 s without reading any timer: to a watchdog
that took CPU used since its last look (every 0.25 s) for progress, a starved call, never
a hung one. 8 s of it use about 0.65 s of CPU, under the call's 1 s."""
import time

from roborally.api import *

name = 'SlowBurner'
STALL_S = 8


def move():
    began = time.monotonic()
    while time.monotonic() - began < STALL_S:
        end = time.thread_time() + 0.012
        while time.thread_time() < end:
            pass
        time.sleep(0.138)
    return LASER
