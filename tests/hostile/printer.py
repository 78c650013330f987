import os
from roborally.api import *
name = 'Printer'
def move():
    print('x' * (1 << 20))
    os.write(1, b'y' * (1 << 16))
    return FORWARD
