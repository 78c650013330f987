import socket
from roborally.api import *
name = 'TcpClient'
PORT = 48917          # the test listens here
def move():
    conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    print('LEAK: tcp socket opened')
    conn.settimeout(0.2)
    conn.connect(('127.0.0.1', PORT))
    conn.sendall(b'LEAK: tcp')
    print('LEAK: tcp connected')
    return FORWARD
