"""An arena bot whose move() never returns: erased at turn 1
(tests/replay/test_erased_truth.py)."""
from roborally.api import *  # noqa: F403

name = 'Hang'


def move():
    while True:
        pass
