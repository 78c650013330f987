"""Sleeps 7 s once, in the first move it is asked for, then plays: past the 5 s one call
may take. While a request of many robots had calls x 5 s, the sleep hid in the team's
allowance (10 s and more a turn) and the bot stayed "ok"; a turn's own time is now
bounded whatever the robot count, and it is erased on turn 1."""
import time

from roborally.api import *

name = 'LongSleep'


def move(_slept=[]):
    if not _slept:
        _slept.append(True)
        time.sleep(7)
    return LASER
