import ctypes
from roborally.api import *
name = 'Segfault'
def move():
    ctypes.string_at(0)
