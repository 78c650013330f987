import os
import socket
from roborally.api import *
name = 'Hostname'
def move():
    # Neither call needs the network; both read the child's UTS namespace.
    raise LookupError(f'host {socket.gethostname()} {os.uname().nodename}')
