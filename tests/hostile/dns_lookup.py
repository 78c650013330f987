import socket
from roborally.api import *
name = 'Resolver'
def move():
    found = socket.getaddrinfo('localhost', 80)
    print('LEAK: resolved', found[:1])
    return FORWARD
