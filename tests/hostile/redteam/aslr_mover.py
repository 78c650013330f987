"""Red team: a bot whose moves come from where the interpreter lies in memory (`id(None)`:
the address of a static object, moved by address space layout randomisation at each
exec): the same in every child forked from one zygote, different in another run."""
from roborally.api import *

name = 'Aslr'

_PICK = (id(None) >> 12) % 1000003


def move():
    return list(MOVES)[_PICK % len(MOVES)]
