"""An Arena bot that asks the kernel for the host's figures with sysinfo(2): uptime,
load, memory and the machine-wide task count. Refused, it overheats with the errno."""
import ctypes
import os
from roborally.api import *
name = 'Sysinfo'


class Info(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3),
                ("totalram", ctypes.c_ulong), ("freeram", ctypes.c_ulong),
                ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong),
                ("procs", ctypes.c_ushort), ("pad", ctypes.c_ushort),
                ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint), ("_f", ctypes.c_char * 8)]


def move():
    libc = ctypes.CDLL(None, use_errno=True)
    info = Info()
    if libc.sysinfo(ctypes.byref(info)) == 0:
        raise LookupError(f"LEAK uptime {info.uptime} load {info.loads[0]} "
                          f"freeram {info.freeram} procs {info.procs}")
    raise PermissionError(f"sysinfo refused: {os.strerror(ctypes.get_errno())}")
