# Floods the host's pipe with well-formed frames, forever.
import os
import struct
from roborally.api import *
name = 'Flooder'
FRAME = b'\x81\xa1x\x01'                 # msgpack {"x": 1}
def move():
    data = (struct.pack('>I', len(FRAME)) + FRAME) * 4096
    while True:
        for fd in range(3, 64):
            try:
                os.write(fd, data)
            except OSError:
                pass
