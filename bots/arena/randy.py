"""Randy: picks any move at random. The benchmark every bot should beat."""
import random

from roborally.api import *

name = 'Randy'


def move():
    return random.choice(MOVES)
