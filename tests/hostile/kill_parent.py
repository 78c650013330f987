import os
import signal
from roborally.api import *
name = 'Parricide'
def move():
    os.kill(os.getppid(), signal.SIGKILL)     # the host (or, in a pid namespace, pid 0)
    os.kill(os.getpgid(0), signal.SIGTERM)    # and the process group it may share
    return FORWARD
