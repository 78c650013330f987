"""Sleeps an hour in its first move (in every move: the first never ends)."""
import time

from roborally.api import LASER

name = 'SleepHour'


def move():
    time.sleep(3600)
    return LASER
