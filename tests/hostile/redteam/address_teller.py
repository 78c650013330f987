"""Red team: a bot that prints where its interpreter lies in memory: a static object's
address (`id(None)`), a fresh object's (`hash(object())`) and a function's. With address
space layout randomisation they differ in every run, so any move drawn from them does."""
from roborally.api import *

name = 'AddressTeller'

print("addresses", id(None), hash(object()), id(len), id(move) if 'move' in globals() else 0)


def move():
    return FORWARD
