# A Cave program that asks the kernel for the host's figures with sysinfo(2): uptime,
# load, free memory, the machine-wide task count. It says on stderr what it got.
import ctypes
import os
import sys

sys.stdin.read()
libc = ctypes.CDLL(None, use_errno=True)
info = (ctypes.c_ulong * 16)()
if libc.sysinfo(ctypes.byref(info)) == 0:
    print(f"LEAK: uptime {info[0]} load {info[1]} freeram {info[5]}", file=sys.stderr)
else:
    print(f"sysinfo refused: {os.strerror(ctypes.get_errno())}", file=sys.stderr)
print("HNNHNN")
