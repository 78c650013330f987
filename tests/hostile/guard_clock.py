"""Reads its guard's wall timer and burns 20 ms of CPU each time the guard re-armed it (a
probe of a late call): a guard that judged "starved, not hung" from CPU used between its
own probes saw it compute at every probe, and let the call sleep to 4x its wall limit."""
import signal
import time

from roborally.api import *

name = 'GuardClock'
STALL_S = 14          # under the old guard's last look (4 x 5 s): it answered, "ok"


def _burn(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def move():
    began = time.monotonic()
    last = signal.getitimer(signal.ITIMER_REAL)[0]
    while time.monotonic() - began < STALL_S:
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        if left > last:             # re-armed: a probe just looked
            _burn(0.02)
        last = left
        time.sleep(0.01)
    return LASER
