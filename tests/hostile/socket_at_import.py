# Tries the network once, at import, then plays fairly.
import socket
from roborally.api import *
name = 'QuietSocket'
try:
    socket.create_connection(('127.0.0.1', 48917), timeout=0.2).sendall(b'LEAK: tcp')
    print('LEAK: connected at import')
except OSError:
    pass


def move():
    return TURN_LEFT
