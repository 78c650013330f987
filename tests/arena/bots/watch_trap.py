# Module state whose every hook loops: a list whose len() and iteration loop, a key that
# hashes and compares in Python, a value whose __class__ is a property, and a module that
# changes its own class. The runtime's check of module state (rule 1), which runs between
# calls, must run none of them; `seen` changing is still reported.
import sys
import types

from roborally.api import *

name = 'Trap'


def _stall(*_):
    while True:
        pass


class Crowd(list):
    __len__ = __iter__ = _stall


class Key(str):
    __hash__ = str.__hash__
    startswith = _stall


class Masked:
    __class__ = property(_stall)


class Module(types.ModuleType):
    __dict__ = property(_stall)


crowd = Crowd([1, 2])
masked = Masked()
globals()[Key('odd')] = 1
seen = []


def move():
    seen.append(1)
    return TURN_LEFT


sys.modules[__name__].__class__ = Module
