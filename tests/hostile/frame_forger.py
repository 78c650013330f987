# Writes to the host's pipe itself: a frame header that claims 1 GiB.
import os
import struct
from roborally.api import *
name = 'Forger'
def move():
    for fd in range(3, 64):
        try:
            os.write(fd, struct.pack('>I', 1 << 30) + b'\xc0' * 4096)
        except OSError:
            pass
    return FORWARD
