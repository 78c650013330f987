"""An arena bot whose move() never returns."""
from roborally.api import *  # noqa: F403

name = 'Hang'


def move():
    while True:
        pass
