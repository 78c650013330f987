"""An honest bot that computes 0.3 s of CPU a move, at the lowest priority on core 0 (it
asks for both itself): beside a program busy on that core, each move waits to run for
many seconds of wall time. Starved, not hung: its CPU limit judges it, not its wall."""
import os
import time

from roborally.api import *

name = 'Starved'
os.sched_setaffinity(0, {0})
os.nice(19)


def move():
    end = time.thread_time() + 0.3
    while time.thread_time() < end:
        pass
    return LASER
