from roborally.api import *
name = 'SneakyBomb'
def move():
    try:
        hog = []
        while True:
            hog.append(bytearray(1 << 20))
    except MemoryError:
        hog = None
    return FORWARD
