# SysV shared memory: 24 segments of 64 MiB, touched, then detached (the IPC namespace
# keeps them): 1.5 GiB outside the memory cap, were it allowed. Then a message queue.
import ctypes

from roborally.api import *

name = 'ShmHoarder'
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
IPC_PRIVATE, IPC_CREAT = 0, 0o1000


def move():
    for _ in range(24):
        shmid = libc.shmget(IPC_PRIVATE, ctypes.c_size_t(64 << 20), IPC_CREAT | 0o600)
        if shmid < 0:
            raise PermissionError(ctypes.get_errno(), "shmget refused")
        address = libc.shmat(shmid, None, 0)
        ctypes.memset(address, 1, 64 << 20)
        libc.shmdt(ctypes.c_void_p(address))
    if libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o600) >= 0:
        print('LEAK: a message queue')
    print('LEAK: 1.5 GiB of shared memory held')
    return FORWARD
