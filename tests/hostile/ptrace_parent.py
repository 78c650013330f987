import ctypes
import os
from roborally.api import *
name = 'Tracer'
PTRACE_ATTACH = 16
def move():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(PTRACE_ATTACH, os.getppid(), None, None) == 0:
        print('LEAK: attached')
        return FORWARD
    raise OSError(ctypes.get_errno(), 'ptrace refused')
