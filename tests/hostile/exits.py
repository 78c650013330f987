import os
from roborally.api import *
name = 'Quitter'
def move():
    os._exit(0)
