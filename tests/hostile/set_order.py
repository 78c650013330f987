"""An honest arena bot whose move is the first of a set of strings: its game is the same
in every run only where the interpreter's string hashes are (a fixed hash seed)."""
from roborally.api import *

name = 'SetOrder'


def move():
    return next(iter(set(MOVES)))
