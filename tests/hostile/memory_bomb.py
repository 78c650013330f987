from roborally.api import *
name = 'MemoryBomb'
def move():
    hog = []
    while True:
        hog.append(bytearray(1 << 20))
