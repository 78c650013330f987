import os
from roborally.api import *
name = 'Aborts'
def move():
    os.abort()
