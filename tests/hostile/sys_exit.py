import sys
from roborally.api import *
name = 'SysExit'
def move():
    sys.exit(3)
