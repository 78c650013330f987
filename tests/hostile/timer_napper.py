"""Paces its naps by its own clocks: in each move it reads its guard's wall timer
(getitimer) and the monotonic clock, and sleeps in short steps, burning 2 ms of CPU at
each, until 0.3 s have passed: it looks busy to anything that watches CPU progress, and
it keeps under every per-call limit it can read. Only its own time counts: its bank ends it."""
import signal
import time

from roborally.api import *

name = 'TimerNapper'


def move():
    began = time.monotonic()
    while time.monotonic() - began < 0.3:
        signal.getitimer(signal.ITIMER_REAL)
        end = time.thread_time() + 0.002
        while time.thread_time() < end:
            pass
        time.sleep(0.02)
    return LASER
