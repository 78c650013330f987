"""Naps 0.3 s in every move and answers with a legal move: no CPU to speak of, under every
per-call limit. Before the own-time bank nothing stopped it: at 40 robots and 1,000 turns
one match took hours. Its match's own-time bank ends it (the suite's small bank: turn 1)."""
import time

from roborally.api import *

name = 'Napper'


def move():
    time.sleep(0.3)
    return LASER
