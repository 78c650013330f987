"""A plain 7 s sleep in one call: the first move of the match (then it plays on; the
default argument keeps the mark, where rule 1's watch of the module would warn)."""
import time

from roborally.api import LASER

name = 'SleepSeven'


def move(_slept=[]):  # noqa: B006 (the mark this bot keeps)
    if not _slept:
        _slept.append(True)
        time.sleep(7)
    return LASER
