"""Red team: a bot whose moves come from the OS's randomness (`os.urandom`, what
`random.SystemRandom` draws from): the same seed plays a different game each time."""
import os

from roborally.api import *

name = 'Urandom'


def move():
    return list(MOVES)[os.urandom(1)[0] % len(MOVES)]
