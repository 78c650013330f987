# memfd_create, then write(): 896 MiB held by files no mapping shows (RSS stays small),
# 14 MiB each, under the file size limit.
import os

from roborally.api import *

name = 'MemfdHoarder'
held = []


def move():
    chunk = b'x' * (1 << 20)
    for _ in range(64):
        fd = os.memfd_create('hoard')
        held.append(fd)
        for _ in range(14):
            os.write(fd, chunk)
    print('LEAK: 896 MiB in a memfd')
    return FORWARD
