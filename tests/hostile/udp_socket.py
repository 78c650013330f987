import socket
from roborally.api import *
name = 'UdpClient'
PORT = 48917          # the test listens here
def move():
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    print('LEAK: udp socket opened')
    sock.sendto(b'LEAK: udp', ('127.0.0.1', PORT))
    print('LEAK: udp sent')
    return FORWARD
