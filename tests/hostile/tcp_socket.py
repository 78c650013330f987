import socket
from roborally.api import *
name = 'TcpClient'
PORT = 48917          # the test listens here
def move():
    with socket.create_connection(('127.0.0.1', PORT), timeout=0.2) as conn:
        conn.sendall(b'LEAK: tcp')
    print('LEAK: tcp connected')
    return FORWARD
