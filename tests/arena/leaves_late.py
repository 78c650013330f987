"""An arena bot whose move() plays a few turns, then never returns (the match erases it
mid-match)."""
from roborally.api import *  # noqa: F403

name = 'HangLate'


def move():
    mine = memory()  # noqa: F405
    mine['turns'] = mine.get('turns', 0) + 1
    if mine['turns'] > 4:
        while True:
            pass
    return TURN_LEFT  # noqa: F405
