#!/usr/bin/env python3
"""Red team: a Cave program that lowers its own share of the CPU (SCHED_IDLE, nice 19, one
core), so that a turn it spends runnable but unscheduled looks starved, not late, to the
host. It writes LEAK to its stderr for each call the kernel let through."""
import os
import sys

sys.stdin.read()
sys.stderr.write("tried\n")
for what, call in (("sched_setscheduler",
                    lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))),
                   ("setpriority", lambda: os.setpriority(os.PRIO_PROCESS, 0, 19)),
                   ("sched_setaffinity",
                    lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}))):
    try:
        call()
        sys.stderr.write(f"LEAK: {what}\n")
    except OSError:
        pass
print("MNNMNN")
