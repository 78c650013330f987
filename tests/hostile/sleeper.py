import time
from roborally.api import *
name = 'Sleeper'
def move():
    time.sleep(10 ** 6)
