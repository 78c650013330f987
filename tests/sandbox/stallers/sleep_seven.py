"""A plain 7 s sleep in one call: the first move of the match (then it plays on)."""
import time

from roborally.api import LASER

name = 'SleepSeven'
slept = []


def move():
    if not slept:
        slept.append(True)
        time.sleep(7)
    return LASER
