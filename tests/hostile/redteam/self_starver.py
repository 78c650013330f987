"""Red team: a bot that starves itself. The host charges a late call's wall time only as
far as the call did not wait to run (`_sched`: wall less run_delay), so a call that is
runnable but never scheduled is "starved" and not over its wall limit, up to the host's
last look (4 x (wall + grace): 60 s a call in Robot Arena). A bot at SCHED_IDLE (or nice
19) pinned to one busy core is runnable all the time and gets almost no CPU: it can hold
every turn of the match that long, charged a few ms of CPU, and answer in time.

It tries each call that lowers its own share and prints LEAK for each the kernel let
through; then it spins, yielding, for HOLD_S of wall time (less when it is given CPU)."""
import os
import time

from roborally.api import *

name = 'SelfStarver'

HOLD_S = 50.0          # under Robot Arena's last look: 4 x (5 + 10) s
CPU_LEFT_S = 0.8       # stop spinning before the per-call CPU limit (1 s)
_got = []
try:
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    _got.append("sched_setscheduler(SCHED_IDLE)")
except OSError:
    pass
try:
    os.setpriority(os.PRIO_PROCESS, 0, 19)
    _got.append("setpriority(19)")
except OSError:
    pass
try:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    _got.append("sched_setaffinity")
except OSError:
    pass
for call in _got:
    print("LEAK:", call)


def move():
    if _got:
        began, cpu = time.monotonic(), time.process_time()
        while time.monotonic() - began < HOLD_S and time.process_time() - cpu < CPU_LEFT_S:
            pass
    return FORWARD
